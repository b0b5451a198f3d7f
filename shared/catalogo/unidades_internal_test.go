package catalogo

import (
	"os"
	"path/filepath"
	"regexp"
	"testing"

	"github.com/erpcr/erp/shared/seed"
)

func TestUnitCodesAreHaciendasExactly(t *testing.T) {
	seen := map[string]bool{}
	for _, c := range CodigosUnidad {
		if seen[c] {
			t.Errorf("code %q listed twice", c)
		}
		seen[c] = true
	}
	if len(CodigosUnidad) != 101 {
		t.Errorf("%d codes, Hacienda's v4.4 UnidadMedidaType has 101", len(CodigosUnidad))
	}
	// The ohm is the OHM SIGN of the schema, not the look-alike Greek letter.
	if !seen["\u2126"] || seen["\u03a9"] {
		t.Errorf("ohm code: want U+2126 only")
	}
	for _, c := range []string{"Kg", "Unid", "mL", "m²", "kWh", "Sp"} {
		if !seen[c] {
			t.Errorf("official code %q missing", c)
		}
	}
	for _, c := range []string{"kg", "KG", "unid", "ml", "m2", "KWH"} {
		if seen[c] {
			t.Errorf("%q is not an official code (codes are case-sensitive)", c)
		}
	}
	for _, u := range seed.Unidades {
		if !seen[u[0]] {
			t.Errorf("seeded unit %q (%s) has no official code", u[0], u[1])
		}
	}
}

// The list must match the enumeration of the XSDs kept next to the
// repository (when they are there).
func TestUnitCodesMatchTheXSD(t *testing.T) {
	files, _ := filepath.Glob("../../../shared/hacienda/xsd/*/v4.4/FacturaElectronica_V4.4.xsd")
	if len(files) == 0 {
		t.Skip("Hacienda's XSDs are not next to the repository")
	}
	block := regexp.MustCompile(`(?s)name="UnidadMedidaType".*?</xs:simpleType>`)
	value := regexp.MustCompile(`enumeration value="([^"]*)"`)
	for _, f := range files {
		raw, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		var xsd []string
		for _, m := range value.FindAllStringSubmatch(block.FindString(string(raw)), -1) {
			xsd = append(xsd, m[1])
		}
		if len(xsd) != len(CodigosUnidad) {
			t.Errorf("%s: %d codes, we list %d", f, len(xsd), len(CodigosUnidad))
			continue
		}
		for i := range xsd {
			if xsd[i] != CodigosUnidad[i] {
				t.Errorf("%s: code %d is %q (%U), we list %q (%U)", f, i, xsd[i], []rune(xsd[i]), CodigosUnidad[i], []rune(CodigosUnidad[i]))
			}
		}
	}
}

func TestNormalizeCabys(t *testing.T) {
	for _, c := range []struct {
		in string
		ok bool
	}{
		{"2399999000000", true},
		{"0000000000000", true},
		{"239999900000", false},
		{"23999990000001", false},
		{"239999900000A", false},
		{"2399-99900000", false},
		{"", false},
		{"２３９９９９９００００００", false}, // full-width digits are not \d
	} {
		got, msg, ok := normalizeCabys(c.in)
		if ok != c.ok || (ok && got != c.in) || (!ok && msg == "") {
			t.Errorf("normalizeCabys(%q) = %q, %q, %v", c.in, got, msg, ok)
		}
	}
}
