package comprobante

import (
	"bytes"
	"encoding/xml"
	"strings"
	"testing"
	"time"
)

func TestTipo(t *testing.T) {
	casos := []struct {
		tipo     Tipo
		raiz, ns string
		esValido bool
	}{
		{Factura, "FacturaElectronica", "https://cdn.comprobanteselectronicos.go.cr/xml-schemas/v4.4/facturaElectronica", true},
		{NotaDebito, "NotaDebitoElectronica", "https://cdn.comprobanteselectronicos.go.cr/xml-schemas/v4.4/notaDebitoElectronica", true},
		{NotaCredito, "NotaCreditoElectronica", "https://cdn.comprobanteselectronicos.go.cr/xml-schemas/v4.4/notaCreditoElectronica", true},
		{Tiquete, "TiqueteElectronico", "https://cdn.comprobanteselectronicos.go.cr/xml-schemas/v4.4/tiqueteElectronico", true},
		{"08", "", "", false},
		{"", "", "", false},
	}
	for _, c := range casos {
		if c.tipo.Raiz() != c.raiz || c.tipo.Namespace() != c.ns || c.tipo.Valido() != c.esValido {
			t.Errorf("%q: Raiz %q Namespace %q Valido %v", c.tipo, c.tipo.Raiz(), c.tipo.Namespace(), c.tipo.Valido())
		}
	}
}

// TestXML_determinista: the same document gives the same bytes, whatever
// the location of its dates and however often it is written.
func TestXML_determinista(t *testing.T) {
	for nombre, d := range generados(t) {
		a, err := XML(d)
		if err != nil {
			t.Fatal(err)
		}
		for range 20 {
			b, _ := XML(d)
			if !bytes.Equal(a, b) {
				t.Fatalf("%s: two runs differ", nombre)
			}
		}
		d.FechaEmision = d.FechaEmision.UTC()
		for i := range d.Referencias {
			d.Referencias[i].FechaEmision = d.Referencias[i].FechaEmision.In(time.FixedZone("X", 5*3600+1800))
		}
		if c, _ := XML(d); !bytes.Equal(a, c) {
			t.Fatalf("%s: the location of the dates changed the output", nombre)
		}
	}
	// The desglose does not depend on the order in which rates appear.
	d := documentoBase(t, Factura)
	a, _ := XML(d)
	d.Lineas[0], d.Lineas[2] = d.Lineas[2], d.Lineas[0]
	b, _ := XML(d)
	desglose := func(x []byte) string {
		s := string(x)
		return s[strings.Index(s, "<TotalDesgloseImpuesto>"):strings.Index(s, "<TotalImpuesto>")]
	}
	if desglose(a) != desglose(b) {
		t.Errorf("desglose depends on line order:\n%s\n%s", desglose(a), desglose(b))
	}
}

// TestXML_forma checks the envelope the signer relies on.
func TestXML_forma(t *testing.T) {
	for _, tipo := range []Tipo{Factura, NotaDebito, NotaCredito, Tiquete} {
		x, err := XML(documentoBase(t, tipo))
		if err != nil {
			t.Fatal(err)
		}
		s := string(x)
		inicio := `<?xml version="1.0" encoding="UTF-8"?>` + "\n<" + tipo.Raiz() + ` xmlns="` + tipo.Namespace() + `">` + "\n\t<Clave>"
		if !strings.HasPrefix(s, inicio) {
			t.Errorf("%s starts with %q", tipo.Raiz(), s[:min(len(s), 200)])
		}
		if !strings.HasSuffix(s, "\n</"+tipo.Raiz()+">") {
			t.Errorf("%s does not end with its closing tag", tipo.Raiz())
		}
		for _, prohibido := range []string{"xmlns:", "xsi:", "ds:Signature", "\r", "&#34;", "&#39;"} {
			if strings.Contains(s, prohibido) {
				t.Errorf("%s contains %q", tipo.Raiz(), prohibido)
			}
		}
		if tipo == Tiquete && strings.Contains(s, "<Receptor>") {
			t.Error("the tiquete fixture has no receptor")
		}
	}
}

// TestXML_escapes checks special characters in names, details and
// references: escaped in the bytes, identical after parsing.
func TestXML_escapes(t *testing.T) {
	d := generados(t)["FacturaElectronica/caracteres-especiales"]
	x, err := XML(d)
	if err != nil {
		t.Fatal(err)
	}
	contiene(t, string(x),
		`<Nombre>Café &amp; Té &lt;Ñandú&gt; "Los Ángeles" S.A.</Nombre>`,
		`<NombreComercial>A&amp;B &gt; C</NombreComercial>`,
		`<Nombre>José Ñúñez O'Brien</Nombre>`,
		`<Detalle>Tornillos 1/2" &amp; tuercas &lt;M8&gt; — acero inoxidable ñ áéíóú ü ©</Detalle>`,
		`<Razon>Según OC "urgente" &amp; anexo &lt;B&gt;&#xD;`+"\nsegunda línea</Razon>",
	)

	// Parse it back: the text must be exactly what went in.
	var leido struct {
		Emisor struct {
			Nombre, NombreComercial string
		}
		Receptor struct{ Nombre string }
		Lineas   []struct {
			Detalle   string
			Descuento []struct{ NaturalezaDescuento string }
		} `xml:"DetalleServicio>LineaDetalle"`
		Referencia struct {
			TipoDocRefOTRO, Numero, Razon string
		} `xml:"InformacionReferencia"`
	}
	if err := xml.Unmarshal(x, &leido); err != nil {
		t.Fatal(err)
	}
	pares := [][2]string{
		{leido.Emisor.Nombre, d.Emisor.Nombre},
		{leido.Emisor.NombreComercial, d.Emisor.NombreComercial},
		{leido.Receptor.Nombre, d.Receptor.Nombre},
		{leido.Lineas[0].Detalle, d.Lineas[0].Detalle},
		{leido.Lineas[0].Descuento[0].NaturalezaDescuento, d.Lineas[0].Descuentos[0].Naturaleza},
		{leido.Referencia.TipoDocRefOTRO, d.Referencias[0].TipoDocOtro},
		{leido.Referencia.Numero, d.Referencias[0].Numero},
		{leido.Referencia.Razon, d.Referencias[0].Razon},
	}
	for _, p := range pares {
		if p[0] != p[1] {
			t.Errorf("round trip: got %q, want %q", p[0], p[1])
		}
	}
}

// TestXML_elementosOpcionales checks which optional elements appear.
func TestXML_elementosOpcionales(t *testing.T) {
	fe, _ := XML(documentoBase(t, Factura))
	s := string(fe)
	contiene(t, s,
		"<PlazoCredito>30</PlazoCredito>",
		"<CodigoActividadReceptor>8690.9</CodigoActividadReceptor>",
		// Exempt line: one IVA Impuesto with code 10, rate 0 and no tax.
		"<CodigoTarifaIVA>10</CodigoTarifaIVA>\n\t\t\t\t<Tarifa>0.00</Tarifa>\n\t\t\t\t<Monto>0.00000</Monto>",
		"<ImpuestoAsumidoEmisorFabrica>0.00000</ImpuestoAsumidoEmisorFabrica>",
		// Discount 99: described in both elements.
		"<CodigoDescuento>99</CodigoDescuento>\n\t\t\t\t<CodigoDescuentoOTRO>Cliente frecuente del programa</CodigoDescuentoOTRO>\n\t\t\t\t<NaturalezaDescuento>Cliente frecuente del programa</NaturalezaDescuento>",
		"<TotalDescuentos>1125.71000</TotalDescuentos>",
		"<MedioPago>\n\t\t\t<TipoMedioPago>04</TipoMedioPago>\n\t\t</MedioPago>",
		"<TotalComprobante>432564.09000</TotalComprobante>",
	)
	for _, ausente := range []string{"TotalServExonerado", "TotalMercNoSujeta", "TotalExonerado", "TotalNoSujeto", "TotalImpAsumEmisorFabrica",
		"InformacionReferencia", "CondicionVentaOtros", "OtrasSenasExtranjero", "TipoTransaccion", "OtrosCargos"} {
		if strings.Contains(s, "<"+ausente+">") {
			t.Errorf("unexpected %s", ausente)
		}
	}
	te, _ := XML(documentoBase(t, Tiquete))
	contiene(t, string(te), "<TotalMedioPago>20000.00000</TotalMedioPago>")
	if strings.Contains(string(te), "PlazoCredito") || strings.Contains(string(te), "CodigoActividadReceptor") {
		t.Error("tiquete with PlazoCredito or CodigoActividadReceptor")
	}
	nc, _ := XML(generados(t)["NotaCreditoElectronica/sobre-tiquete"])
	for _, ausente := range []string{"<CodigoActividadEmisor>", "<Receptor>", "<Ubicacion>", "<MedioPago>"} {
		if strings.Contains(string(nc), ausente) {
			t.Errorf("credit note on a tiquete contains %s", ausente)
		}
	}
	contiene(t, string(nc), "<Codigo>99</Codigo>\n\t\t<CodigoReferenciaOTRO>Ajuste por promoción no aplicada</CodigoReferenciaOTRO>")
}
