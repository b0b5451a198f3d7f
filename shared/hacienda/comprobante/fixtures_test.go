package comprobante

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/shopspring/decimal"
)

// dec parses a decimal literal; test data is constant, so panicking is fine.
func dec(s string) decimal.Decimal { return decimal.RequireFromString(s) }

// cr is Costa Rica time for building test dates.
var cr = time.FixedZone("CR", -6*3600)

// fechaBase is the issue date of the fixtures.
var fechaBase = time.Date(2026, 11, 20, 14, 35, 9, 0, cr)

// claveDe builds a consistent clave and consecutivo the way Hacienda defines
// them: 506 + DDMMYY + issuer id padded to 12 + consecutivo (local 001,
// terminal 00001, type, sequence) + situación 1 + security code.
func claveDe(tipo Tipo, emisorID string, fecha time.Time, secuencia int) (clave, consecutivo string) {
	consecutivo = fmt.Sprintf("00100001%s%010d", tipo, secuencia)
	f := fecha.In(cr)
	id := strings.Repeat("0", 12-len(emisorID)) + emisorID
	clave = fmt.Sprintf("506%02d%02d%02d%s%s1%08d", f.Day(), int(f.Month()), f.Year()%100, id, consecutivo, secuencia*7%100000000)
	return clave, consecutivo
}

// emisorBase is a realistic issuer (a persona jurídica with 2 e-mails).
func emisorBase() Parte {
	return Parte{
		Nombre:          "Distribuidora Ñandú del Valle S.A.",
		Identificacion:  Identificacion{Tipo: "02", Numero: "3101123456"},
		NombreComercial: "Ñandú Express",
		Ubicacion: &Ubicacion{Provincia: "1", Canton: "01", Distrito: "08", Barrio: "Sabana Norte",
			OtrasSenas: "De la Contraloría 200 m norte, edificio esquinero color terracota"},
		Telefono:          &Telefono{CodigoPais: "506", Numero: "22905555"},
		CorreoElectronico: []string{"facturacion@nandu.cr", "contabilidad@nandu.cr"},
	}
}

// receptorBase is a realistic receiver (a persona física).
func receptorBase() *Parte {
	return &Parte{
		Nombre:            "María José Solís Araya",
		Identificacion:    Identificacion{Tipo: "01", Numero: "112340567"},
		Ubicacion:         &Ubicacion{Provincia: "4", Canton: "01", Distrito: "03", OtrasSenas: "Residencial Los Arcos, casa 14-B"},
		Telefono:          &Telefono{CodigoPais: "506", Numero: "88776655"},
		CorreoElectronico: []string{"mjsolis@correo.cr"},
	}
}

// lineasBase covers goods and services, 13 %, 4 % and exempt lines, a
// commercial code, a discount with a code and a discount with code 99.
func lineasBase() []Linea {
	return []Linea{
		{
			CodigoCABYS: "3212100000100", CodigosComerciales: []CodigoComercial{{Tipo: "01", Codigo: "CU-100"}},
			Cantidad: dec("3"), UnidadMedida: "Unid", UnidadMedidaComercial: "Paquete",
			Detalle: "Cuaderno universitario 100 hojas", PrecioUnitario: dec("1250.50"),
			Descuentos:     []Descuento{{Monto: dec("375.15"), Codigo: "04", Naturaleza: "Descuento por volumen"}},
			ImpuestoCodigo: "01", CodigoTarifaIVA: "08", Tarifa: dec("13"),
		},
		{
			CodigoCABYS: "8314200000000", Cantidad: dec("1.5"), UnidadMedida: "h",
			Detalle: "Hora de soporte técnico en sitio", PrecioUnitario: dec("25000"),
			ImpuestoCodigo: "01", CodigoTarifaIVA: "08", Tarifa: dec("13"), EsServicio: true,
		},
		{
			CodigoCABYS: "3542100000200", Cantidad: dec("2"), UnidadMedida: "Unid",
			Detalle: "Acetaminofén 500 mg, caja de 10 tabletas", PrecioUnitario: dec("3333.335"),
			ImpuestoCodigo: "01", CodigoTarifaIVA: "04", Tarifa: dec("4"),
		},
		{
			CodigoCABYS: "3221000000100", Cantidad: dec("1"), UnidadMedida: "Unid",
			Detalle: "Libro de texto escolar de matemática", PrecioUnitario: dec("9800"),
			ImpuestoCodigo: "01", CodigoTarifaIVA: "10", Tarifa: decimal.Zero,
		},
		{
			CodigoCABYS: "7211200000100", Cantidad: dec("1"), UnidadMedida: "Al",
			Detalle: "Alquiler habitacional, mes de noviembre", PrecioUnitario: dec("350000"),
			CodigoTarifaIVA: "10", EsServicio: true,
		},
		{
			CodigoCABYS: "3212100000300", Cantidad: dec("12.250"), UnidadMedida: "Kg",
			Detalle: "Papel bond reciclado", PrecioUnitario: dec("1480.12345"),
			Descuentos: []Descuento{
				{Monto: dec("500"), Codigo: "06"},
				{Monto: dec("250.555"), Codigo: "99", Naturaleza: "Cliente frecuente del programa"},
			},
			ImpuestoCodigo: "01", CodigoTarifaIVA: "08", Tarifa: dec("13"),
		},
	}
}

// documentoBase returns a valid, realistic document of the given type: FE
// on credit with receiver, TE in cash without receiver and two means of
// payment, NC/ND with a receiver and a reference to an FE.
func documentoBase(t *testing.T, tipo Tipo) Documento {
	t.Helper()
	clave, cons := claveDe(tipo, "3101123456", fechaBase, 4521)
	d := Documento{
		Tipo: tipo, Clave: clave, ProveedorSistemas: "3101702934",
		CodigoActividadEmisor: "4649.0", NumeroConsecutivo: cons, FechaEmision: fechaBase,
		Emisor: emisorBase(), CondicionVenta: "01", Lineas: lineasBase(),
		CodigoMoneda: "CRC", TipoCambio: dec("1"),
		MediosPago: []MedioPago{{Tipo: "04"}},
	}
	switch tipo {
	case Factura:
		d.Receptor = receptorBase()
		d.CodigoActividadReceptor = "8690.9"
		d.CondicionVenta, d.PlazoCredito = "02", 30
	case Tiquete:
		c, err := Calcular(d)
		if err != nil {
			t.Fatal(err)
		}
		efectivo := dec("20000")
		d.MediosPago = []MedioPago{{Tipo: "01", Total: efectivo}, {Tipo: "06", Total: c.TotalComprobante.Sub(efectivo)}}
	case NotaCredito, NotaDebito:
		d.Receptor = receptorBase()
		fe, _ := claveDe(Factura, "3101123456", fechaBase.AddDate(0, 0, -10), 4400)
		r := Referencia{TipoDoc: "01", Numero: fe, FechaEmision: fechaBase.AddDate(0, 0, -10), Codigo: "01", Razon: "Devolución total de la mercadería"}
		if tipo == NotaDebito {
			r.Codigo, r.Razon = "02", "Ajuste de precio pactado"
		}
		d.Referencias = []Referencia{r}
		d.Lineas = d.Lineas[:4]
	}
	return d
}

// enDolares converts a fixture to USD with smaller prices.
func enDolares(d Documento) Documento {
	d.CodigoMoneda, d.TipoCambio = "USD", dec("505.25")
	lineas := make([]Linea, len(d.Lineas))
	for i, l := range d.Lineas {
		l.PrecioUnitario = l.PrecioUnitario.Div(dec("500")).Round(5)
		var ds []Descuento
		for _, x := range l.Descuentos {
			x.Monto = x.Monto.Div(dec("500")).Round(2)
			ds = append(ds, x)
		}
		l.Descuentos = ds
		lineas[i] = l
	}
	d.Lineas = lineas
	d.MediosPago = []MedioPago{{Tipo: "02"}}
	return d
}

// contiene fails unless every fragment is in s.
func contiene(t *testing.T, s string, fragmentos ...string) {
	t.Helper()
	for _, f := range fragmentos {
		if !strings.Contains(s, f) {
			t.Errorf("missing %q in:\n%s", f, s)
		}
	}
}
