package recepcion

import (
	"bytes"
	"regexp"
	"strings"
	"unicode"
	"unicode/utf8"
)

// Hacienda's servers answer in ISO-8859-1 as often as in UTF-8 (headers
// such as X-Error-Cause, error bodies, the MensajeHacienda), and what this
// package hands out ends in text columns and JSON, which hold UTF-8 only
// and no NUL: a Latin-1 "número" taken as it came made PostgreSQL refuse
// to store the refusal, so the worker kept retrying a document that had
// its answer.

// latin1 appends to out the ISO-8859-1 text b as UTF-8 (every byte is the
// code point of the same value, so nothing is lost).
func latin1(out, b []byte) []byte {
	for _, c := range b {
		out = utf8.AppendRune(out, rune(c))
	}
	return out
}

// esLatin1 reports whether an encoding name is one read as ISO-8859-1
// (Windows-1252 too, as its printable range mostly agrees).
func esLatin1(charset string) bool {
	switch strings.ToLower(charset) {
	case "iso-8859-1", "latin1", "latin-1", "windows-1252", "cp1252":
		return true
	}
	return false
}

// utf8DeLatin1 reads b as UTF-8 when it is, else as ISO-8859-1.
func utf8DeLatin1(b []byte) []byte {
	if utf8.Valid(b) {
		return b
	}
	return latin1(make([]byte, 0, len(b)+len(b)/4), b)
}

// Legible is text from Hacienda as a text column and JSON can hold it:
// UTF-8 (ISO-8859-1 bytes decoded), without NUL or other control
// characters (tabs and line breaks become spaces), trimmed, and at most n
// characters (n <= 0: no limit), cut on a character boundary with "…".
func Legible(b []byte, n int) string {
	s := string(utf8DeLatin1(b))
	var sb strings.Builder
	sb.Grow(len(s))
	for _, r := range s {
		switch {
		case r == '\t' || r == '\n' || r == '\r':
			sb.WriteByte(' ')
		case unicode.IsControl(r):
		default:
			sb.WriteRune(r)
		}
	}
	return recortar(strings.TrimSpace(sb.String()), n)
}

// recortar cuts s to n characters (n <= 0: no limit), marking the cut.
func recortar(s string, n int) string {
	if n <= 0 || utf8.RuneCountInString(s) <= n {
		return s
	}
	r := []rune(s)
	return string(r[:n]) + "…"
}

var declaracionCodificacion = regexp.MustCompile(`^(\s*<\?xml[^>]*?encoding\s*=\s*["'])([A-Za-z0-9._-]+)(["'])`)

// TextoXML is an XML document from Hacienda (the MensajeHacienda) as UTF-8
// text: a document in ISO-8859-1 (or Windows-1252, read as ISO-8859-1
// like LeerMensaje does) is transcoded and its declaration then says
// UTF-8, so the text read back parses to the same content. NUL, which no
// XML document may contain, is dropped.
func TextoXML(b []byte) string {
	b = bytes.ReplaceAll(b, []byte{0}, nil)
	m := declaracionCodificacion.FindSubmatchIndex(b)
	enLatin1 := !utf8.Valid(b)
	if m != nil {
		enLatin1 = enLatin1 || esLatin1(string(b[m[4]:m[5]]))
	}
	if !enLatin1 {
		return string(b)
	}
	out := make([]byte, 0, len(b)+len(b)/4)
	if m != nil {
		out = append(append(append(out, b[:m[4]]...), "UTF-8"...), b[m[5]:m[1]]...)
		b = b[m[1]:]
	}
	return string(latin1(out, b))
}
