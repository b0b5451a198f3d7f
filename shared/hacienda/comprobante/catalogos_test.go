package comprobante

import (
	"encoding/xml"
	"io/fs"
	"sort"
	"strings"
	"testing"

	"github.com/erpcr/erp/shared/hacienda/esquemas"
)

// nodo is a generic XML element, enough to walk an XSD.
type nodo struct {
	XMLName xml.Name
	Attrs   []xml.Attr `xml:",any,attr"`
	Hijos   []nodo     `xml:",any"`
}

func (n nodo) attr(nombre string) string {
	for _, a := range n.Attrs {
		if a.Name.Local == nombre {
			return a.Value
		}
	}
	return ""
}

// buscar returns the first descendant (depth-first) with that local name
// and name attribute.
func (n nodo) buscar(tag, nombre string) (nodo, bool) {
	for _, h := range n.Hijos {
		if h.XMLName.Local == tag && h.attr("name") == nombre {
			return h, true
		}
		if r, ok := h.buscar(tag, nombre); ok {
			return r, true
		}
	}
	return nodo{}, false
}

// enumeracion collects the enumeration values under n.
func (n nodo) enumeracion() []string {
	var vals []string
	for _, h := range n.Hijos {
		if h.XMLName.Local == "enumeration" {
			vals = append(vals, h.attr("value"))
		}
		vals = append(vals, h.enumeracion()...)
	}
	return vals
}

// esquema parses the embedded XSD of a root element.
func esquema(t *testing.T, raiz string) nodo {
	t.Helper()
	b, err := fs.ReadFile(esquemas.FS(), "2026/v4.4/"+esquemas.Archivo[raiz])
	if err != nil {
		t.Fatal(err)
	}
	var n nodo
	if err := xml.Unmarshal(b, &n); err != nil {
		t.Fatal(err)
	}
	return n
}

// mismo fails unless the set equals the XSD list.
func mismo(t *testing.T, que string, set map[string]bool, xsd []string) {
	t.Helper()
	if len(xsd) == 0 {
		t.Fatalf("%s: enumeration not found in the XSD", que)
	}
	var nuestro []string
	for k := range set {
		nuestro = append(nuestro, k)
	}
	sort.Strings(nuestro)
	sort.Strings(xsd)
	if strings.Join(nuestro, " ") != strings.Join(xsd, " ") {
		t.Errorf("%s differs from the XSD:\n ours %v\n xsd  %v", que, nuestro, xsd)
	}
}

// TestCatalogos_igualesAlXSD keeps the Go code tables equal to the
// enumerations of the embedded official XSDs, for each document type.
func TestCatalogos_igualesAlXSD(t *testing.T) {
	for _, tipo := range []Tipo{Factura, NotaDebito, NotaCredito, Tiquete} {
		t.Run(tipo.Raiz(), func(t *testing.T) {
			x := esquema(t, tipo.Raiz())
			if got := x.attr("targetNamespace"); got != tipo.Namespace() {
				t.Errorf("targetNamespace %q, Namespace() %q", got, tipo.Namespace())
			}
			enumDe := func(tag, nombre string) []string {
				n, ok := x.buscar(tag, nombre)
				if !ok {
					t.Fatalf("%s %s not in the XSD", tag, nombre)
				}
				return n.enumeracion()
			}
			raiz, _ := x.buscar("element", tipo.Raiz())
			cv, _ := raiz.buscar("element", "CondicionVenta")
			mismo(t, "CondicionVenta", condicionesVenta[tipo], cv.enumeracion())
			mp, _ := raiz.buscar("element", "TipoMedioPago")
			mismo(t, "TipoMedioPago", tiposMedioPago, mp.enumeracion())
			id, _ := x.buscar("complexType", "IdentificacionType")
			idTipo, _ := id.buscar("element", "Tipo")
			mismo(t, "IdentificacionType/Tipo", tiposIdentificacion, idTipo.enumeracion())
			cc, _ := x.buscar("complexType", "CodigoType")
			ccTipo, _ := cc.buscar("element", "Tipo")
			mismo(t, "CodigoType/Tipo", tiposCodigoComercial, ccTipo.enumeracion())
			mismo(t, "CodigoMoneda", monedas, enumDe("complexType", "CodigoMonedaType"))
			mismo(t, "UnidadMedidaType", unidadesMedida, enumDe("simpleType", "UnidadMedidaType"))
			mismo(t, "CodigoDescuentoType", codigosDescuento, enumDe("simpleType", "CodigoDescuentoType"))
			mismo(t, "CodigoImpuestoType", codigosImpuesto, enumDe("simpleType", "CodigoImpuestoType"))
			tarifas := map[string]bool{}
			for k := range tarifasIVA {
				tarifas[k] = true
			}
			mismo(t, "CodigoTarifaIVAType", tarifas, enumDe("simpleType", "CodigoTarifaIVAType"))
			mismo(t, "TipoDocReferenciaType", tiposDocReferencia, enumDe("simpleType", "TipoDocReferenciaType"))
			mismo(t, "CodigoReferenciaType", codigosReferencia, enumDe("simpleType", "CodigoReferenciaType"))
		})
	}
}

func TestTarifaIVA(t *testing.T) {
	for codigo, want := range map[string]string{"08": "13", "04": "4", "02": "1", "03": "2", "09": "0.5", "10": "0", "01": "0", "11": "0"} {
		got, ok := TarifaIVA(codigo)
		if !ok || !got.Equal(dec(want)) {
			t.Errorf("TarifaIVA(%q) = %s, %v; want %s", codigo, got, ok, want)
		}
	}
	if _, ok := TarifaIVA("12"); ok {
		t.Error("TarifaIVA(12) should not exist")
	}
}
