package comprobante

import (
	"bytes"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"testing"

	"github.com/erpcr/erp/shared/hacienda/esquemas/esquemastest"
	"github.com/shopspring/decimal"
)

// These tests judge our output with a real validator (xmllint, libxml2)
// against the official 2026 XSDs embedded in package esquemas, not with our
// own reading of the schema.

// firmaFicticia is a ds:Signature that is valid for the XML-DSig schema but
// signs nothing. The XSDs require 1..5 signatures as the root's last child,
// so the unsigned output of XML can only be schema-validated once something
// stands where the signer will put the real one. It also exercises the
// contract that XML ends with the root's closing tag.
const firmaFicticia = `<ds:Signature xmlns:ds="http://www.w3.org/2000/09/xmldsig#" Id="Signature-prueba">` +
	`<ds:SignedInfo>` +
	`<ds:CanonicalizationMethod Algorithm="http://www.w3.org/2001/10/xml-exc-c14n#"/>` +
	`<ds:SignatureMethod Algorithm="http://www.w3.org/2001/04/xmldsig-more#rsa-sha256"/>` +
	`<ds:Reference URI=""><ds:Transforms><ds:Transform Algorithm="http://www.w3.org/2000/09/xmldsig#enveloped-signature"/></ds:Transforms>` +
	`<ds:DigestMethod Algorithm="http://www.w3.org/2001/04/xmlenc#sha256"/><ds:DigestValue>AAAA</ds:DigestValue></ds:Reference>` +
	`</ds:SignedInfo><ds:SignatureValue>AAAA</ds:SignatureValue></ds:Signature>`

// firmar inserts firmaFicticia before the root's closing tag, as the signer does.
func firmar(t *testing.T, raiz string, doc []byte) []byte {
	t.Helper()
	cierre := []byte("</" + raiz + ">")
	if !bytes.HasSuffix(doc, cierre) {
		t.Fatalf("document does not end with %s", cierre)
	}
	i := len(doc) - len(cierre)
	out := append([]byte{}, doc[:i]...)
	out = append(out, "\t"+firmaFicticia+"\n"...)
	return append(out, doc[i:]...)
}

// debeValidar fails the test unless doc validates.
func debeValidar(t *testing.T, raiz string, doc []byte) { esquemastest.Exigir(t, raiz, doc) }

// debeRechazar fails the test unless xmllint rejects doc, with a message
// that mentions motivo.
func debeRechazar(t *testing.T, raiz string, doc []byte, motivo string) {
	t.Helper()
	ok, out := esquemastest.Validar(t, raiz, doc)
	if ok {
		t.Fatalf("xmllint accepted a broken document:\n%s", doc)
	}
	if !strings.Contains(out, motivo) {
		t.Fatalf("xmllint rejected the document but not for %q:\n%s", motivo, out)
	}
}

// TestXSD_muestrasReales proves the harness on the two real signed invoices
// accepted by Hacienda.
func TestXSD_muestrasReales(t *testing.T) {
	archivos, _ := filepath.Glob("/work/shared/hacienda/samples/*.xml")
	if len(archivos) == 0 {
		t.Skip("the samples folder /work/shared/hacienda/samples is not present")
	}
	for _, a := range archivos {
		t.Run(filepath.Base(a), func(t *testing.T) {
			b, err := os.ReadFile(a)
			if err != nil {
				t.Fatal(err)
			}
			debeValidar(t, "FacturaElectronica", b)
			// The same sample without its ProveedorSistemas must fail, or the
			// harness would accept anything.
			roto := quitarElemento(t, b, "ProveedorSistemas")
			debeRechazar(t, "FacturaElectronica", roto, "Expected is ( {https://cdn.comprobanteselectronicos.go.cr/xml-schemas/v4.4/facturaElectronica}ProveedorSistemas )")
		})
	}
}

// quitarElemento removes the first <name>...</name> of doc.
func quitarElemento(t *testing.T, doc []byte, nombre string) []byte {
	t.Helper()
	s := string(doc)
	i := strings.Index(s, "<"+nombre+">")
	j := strings.Index(s, "</"+nombre+">")
	if i < 0 || j < i {
		t.Fatalf("element %s not found", nombre)
	}
	return []byte(s[:i] + s[j+len(nombre)+3:])
}

// generados are the realistic documents the package must write validly:
// each type in CRC and in USD, and the variants that change which optional
// elements appear.
func generados(t *testing.T) map[string]Documento {
	t.Helper()
	docs := map[string]Documento{}
	for _, tipo := range []Tipo{Factura, NotaDebito, NotaCredito, Tiquete} {
		d := documentoBase(t, tipo)
		docs[tipo.Raiz()+"/CRC"] = d
		docs[tipo.Raiz()+"/USD"] = enDolares(d)
	}

	// A tiquete to an identified walk-in customer without identification
	// number, without phone or address, paid with "otros".
	te := documentoBase(t, Tiquete)
	te.Receptor = &Parte{Nombre: "Cliente de contado", CorreoElectronico: []string{"cliente@correo.cr"}}
	te.MediosPago = []MedioPago{{Tipo: "99", Otros: "Vale de regalo"}}
	te.CondicionVenta, te.CondicionVentaOtros = "99", "Canje de puntos de lealtad"
	docs["TiqueteElectronico/receptor-sin-identificacion"] = te

	// A credit note on a tiquete: no receptor, no activity code, issuer
	// without address, reference code 99 and document type 99 on a second reference.
	nc := documentoBase(t, NotaCredito)
	te2, _ := claveDe(Tiquete, "3101123456", fechaBase.AddDate(0, 0, -1), 88)
	nc.Receptor, nc.CodigoActividadEmisor, nc.Emisor.Ubicacion, nc.Emisor.Telefono = nil, "", nil, nil
	nc.Referencias = []Referencia{
		{TipoDoc: "04", Numero: te2, FechaEmision: fechaBase.AddDate(0, 0, -1), Codigo: "99", CodigoOtro: "Ajuste por promoción no aplicada"},
		{TipoDoc: "04", Numero: te2, FechaEmision: fechaBase.AddDate(0, 0, -1), Codigo: "06"},
	}
	nc.MediosPago = nil
	docs["NotaCreditoElectronica/sobre-tiquete"] = nc

	// A factura to a foreign receiver (type 05) with 4 issuer e-mails, five
	// commercial codes and five discounts on one line, a free line (price 0),
	// a 1 % and a 0.5 % line, and all 4 means of payment.
	fe := documentoBase(t, Factura)
	fe.Emisor.CorreoElectronico = []string{"a@nandu.cr", "b@nandu.cr", "c@nandu.cr", "d@nandu.cr"}
	fe.Receptor = &Parte{Nombre: "John O'Neil & Sons Ltd.", Identificacion: Identificacion{Tipo: "05", Numero: "GB123456789"},
		OtrasSenasExtranjero: "221B Baker Street, London NW1 6XE, United Kingdom", Telefono: &Telefono{CodigoPais: "44", Numero: "2079460000"}}
	fe.CodigoActividadReceptor = ""
	l := fe.Lineas[0]
	l.CodigosComerciales = []CodigoComercial{{"01", "A"}, {"02", "B"}, {"03", "7501234567890"}, {"04", "INT-9"}, {"99", "X"}}
	l.Descuentos = []Descuento{{dec("1"), "01", ""}, {dec("1"), "02", ""}, {dec("1"), "03", "Bonificación"}, {dec("1"), "05", ""}, {dec("1"), "07", ""}}
	fe.Lineas = append(fe.Lineas, l,
		Linea{CodigoCABYS: "3212100000100", Cantidad: dec("1"), UnidadMedida: "Unid", Detalle: "Muestra gratis", PrecioUnitario: decimal.Zero, CodigoTarifaIVA: "08", Tarifa: dec("13")},
		Linea{CodigoCABYS: "0111100000100", Cantidad: dec("0.001"), UnidadMedida: "t", Detalle: "Arroz 80/20", PrecioUnitario: dec("950000"), CodigoTarifaIVA: "02", Tarifa: dec("1")},
		Linea{CodigoCABYS: "0111100000200", Cantidad: dec("9999999.999"), UnidadMedida: "Kg", Detalle: "Semilla certificada", PrecioUnitario: dec("0.00001"), CodigoTarifaIVA: "09", Tarifa: dec("0.5")},
	)
	c, err := Calcular(fe)
	if err != nil {
		t.Fatal(err)
	}
	uno := dec("1")
	fe.MediosPago = []MedioPago{{Tipo: "01", Total: uno}, {Tipo: "02", Total: uno}, {Tipo: "07", Total: uno}, {Tipo: "04", Total: c.TotalComprobante.Sub(dec("3"))}}
	fe.CondicionVenta, fe.PlazoCredito = "10", 90
	docs["FacturaElectronica/extranjero-limites"] = fe

	// Every official unit of measure, byte for byte (the XSD has U+2126 for
	// the ohm, "´´" for inches...), one line each.
	um := documentoBase(t, Factura)
	um.Lineas, um.MediosPago = nil, nil
	for u := range unidadesMedida {
		um.Lineas = append(um.Lineas, Linea{CodigoCABYS: "3212100000100", Cantidad: dec("1"), UnidadMedida: u,
			Detalle: "Unidad " + u, PrecioUnitario: dec("10"), CodigoTarifaIVA: "08", Tarifa: dec("13")})
	}
	sort.Slice(um.Lineas, func(i, j int) bool { return um.Lineas[i].UnidadMedida < um.Lineas[j].UnidadMedida })
	docs["FacturaElectronica/todas-las-unidades"] = um

	// A debit note with every rate code a note may use, including the
	// transitional 05 and 06 that other documents may not.
	nd := documentoBase(t, NotaDebito)
	nd.Lineas = nil
	for _, c := range []string{"01", "02", "03", "04", "05", "06", "08", "09", "10", "11"} {
		tf, _ := TarifaIVA(c)
		nd.Lineas = append(nd.Lineas, Linea{CodigoCABYS: "8314200000000", Cantidad: dec("1"), UnidadMedida: "Sp",
			Detalle: "Servicio con tarifa " + c, PrecioUnitario: dec("1000.10"), CodigoTarifaIVA: c, Tarifa: tf, EsServicio: true})
	}
	docs["NotaDebitoElectronica/todas-las-tarifas"] = nd

	// Special characters everywhere text goes.
	esc := documentoBase(t, Factura)
	esc.Emisor.Nombre = `Café & Té <Ñandú> "Los Ángeles" S.A.`
	esc.Emisor.NombreComercial = "A&B > C"
	esc.Receptor.Nombre = "José Ñúñez O'Brien"
	esc.Lineas[0].Detalle = "Tornillos 1/2\" & tuercas <M8> — acero inoxidable ñ áéíóú ü ©"
	esc.Lineas[0].Descuentos[0].Naturaleza = "Promo \"2x1\" & más"
	esc.Referencias = []Referencia{{TipoDoc: "99", TipoDocOtro: "Orden de compra <interna>", Numero: "OC-2026/11&7", FechaEmision: fechaBase.AddDate(0, -1, 0), Codigo: "04", Razon: "Según OC \"urgente\" & anexo <B>\r\nsegunda línea"}}
	docs["FacturaElectronica/caracteres-especiales"] = esc
	return docs
}

// TestXSD_documentosGenerados validates every generated document with xmllint.
func TestXSD_documentosGenerados(t *testing.T) {
	if !esquemastest.Disponible() {
		t.Skip("xmllint not found: install libxml2-utils to run the XSD validation tests; CI installs it")
	}
	docs := generados(t)
	if len(docs) < 14 {
		t.Fatalf("expected at least 14 documents, got %d", len(docs))
	}
	for nombre, d := range docs {
		t.Run(nombre, func(t *testing.T) {
			if errs := Validar(d); errs != nil {
				t.Fatalf("Validar: %v", errs)
			}
			x, err := XML(d)
			if err != nil {
				t.Fatal(err)
			}
			debeValidar(t, d.Tipo.Raiz(), firmar(t, d.Tipo.Raiz(), x))
		})
	}
}

// TestXSD_rechazos proves the harness can fail on our own output: each
// mutation breaks one XSD rule that XML must therefore respect.
func TestXSD_rechazos(t *testing.T) {
	fe := documentoBase(t, Factura)
	x, err := XML(fe)
	if err != nil {
		t.Fatal(err)
	}
	firmado := string(firmar(t, "FacturaElectronica", x))
	te := documentoBase(t, Tiquete)
	xt, err := XML(te)
	if err != nil {
		t.Fatal(err)
	}
	tiquete := string(firmar(t, "TiqueteElectronico", xt))

	casos := []struct {
		nombre, raiz, doc, motivo string
	}{
		{"sin firma", "FacturaElectronica", string(x), "Signature"},
		{"monto negativo", "FacturaElectronica",
			strings.Replace(firmado, "<TotalComprobante>", "<TotalComprobante>-", 1), "TotalComprobante"},
		{"seis decimales", "FacturaElectronica",
			regexp.MustCompile(`<TotalImpuesto>[^<]*<`).ReplaceAllString(firmado, "<TotalImpuesto>1.000001<"), "TotalImpuesto"},
		{"orden alterado", "FacturaElectronica",
			strings.Replace(strings.Replace(firmado, "<ProveedorSistemas>3101702934</ProveedorSistemas>", "", 1),
				"</NumeroConsecutivo>", "</NumeroConsecutivo><ProveedorSistemas>3101702934</ProveedorSistemas>", 1), "ProveedorSistemas"},
		{"tiquete con actividad del receptor", "TiqueteElectronico",
			strings.Replace(tiquete, "<NumeroConsecutivo>", "<CodigoActividadReceptor>8690.9</CodigoActividadReceptor><NumeroConsecutivo>", 1), "CodigoActividadReceptor"},
		{"unidad de medida desconocida", "FacturaElectronica",
			strings.Replace(firmado, "<UnidadMedida>Unid</UnidadMedida>", "<UnidadMedida>unid</UnidadMedida>", 1), "UnidadMedida"},
		{"factura sin receptor", "FacturaElectronica",
			string(quitarElemento(t, []byte(firmado), "Receptor")), "Receptor"},
		{"espacio de nombres de otro tipo", "FacturaElectronica",
			strings.Replace(firmado, "v4.4/facturaElectronica", "v4.4/tiqueteElectronico", 1), "FacturaElectronica"},
	}
	for _, c := range casos {
		t.Run(c.nombre, func(t *testing.T) {
			if c.doc == firmado || c.doc == tiquete {
				t.Fatal("the mutation did not change the document")
			}
			debeRechazar(t, c.raiz, []byte(c.doc), c.motivo)
		})
	}
}
