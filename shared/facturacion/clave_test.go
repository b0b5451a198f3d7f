package facturacion

import (
	"bytes"
	"strings"
	"testing"
	"time"
)

func TestConsecutivoIsEstablishmentTerminalTypeAndSequencePadded(t *testing.T) {
	cases := []struct {
		est, term int
		tipo      string
		seq       int64
		want      string
	}{
		{1, 1, "01", 1, "00100001010000000001"},
		{2, 7, "04", 42, "00200007040000000042"},
		{999, 99999, "03", 9_999_999_999, "99999999039999999999"},
	}
	for _, c := range cases {
		got, err := Consecutivo(c.est, c.term, c.tipo, c.seq)
		if err != nil || got != c.want || len(got) != 20 {
			t.Errorf("Consecutivo(%d, %d, %s, %d) = %q, %v; want %q", c.est, c.term, c.tipo, c.seq, got, err, c.want)
		}
	}
	for _, bad := range [][4]int64{{0, 1, 1, 1}, {1000, 1, 1, 1}, {1, 0, 1, 1}, {1, 100000, 1, 1}, {1, 1, 1, 0}, {1, 1, 1, 10_000_000_000}} {
		if _, err := Consecutivo(int(bad[0]), int(bad[1]), "01", bad[3]); err == nil {
			t.Errorf("Consecutivo%v accepted", bad)
		}
	}
}

func TestClaveHasItsFiftyCharactersInPlace(t *testing.T) {
	// 23:30 on 31 Dec 2026 in Costa Rica is already 1 Jan 2027 in UTC: the
	// date of the clave is Costa Rica's.
	fecha := time.Date(2027, 1, 1, 5, 30, 0, 0, time.UTC)
	clave, err := Clave(fecha, "3-101-000001", "00100001010000000123", SituacionContingencia, "00000042")
	if err != nil {
		t.Fatal(err)
	}
	want := "506" + "311226" + "003101000001" + "00100001010000000123" + "2" + "00000042"
	if clave != want || len(clave) != 50 {
		t.Fatalf("clave %s, want %s", clave, want)
	}
	for _, c := range []struct{ id, want string }{
		{"112340567", "000112340567"},    // física, 9 digits
		{"3101123456", "003101123456"},   // jurídica
		{"155812345678", "155812345678"}, // DIMEX, 12 digits
		{"3-102-ab1234", "003102AB1234"}, // 2026 alphanumeric jurídica
	} {
		got, err := IdentificacionClave(c.id)
		if err != nil || got != c.want {
			t.Errorf("IdentificacionClave(%s) = %s %v, want %s", c.id, got, err, c.want)
		}
	}
	for _, bad := range []string{"", "1234567890123", "31-01/1"} {
		if _, err := IdentificacionClave(bad); err == nil {
			t.Errorf("IdentificacionClave(%q) accepted", bad)
		}
	}
	if _, err := Clave(fecha, "3101000001", "0010000101000000012", "1", "00000042"); err == nil {
		t.Error("a 19-digit consecutivo was accepted")
	}
	if _, err := Clave(fecha, "3101000001", "00100001010000000123", "4", "00000042"); err == nil {
		t.Error("situation 4 was accepted")
	}
	seen := map[string]bool{}
	for i := 0; i < 50; i++ {
		s, err := CodigoSeguridad()
		if err != nil || len(s) != 8 || strings.Trim(s, "0123456789") != "" {
			t.Fatalf("security code %q %v", s, err)
		}
		seen[s] = true
	}
	if len(seen) < 45 {
		t.Errorf("security codes repeat: %d distinct of 50", len(seen))
	}
}

func TestSecretsAreBoundToTheirCompanyAndField(t *testing.T) {
	c, err := NuevoCifrador(bytes.Repeat([]byte{7}, 32))
	if err != nil {
		t.Fatal(err)
	}
	sellado, err := c.Cifrar(1, campoClave, []byte("secreto"))
	if err != nil || bytes.Contains(sellado, []byte("secreto")) {
		t.Fatalf("%v %x", err, sellado)
	}
	if p, err := c.Descifrar(1, campoClave, sellado); err != nil || string(p) != "secreto" {
		t.Fatalf("round trip: %q %v", p, err)
	}
	if _, err := c.Descifrar(2, campoClave, sellado); err == nil {
		t.Error("another company's row decrypted it")
	}
	if _, err := c.Descifrar(1, campoPIN, sellado); err == nil {
		t.Error("another field decrypted it")
	}
	otro, _ := NuevoCifrador(bytes.Repeat([]byte{8}, 32))
	if _, err := otro.Descifrar(1, campoClave, sellado); err == nil {
		t.Error("another key decrypted it")
	}
	if _, err := NuevoCifrador([]byte("corta")); err == nil {
		t.Error("a short key was accepted")
	}
	a, _ := c.Cifrar(1, campoClave, []byte("secreto"))
	if bytes.Equal(a, sellado) {
		t.Error("two encryptions of the same value are equal (nonce reuse)")
	}
}

func TestBackoffDoublesUpToFifteenMinutes(t *testing.T) {
	want := []time.Duration{30 * time.Second, time.Minute, 2 * time.Minute, 4 * time.Minute, 8 * time.Minute, 15 * time.Minute, 15 * time.Minute}
	for i, w := range want {
		if got := backoff(i + 1); got != w {
			t.Errorf("backoff(%d) = %s, want %s", i+1, got, w)
		}
	}
}

func TestValidationPathsBecomeAPIKeys(t *testing.T) {
	for in, want := range map[string]string{
		"Lineas.2.CodigoCABYS":         "detalles.2.codigo_cabys",
		"Emisor.Ubicacion.OtrasSenas":  "configuracion.emisor.ubicacion.otras_senas",
		"Receptor.CorreoElectronico.0": "cliente.correo_electronico.0",
		"CodigoActividadEmisor":        "configuracion.codigo_actividad",
		"Referencias.0.Razon":          "referencia",
		"Clave":                        "clave",
	} {
		if got := claveAPI(in); got != want {
			t.Errorf("claveAPI(%s) = %s, want %s", in, got, want)
		}
	}
}
