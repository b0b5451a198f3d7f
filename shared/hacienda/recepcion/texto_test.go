package recepcion_test

import (
	"context"
	"errors"
	"io"
	"net/http"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/erpcr/erp/shared/hacienda/recepcion"
)

// Hacienda's explanations arrive in ISO-8859-1 as often as in UTF-8: the
// refusal carries them as UTF-8 text without control characters, and a
// body cut to its first 500 characters is not cut inside a character.
func TestExplicacionesEnLatin1SeLeenComoTexto(t *testing.T) {
	latin1 := "El n\xfamero de c\xe9dula del receptor no es v\xe1lido"
	p := nuevaPrueba(t, func(n int, w http.ResponseWriter, r *http.Request) {
		w.Header().Set("X-Error-Cause", latin1)
		w.Header().Set("validation-exception", "c\xe9dula")
		w.WriteHeader(400)
	})
	err := p.c.Enviar(context.Background(), 1, cred, envioEjemplo())
	var rz *recepcion.Rechazo
	if !errors.As(err, &rz) || rz.Causa != "El número de cédula del receptor no es válido" || rz.Validacion != "cédula" {
		t.Fatalf("err = %#v", err)
	}

	cuerpo := "\x00error\tinterno:\r\n" + strings.Repeat("é", 600)
	q := nuevaPrueba(t, func(n int, w http.ResponseWriter, r *http.Request) {
		w.WriteHeader(403)
		_, _ = io.WriteString(w, cuerpo)
	})
	err = q.c.Enviar(context.Background(), 1, cred, envioEjemplo())
	if !errors.As(err, &rz) || !utf8.ValidString(rz.Causa) || strings.ContainsRune(rz.Causa, 0) ||
		!strings.HasPrefix(rz.Causa, "error interno:  ééé") || utf8.RuneCountInString(rz.Causa) != 501 || !strings.HasSuffix(rz.Causa, "é…") {
		t.Fatalf("body: %q", rz.Causa)
	}
}

func TestLegible(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"  ya fue recibido anteriormente ", "ya fue recibido anteriormente"},
		{"Clave inv\xe1lida\x00\x07", "Clave inválida"},
		{"línea 1\nlínea 2", "línea 1 línea 2"},
		{"", ""},
	} {
		if got := recepcion.Legible([]byte(c.in), 0); got != c.want {
			t.Errorf("Legible(%q) = %q, want %q", c.in, got, c.want)
		}
	}
	if got := recepcion.Legible([]byte("áéíóú"), 3); got != "áéí…" {
		t.Errorf("cut: %q", got)
	}
}

// A MensajeHacienda in ISO-8859-1 becomes UTF-8 text that says so in its
// declaration and reads back to the same message; a UTF-8 one is kept as
// it came.
func TestTextoXMLDeUnMensajeEnLatin1(t *testing.T) {
	utf := `<?xml version="1.0" encoding="UTF-8"?>
<MensajeHacienda xmlns="https://cdn.comprobanteselectronicos.go.cr/xml-schemas/v4.4/mensajeHacienda"><Clave>` + claveEjemplo + `</Clave>` +
		`<NombreEmisor>Emergencias Médicas</NombreEmisor><Mensaje>3</Mensaje><DetalleMensaje>El número de cédula no es válido</DetalleMensaje></MensajeHacienda>`
	if got := recepcion.TextoXML([]byte(utf)); got != utf {
		t.Fatalf("UTF-8 changed: %s", got)
	}
	var latin1 []byte
	for _, r := range strings.Replace(utf, `encoding="UTF-8"`, `encoding='ISO-8859-1'`, 1) {
		latin1 = append(latin1, byte(r))
	}
	antes, err := recepcion.LeerMensaje(latin1)
	if err != nil {
		t.Fatal(err)
	}
	texto := recepcion.TextoXML(latin1)
	if !utf8.ValidString(texto) || !strings.HasPrefix(texto, `<?xml version="1.0" encoding='UTF-8'?>`) || !strings.Contains(texto, "Médicas") {
		t.Fatalf("transcoded: %s", texto)
	}
	despues, err := recepcion.LeerMensaje([]byte(texto))
	if err != nil || despues != antes || despues.DetalleMensaje != "El número de cédula no es válido" {
		t.Fatalf("read back: %+v %v (before %+v)", despues, err, antes)
	}
	// Undeclared Latin-1 bytes are transcoded too.
	if got := recepcion.TextoXML([]byte("<Mensaje>v\xe1lido</Mensaje>")); got != "<Mensaje>válido</Mensaje>" {
		t.Fatalf("undeclared: %q", got)
	}
}
