// Package crformat validates and normalizes Costa Rican formats (phones,
// identifications, supplier fields and company subdomains).
//
// The functions are pure so that every handler that stores one of these
// values stores it in the same form: uniqueness checks (a customer's
// identificacion, a company's subdominio) and searches only work when equal
// values are spelled the same way. Messages are in Spanish because they are
// returned to API clients in 422 bodies.
package crformat

import (
	"strings"
	"unicode"
)

// phoneMessageTail is shared by PhoneMessage so the wording lives in one place.
const phoneMessageTail = " debe ser un teléfono de Costa Rica válido: 8 dígitos que comienzan con 2 a 8 (se acepta el prefijo +506 y guiones)."

// NormalizePhone validates a Costa Rican phone and returns it normalized as 8 digits ("88887777").
// Accepted: 8 digits whose first digit is 2..8, optionally with a "+506" or "506 " / "(506)" prefix, and with
// dashes, spaces or dots between digits ("+506 8888-7777", "2222-3333", "8888 7777"). Anything else -> ok=false.
//
// Storing only the 8 national digits means "+506 8888-7777" and "88887777"
// are the same phone for searches and duplicates. Details of the rule:
//   - Surrounding white space is ignored; separators are '.', any Unicode
//     white space (a pasted non-breaking space) and dashes (the ASCII '-' and
//     the typographic dashes word processors substitute); a run of them may
//     appear only between two digits, never at the start or end.
//   - "+506" may be followed directly by the number ("+5068888-7777").
//   - A bare 506 counts as the country code only when it is its own group
//     ("506 8888 7777", "506-8888-7777") and 8 digits follow, so the local
//     number "506 12345" stays "50612345" and "50688887777" is refused.
//   - Only ASCII 0-9 are digits: other scripts' digits are refused because
//     the stored value must be plain ASCII.
func NormalizePhone(s string) (normalized string, ok bool) {
	s = strings.TrimSpace(s)
	explicit := false
	for _, prefix := range []string{"+506", "(506)"} {
		if rest, found := strings.CutPrefix(s, prefix); found {
			s, explicit = strings.TrimLeftFunc(rest, isSeparator), true
			break
		}
	}
	digits, first, ok := digitGroups(s)
	if !ok {
		return "", false
	}
	if !explicit && first == "506" && len(digits) == 11 {
		digits = digits[3:]
	}
	if len(digits) != 8 || digits[0] < '2' || digits[0] > '8' {
		return "", false
	}
	return digits, true
}

// digitGroups checks that s is ASCII digits separated by runs of separators
// (none leading or trailing) and returns all digits and the first group.
func digitGroups(s string) (digits, first string, ok bool) {
	var b strings.Builder
	firstEnd := -1
	prevDigit := false
	for _, r := range s {
		switch {
		case isASCIIDigit(r):
			b.WriteRune(r)
			prevDigit = true
		case isSeparator(r) && prevDigit:
			if firstEnd < 0 {
				firstEnd = b.Len()
			}
			prevDigit = false
		case isSeparator(r) && b.Len() > 0:
			// Still inside a run of separators.
		default:
			return "", "", false
		}
	}
	if !prevDigit {
		return "", "", false // empty, or ends with a separator
	}
	digits = b.String()
	if firstEnd < 0 {
		firstEnd = len(digits)
	}
	return digits, digits[:firstEnd], true
}

// PhoneMessage is the Spanish 422 message for a field name, e.g. "El campo telefono debe ser un teléfono de Costa Rica válido: 8 dígitos que comienzan con 2 a 8 (se acepta el prefijo +506 y guiones)."
//
// It states the expected format so the user can fix the value without
// guessing. Underscores in the field name become spaces
// ("contacto_telefono" -> "El campo contacto telefono ..."), as the other
// "El campo ..." messages of the API (package httpx) do.
func PhoneMessage(field string) string {
	return "El campo " + strings.ReplaceAll(field, "_", " ") + phoneMessageTail
}

// Identification types of customers (tipo_identificacion), as the API
// accepts them; they select the format NormalizeIdentificacion enforces.
const (
	// Fisica is a Costa Rican citizen's cédula física (9 digits, the first 1-9).
	Fisica = "fisica"
	// Juridica is a company's cédula jurídica (10 digits starting with 3).
	Juridica = "juridica"
	// Dimex is a resident foreigner's DIMEX (11 or 12 digits, the first 1-9).
	Dimex = "dimex"
	// Nite is the tax number given to people without another ID (10 digits, not all zero).
	Nite = "nite"
	// Extranjero is a non-domiciled foreigner (alphanumeric, up to 20).
	Extranjero = "extranjero"
)

// TiposIdentificacion lists the accepted tipo_identificacion values in the
// order they are presented to users (e.g. in a catalog endpoint or an "one
// of" message). Treat it as read-only: validation does not depend on it.
var TiposIdentificacion = []string{Fisica, Juridica, Dimex, Nite, Extranjero}

// Descripcion returns the Spanish description of a type ("Cédula física", "Cédula jurídica", "DIMEX", "NITE", "Extranjero no domiciliado"), "" if unknown.
//
// It feeds the output field tipo_identificacion_descripcion; the match is
// exact (lower case) because that is how the types are stored.
func Descripcion(tipo string) string {
	switch tipo {
	case Fisica:
		return "Cédula física"
	case Juridica:
		return "Cédula jurídica"
	case Dimex:
		return "DIMEX"
	case Nite:
		return "NITE"
	case Extranjero:
		return "Extranjero no domiciliado"
	}
	return ""
}

// NormalizeIdentificacion validates an identification for its type and returns the stored form:
// fisica: exactly 9 digits, the first 1-9; juridica: exactly 10 digits starting with 3; dimex: 11 or 12 digits, the
// first 1-9; nite: exactly 10 digits, not all zero;
// extranjero: alphanumeric (letters A-Z/a-z and digits), 1..20 characters, stored upper-cased.
// For the numeric types, dashes and spaces typed by users ("1-0234-0567", "3-101-123456") are removed before checking.
// On failure it returns a Spanish message that states the expected format, e.g.
// "La identificación física debe tener 9 dígitos y no comenzar con 0." / "La cédula jurídica debe tener 10 dígitos y comenzar con 3." /
// "El DIMEX debe tener 11 o 12 dígitos y no comenzar con 0." / "El NITE debe tener 10 dígitos y no ser todo ceros." /
// "La identificación de extranjero debe ser alfanumérica de hasta 20 caracteres."
// An unknown tipo returns the message "El tipo de identificación no es válido.".
//
// The leading digit of a cédula física is the province of registration
// (1-9) and a DIMEX has no leading zero either: Hacienda's electronic
// receipts (Anexos y Estructuras v4.4, Identificacion/Numero; the same
// patterns as package hacienda/comprobante) refuse "012345678" and
// "000000000", so a customer stored with one could never be invoiced. A NITE
// may start with 0 there, but ten zeros is no number Hacienda assigns.
//
// The stored form is canonical because identificacion is unique within a
// company: "1-0234-0567" and "102340567" must collide. Only ASCII digits and
// letters count (other scripts' digits, accented letters and look-alikes
// such as the Kelvin sign are refused rather than folded), and dots are not
// removed from numeric IDs. Surrounding white space is ignored for every
// type; inside an extranjero ID any space or punctuation is refused.
func NormalizeIdentificacion(tipo, s string) (normalized string, msg string, ok bool) {
	switch tipo {
	case Fisica:
		return numericID(s, "La identificación física debe tener 9 dígitos y no comenzar con 0.", func(d string) bool {
			return len(d) == 9 && d[0] != '0'
		})
	case Juridica:
		return numericID(s, "La cédula jurídica debe tener 10 dígitos y comenzar con 3.", func(d string) bool {
			return len(d) == 10 && d[0] == '3'
		})
	case Dimex:
		return numericID(s, "El DIMEX debe tener 11 o 12 dígitos y no comenzar con 0.", func(d string) bool {
			return (len(d) == 11 || len(d) == 12) && d[0] != '0'
		})
	case Nite:
		return numericID(s, "El NITE debe tener 10 dígitos y no ser todo ceros.", func(d string) bool {
			return len(d) == 10 && strings.Trim(d, "0") != ""
		})
	case Extranjero:
		const m = "La identificación de extranjero debe ser alfanumérica de hasta 20 caracteres."
		s = strings.TrimSpace(s)
		if len(s) == 0 || len(s) > 20 {
			return "", m, false
		}
		for _, r := range s {
			if !isASCIIDigit(r) && !('a' <= r && r <= 'z') && !('A' <= r && r <= 'Z') {
				return "", m, false
			}
		}
		// Safe: s is ASCII here, so ToUpper cannot change its length.
		return strings.ToUpper(s), "", true
	}
	return "", "El tipo de identificación no es válido.", false
}

// numericID removes white space and dashes, then requires ASCII digits that
// satisfy valid; msg is returned on any failure so the user always sees the
// expected format.
func numericID(s, msg string, valid func(digits string) bool) (string, string, bool) {
	var b strings.Builder
	for _, r := range s {
		switch {
		case isASCIIDigit(r):
			b.WriteRune(r)
		case unicode.IsSpace(r) || isDash(r):
		default:
			return "", msg, false
		}
	}
	d := b.String()
	if !valid(d) {
		return "", msg, false
	}
	return d, "", true
}

// Supplier normalization (SPEC.md says the service normalizes but not how; this is our rule, documented in the README by others):
// CollapseSpaces trims and collapses every run of Unicode whitespace to one ASCII space ("  Distribuidora   del  Sur " -> "Distribuidora del Sur").
//
// Used for nombre and razon_social so names typed or pasted with extra,
// tab or non-breaking spaces compare and display the same. Zero-width
// characters (U+200B) are not white space in Unicode and are kept.
func CollapseSpaces(s string) string {
	return strings.Join(strings.Fields(s), " ")
}

// NormalizeNitRuc removes spaces, dashes and dots and upper-cases ("3-101-123 456" -> "3101123456", "j-123" -> "J123").
//
// A NIT/RUC is written with many groupings; one canonical spelling lets
// duplicates be found. "Spaces" means any Unicode white space and "dashes"
// includes the typographic dashes that word processors substitute for '-'.
// It does not validate: a supplier's tax number may be foreign.
func NormalizeNitRuc(s string) string {
	return strings.ToUpper(strings.Map(func(r rune) rune {
		if unicode.IsSpace(r) || isDash(r) || r == '.' {
			return -1
		}
		return r
	}, s))
}

// NormalizeEmail trims and lower-cases.
//
// E-mail addresses are compared case-insensitively in practice, so storing
// them lower-cased avoids duplicates that differ only in case. It does not
// validate; the request validation does.
func NormalizeEmail(s string) string {
	return strings.ToLower(strings.TrimSpace(s))
}

// reservedSubdominios are labels that name the platform's own hosts and
// therefore can never identify a tenant.
var reservedSubdominios = map[string]bool{"www": true, "api": true, "admin": true, "app": true, "mail": true}

// Subdomains of companies: a lowercase DNS label (1..63 chars of a-z, 0-9 and '-', not starting or ending with '-').
// NormalizeSubdominio lower-cases and trims, then validates; reserved labels "www", "api", "admin", "app", "mail" are refused.
//
// The subdomain resolves the tenant from the Host header, so it must be a
// valid DNS label and must not shadow the platform's own hosts. Only ASCII
// letters are lower-cased: non-ASCII input is refused instead of being
// folded (the Kelvin sign "K" would otherwise become "k"), so what is stored
// is what the user sees.
func NormalizeSubdominio(s string) (normalized string, msg string, ok bool) {
	s = strings.TrimSpace(s)
	if !validLabel(s) {
		return "", "El subdominio debe tener de 1 a 63 caracteres (letras, números y guiones) y no puede comenzar ni terminar con guion.", false
	}
	s = strings.ToLower(s) // ASCII only here, so this is a plain case change.
	if reservedSubdominios[s] {
		return "", "El subdominio " + s + " está reservado.", false
	}
	return s, "", true
}

// validLabel reports whether s is a DNS label, accepting ASCII upper case
// letters because the caller lower-cases afterwards.
func validLabel(s string) bool {
	if len(s) == 0 || len(s) > 63 || s[0] == '-' || s[len(s)-1] == '-' {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !('a' <= c && c <= 'z') && !('A' <= c && c <= 'Z') && !('0' <= c && c <= '9') && c != '-' {
			return false
		}
	}
	return true
}

// isASCIIDigit is used instead of unicode.IsDigit so that digits of other
// scripts (Arabic-Indic, full-width) are refused.
func isASCIIDigit(r rune) bool { return '0' <= r && r <= '9' }

// isDash reports '-' and the look-alike dashes that appear when text is
// pasted from word processors or web pages.
func isDash(r rune) bool {
	switch r {
	case '-', '\u2010', '\u2011', '\u2012', '\u2013', '\u2014', '\u2212':
		return true
	}
	return false
}

// isSeparator reports the characters allowed between the digits of a phone.
func isSeparator(r rune) bool { return r == '.' || isDash(r) || unicode.IsSpace(r) }

// PhoneRule adapts NormalizePhone to the field-normalizer shape of the
// resource engine (normalized value, Spanish message, ok) for one field.
func PhoneRule(field string) func(string) (string, string, bool) {
	return func(s string) (string, string, bool) {
		n, ok := NormalizePhone(s)
		return n, PhoneMessage(field), ok
	}
}
