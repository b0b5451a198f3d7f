package crformat

import (
	"strings"
	"testing"
	"unicode/utf8"
)

func TestNormalizePhoneAcceptsCostaRicanNumbersAndReturnsEightDigits(t *testing.T) {
	cases := []struct {
		name, in, want string
	}{
		{"plain eight digits", "88887777", "88887777"},
		{"landline with dash", "2222-3333", "22223333"},
		{"mobile with space", "8888 7777", "88887777"},
		{"dots between groups", "8888.7777", "88887777"},
		{"first digit 2 is the lowest allowed", "20001111", "20001111"},
		{"first digit 8 is the highest allowed", "89991111", "89991111"},
		{"plus prefix with space and dash", "+506 8888-7777", "88887777"},
		{"plus prefix glued to the number", "+5068888-7777", "88887777"},
		{"plus prefix glued without separators", "+50688887777", "88887777"},
		{"plus prefix followed by a dash", "+506-8888-7777", "88887777"},
		{"parenthesized prefix with space", "(506) 2222-3333", "22223333"},
		{"parenthesized prefix glued", "(506)22223333", "22223333"},
		{"bare prefix followed by a space", "506 8888 7777", "88887777"},
		{"bare prefix followed by a dash", "506-8888-7777", "88887777"},
		{"bare prefix followed by a dot", "506.8888.7777", "88887777"},
		{"local number whose first group is 506", "506 12345", "50612345"},
		{"surrounding white space is ignored", " \t8888-7777\n", "88887777"},
		{"surrounding non-breaking spaces are ignored", "\u00a08888-7777\u00a0", "88887777"},
		{"non-breaking space between groups", "8888\u00a07777", "88887777"},
		{"en dash pasted from a document", "8888\u20137777", "88887777"},
		{"run of separators between groups", "8888 - 7777", "88887777"},
		{"digits grouped unusually", "8-8-8-8-7-7-7-7", "88887777"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got, ok := NormalizePhone(c.in)
			if !ok || got != c.want {
				t.Fatalf("NormalizePhone(%q) = %q, %v; want %q, true", c.in, got, ok, c.want)
			}
		})
	}
}

func TestNormalizePhoneRefusesEverythingElse(t *testing.T) {
	cases := []struct{ name, in string }{
		{"empty", ""},
		{"white space only", "   "},
		{"separators only", "- . -"},
		{"prefix only", "+506"},
		{"prefix and separators only", "+506 -"},
		{"first digit 0", "08887777"},
		{"first digit 1", "18887777"},
		{"first digit 9", "98887777"},
		{"first digit 9 after prefix", "+506 9888-7777"},
		{"seven digits", "888-7777"},
		{"nine digits", "88887-7777"},
		{"bare prefix without separator", "50688887777"},
		{"bare prefix but wrong digit count", "506 8888 777"},
		{"prefix given twice", "+506 506 8888 7777"},
		{"other country code", "+1 8888-7777"},
		{"plus without 506", "+88887777"},
		{"space inside the country code", "+ 506 8888 7777"},
		{"international dialing prefix", "00506 8888 7777"},
		{"leading dash", "-88887777"},
		{"trailing dash", "8888-7777-"},
		{"letters", "8888-77a7"},
		{"extension", "8888-7777 ext 12"},
		{"slash separator", "8888/7777"},
		{"parentheses around the number", "(8888) 7777"},
		{"arabic-indic digits", "\u0668\u0668\u0668\u0668\u0667\u0667\u0667\u0667"},
		{"full-width digits", "\uff18\uff18\uff18\uff18\uff17\uff17\uff17\uff17"},
		{"one arabic-indic digit among ascii", "8888777\u0667"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if got, ok := NormalizePhone(c.in); ok || got != "" {
				t.Fatalf("NormalizePhone(%q) = %q, %v; want \"\", false", c.in, got, ok)
			}
		})
	}
}

func TestPhoneMessageNamesTheFieldAndTheFormat(t *testing.T) {
	cases := []struct{ name, field, want string }{
		{"simple field", "telefono", "El campo telefono debe ser un teléfono de Costa Rica válido: 8 dígitos que comienzan con 2 a 8 (se acepta el prefijo +506 y guiones)."},
		{"underscores read as spaces", "contacto_telefono", "El campo contacto telefono debe ser un teléfono de Costa Rica válido: 8 dígitos que comienzan con 2 a 8 (se acepta el prefijo +506 y guiones)."},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if got := PhoneMessage(c.field); got != c.want {
				t.Fatalf("PhoneMessage(%q) = %q; want %q", c.field, got, c.want)
			}
		})
	}
}

func TestDescripcionDescribesEveryTypeAndNothingElse(t *testing.T) {
	cases := []struct{ tipo, want string }{
		{Fisica, "Cédula física"},
		{Juridica, "Cédula jurídica"},
		{Dimex, "DIMEX"},
		{Nite, "NITE"},
		{Extranjero, "Extranjero no domiciliado"},
		{"", ""},
		{"Fisica", ""},
		{"pasaporte", ""},
	}
	for _, c := range cases {
		t.Run("tipo "+c.tipo, func(t *testing.T) {
			if got := Descripcion(c.tipo); got != c.want {
				t.Fatalf("Descripcion(%q) = %q; want %q", c.tipo, got, c.want)
			}
		})
	}
}

func TestTiposIdentificacionAreExactlyTheDescribedTypes(t *testing.T) {
	want := []string{"fisica", "juridica", "dimex", "nite", "extranjero"}
	if strings.Join(TiposIdentificacion, ",") != strings.Join(want, ",") {
		t.Fatalf("TiposIdentificacion = %v; want %v", TiposIdentificacion, want)
	}
	for _, tipo := range TiposIdentificacion {
		if Descripcion(tipo) == "" {
			t.Errorf("Descripcion(%q) is empty", tipo)
		}
		if _, msg, _ := NormalizeIdentificacion(tipo, ""); msg == "El tipo de identificación no es válido." {
			t.Errorf("NormalizeIdentificacion does not know tipo %q", tipo)
		}
	}
}

func TestNormalizeIdentificacionStoresTheCanonicalForm(t *testing.T) {
	cases := []struct{ name, tipo, in, want string }{
		{"fisica plain", Fisica, "102340567", "102340567"},
		{"fisica with dashes", Fisica, "1-0234-0567", "102340567"},
		{"fisica with spaces", Fisica, "1 0234 0567", "102340567"},
		{"fisica with surrounding spaces", Fisica, "  102340567 ", "102340567"},
		{"fisica with non-breaking space", Fisica, "1\u00a00234\u00a00567", "102340567"},
		{"fisica with en dash", Fisica, "1\u20130234\u20130567", "102340567"},
		{"fisica of province 9", Fisica, "9-0000-0001", "900000001"},
		{"juridica with dashes", Juridica, "3-101-123456", "3101123456"},
		{"juridica plain", Juridica, "3101123456", "3101123456"},
		{"dimex with 11 digits", Dimex, "15501234567", "15501234567"},
		{"dimex with 12 digits", Dimex, "155012345678", "155012345678"},
		{"dimex with dashes", Dimex, "155-0123-45678", "155012345678"},
		{"nite", Nite, "5001234567", "5001234567"},
		{"nite may start with any digit", Nite, "0001234567", "0001234567"},
		{"extranjero upper-cased", Extranjero, "ab123456", "AB123456"},
		{"extranjero one character", Extranjero, "x", "X"},
		{"extranjero twenty characters", Extranjero, "abcdefghij0123456789", "ABCDEFGHIJ0123456789"},
		{"extranjero surrounding spaces ignored", Extranjero, "  P1234567 ", "P1234567"},
		{"extranjero digits only", Extranjero, "123", "123"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got, msg, ok := NormalizeIdentificacion(c.tipo, c.in)
			if !ok || got != c.want || msg != "" {
				t.Fatalf("NormalizeIdentificacion(%q, %q) = %q, %q, %v; want %q, \"\", true", c.tipo, c.in, got, msg, ok, c.want)
			}
		})
	}
}

func TestNormalizeIdentificacionExplainsTheExpectedFormat(t *testing.T) {
	const (
		msgFisica     = "La identificación física debe tener 9 dígitos y no comenzar con 0."
		msgJuridica   = "La cédula jurídica debe tener 10 dígitos y comenzar con 3."
		msgDimex      = "El DIMEX debe tener 11 o 12 dígitos y no comenzar con 0."
		msgNite       = "El NITE debe tener 10 dígitos y no ser todo ceros."
		msgExtranjero = "La identificación de extranjero debe ser alfanumérica de hasta 20 caracteres."
		msgTipo       = "El tipo de identificación no es válido."
	)
	cases := []struct{ name, tipo, in, want string }{
		{"fisica empty", Fisica, "", msgFisica},
		{"fisica white space only", Fisica, "   ", msgFisica},
		{"fisica dashes only", Fisica, "--", msgFisica},
		{"fisica 8 digits", Fisica, "10234056", msgFisica},
		{"fisica 10 digits", Fisica, "1023405678", msgFisica},
		{"fisica with a letter", Fisica, "10234056A", msgFisica},
		{"fisica with dots", Fisica, "1.0234.0567", msgFisica},
		{"fisica with arabic-indic digits", Fisica, "\u0661\u0660\u0662\u0663\u0664\u0660\u0665\u0666\u0667", msgFisica},
		{"fisica with full-width digits", Fisica, "\uff11\uff10\uff12\uff13\uff14\uff10\uff15\uff16\uff17", msgFisica},
		{"fisica leading dash is dropped and 8 digits remain", Fisica, "-10234056", msgFisica},
		{"fisica all zeros", Fisica, "000000000", msgFisica},
		{"fisica all zeros with dashes", Fisica, "0-0000-0000", msgFisica},
		{"fisica starting with 0 (no province 0)", Fisica, "012340567", msgFisica},
		{"juridica all zeros", Juridica, "0000000000", msgJuridica},
		{"juridica not starting with 3", Juridica, "4-101-123456", msgJuridica},
		{"juridica 9 digits", Juridica, "3-101-12345", msgJuridica},
		{"juridica 11 digits", Juridica, "3-101-1234567", msgJuridica},
		{"juridica with a letter", Juridica, "3-101-12345X", msgJuridica},
		{"juridica empty", Juridica, "", msgJuridica},
		{"dimex 10 digits", Dimex, "1550123456", msgDimex},
		{"dimex 13 digits", Dimex, "1550123456789", msgDimex},
		{"dimex with a letter", Dimex, "1550123456A", msgDimex},
		{"dimex all zeros (11)", Dimex, "00000000000", msgDimex},
		{"dimex all zeros (12)", Dimex, "000000000000", msgDimex},
		{"dimex starting with 0", Dimex, "015501234567", msgDimex},
		{"nite all zeros", Nite, "0000000000", msgNite},
		{"nite all zeros with dashes", Nite, "000-000-0000", msgNite},
		{"nite 9 digits", Nite, "500123456", msgNite},
		{"nite 11 digits", Nite, "50012345678", msgNite},
		{"nite with a letter", Nite, "500123456N", msgNite},
		{"extranjero empty", Extranjero, "", msgExtranjero},
		{"extranjero white space only", Extranjero, "  ", msgExtranjero},
		{"extranjero 21 characters", Extranjero, "abcdefghij01234567890", msgExtranjero},
		{"extranjero with a dash", Extranjero, "AB-123", msgExtranjero},
		{"extranjero with a dot", Extranjero, "AB.123", msgExtranjero},
		{"extranjero with an inner space", Extranjero, "AB 123", msgExtranjero},
		{"extranjero with an accented letter", Extranjero, "ÑU123", msgExtranjero},
		{"extranjero with a long s that upper-cases to S", Extranjero, "\u017f123", msgExtranjero},
		{"extranjero with arabic-indic digits", Extranjero, "AB\u0661\u0662", msgExtranjero},
		{"unknown tipo", "pasaporte", "123", msgTipo},
		{"empty tipo", "", "102340567", msgTipo},
		{"tipo is case-sensitive", "Fisica", "102340567", msgTipo},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got, msg, ok := NormalizeIdentificacion(c.tipo, c.in)
			if ok || got != "" || msg != c.want {
				t.Fatalf("NormalizeIdentificacion(%q, %q) = %q, %q, %v; want \"\", %q, false", c.tipo, c.in, got, msg, ok, c.want)
			}
		})
	}
}

func TestCollapseSpacesTrimsAndCollapsesUnicodeWhiteSpace(t *testing.T) {
	cases := []struct{ name, in, want string }{
		{"example from the rule", "  Distribuidora   del  Sur ", "Distribuidora del Sur"},
		{"already clean", "Distribuidora del Sur", "Distribuidora del Sur"},
		{"empty", "", ""},
		{"white space only", " \t\n\u00a0 ", ""},
		{"tabs and newlines", "Distribuidora\t\tdel\nSur", "Distribuidora del Sur"},
		{"non-breaking spaces", "\u00a0Distribuidora\u00a0\u00a0del Sur\u00a0", "Distribuidora del Sur"},
		{"ideographic and narrow no-break spaces", "A\u3000B\u202fC", "A B C"},
		{"accents kept", "  Café   Ñandú ", "Café Ñandú"},
		{"zero-width space is not white space", "A\u200bB", "A\u200bB"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if got := CollapseSpaces(c.in); got != c.want {
				t.Fatalf("CollapseSpaces(%q) = %q; want %q", c.in, got, c.want)
			}
		})
	}
}

func TestNormalizeNitRucRemovesSeparatorsAndUpperCases(t *testing.T) {
	cases := []struct{ name, in, want string }{
		{"example from the rule", "3-101-123 456", "3101123456"},
		{"letters upper-cased", "j-123", "J123"},
		{"dots removed", "3.101.123456", "3101123456"},
		{"surrounding spaces removed", "  3101123456  ", "3101123456"},
		{"non-breaking space and tab removed", "3\u00a0101\t123456", "3101123456"},
		{"typographic dashes removed", "3\u2013101\u2014123456", "3101123456"},
		{"other punctuation kept", "J/123", "J/123"},
		{"empty", "", ""},
		{"separators only", " -. ", ""},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if got := NormalizeNitRuc(c.in); got != c.want {
				t.Fatalf("NormalizeNitRuc(%q) = %q; want %q", c.in, got, c.want)
			}
		})
	}
}

func TestNormalizeEmailTrimsAndLowerCases(t *testing.T) {
	cases := []struct{ name, in, want string }{
		{"mixed case with spaces", "  Ventas@Empresa.CR ", "ventas@empresa.cr"},
		{"already normalized", "ventas@empresa.cr", "ventas@empresa.cr"},
		{"empty", "", ""},
		{"white space only", " \t ", ""},
		{"inner spaces are not its business", "a b@c.cr", "a b@c.cr"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if got := NormalizeEmail(c.in); got != c.want {
				t.Fatalf("NormalizeEmail(%q) = %q; want %q", c.in, got, c.want)
			}
		})
	}
}

func TestNormalizeSubdominioAcceptsLowercaseDNSLabels(t *testing.T) {
	cases := []struct{ name, in, want string }{
		{"simple", "demo", "demo"},
		{"upper case lowered", "Demo2", "demo2"},
		{"surrounding spaces trimmed", "  mi-empresa ", "mi-empresa"},
		{"single character", "a", "a"},
		{"digits only", "123", "123"},
		{"inner double dash", "xn--caf-dma", "xn--caf-dma"},
		{"63 characters", strings.Repeat("a", 63), strings.Repeat("a", 63)},
		{"reserved word as part of a label", "www2", "www2"},
		{"reserved word with a suffix", "app-demo", "app-demo"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got, msg, ok := NormalizeSubdominio(c.in)
			if !ok || got != c.want || msg != "" {
				t.Fatalf("NormalizeSubdominio(%q) = %q, %q, %v; want %q, \"\", true", c.in, got, msg, ok, c.want)
			}
		})
	}
}

func TestNormalizeSubdominioRefusesInvalidAndReservedLabels(t *testing.T) {
	const invalid = "El subdominio debe tener de 1 a 63 caracteres (letras, números y guiones) y no puede comenzar ni terminar con guion."
	cases := []struct{ name, in, want string }{
		{"empty", "", invalid},
		{"white space only", "   ", invalid},
		{"64 characters", strings.Repeat("a", 64), invalid},
		{"leading dash", "-demo", invalid},
		{"trailing dash", "demo-", invalid},
		{"dash only", "-", invalid},
		{"dot", "demo.cr", invalid},
		{"underscore", "mi_empresa", invalid},
		{"inner space", "mi empresa", invalid},
		{"accented letter", "café", invalid},
		{"kelvin sign that lower-cases to k", "\u212aiosco", invalid},
		{"arabic-indic digit", "demo\u0661", invalid},
		{"reserved www", "www", "El subdominio www está reservado."},
		{"reserved api upper case", "API", "El subdominio api está reservado."},
		{"reserved admin with spaces", " admin ", "El subdominio admin está reservado."},
		{"reserved app", "app", "El subdominio app está reservado."},
		{"reserved mail", "Mail", "El subdominio mail está reservado."},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got, msg, ok := NormalizeSubdominio(c.in)
			if ok || got != "" || msg != c.want {
				t.Fatalf("NormalizeSubdominio(%q) = %q, %q, %v; want \"\", %q, false", c.in, got, msg, ok, c.want)
			}
		})
	}
}

// FuzzNormalizePhoneReturnsStableEightDigits checks the invariants callers
// rely on: a success is always 8 ASCII digits starting with 2..8, and
// normalizing the stored form again returns it unchanged.
func FuzzNormalizePhoneReturnsStableEightDigits(f *testing.F) {
	for _, s := range []string{"+506 8888-7777", "506-8888-7777", "50688887777", "(506)2222.3333", "\u0668\u0668", "", "-"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		got, ok := NormalizePhone(s)
		if !ok {
			if got != "" {
				t.Fatalf("NormalizePhone(%q) failed but returned %q", s, got)
			}
			return
		}
		if len(got) != 8 || got[0] < '2' || got[0] > '8' || strings.Trim(got, "0123456789") != "" {
			t.Fatalf("NormalizePhone(%q) = %q, not 8 digits starting with 2..8", s, got)
		}
		if again, ok := NormalizePhone(got); !ok || again != got {
			t.Fatalf("NormalizePhone(%q) = %q, %v; not idempotent", got, again, ok)
		}
	})
}

// FuzzNormalizeIdentificacionIsIdempotent checks that a stored
// identification is accepted again unchanged, so re-saving a customer never
// changes or rejects its identificacion.
func FuzzNormalizeIdentificacionIsIdempotent(f *testing.F) {
	for _, s := range []string{"1-0234-0567", "3-101-123456", "155012345678", "5001234567", "ab123456", "\u017f1", ""} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		for _, tipo := range TiposIdentificacion {
			got, msg, ok := NormalizeIdentificacion(tipo, s)
			if ok != (msg == "") || ok != (got != "") {
				t.Fatalf("NormalizeIdentificacion(%q, %q) = %q, %q, %v; inconsistent result", tipo, s, got, msg, ok)
			}
			if !ok {
				continue
			}
			if !utf8.ValidString(got) || strings.ToUpper(got) != got {
				t.Fatalf("NormalizeIdentificacion(%q, %q) = %q; not upper-case ASCII", tipo, s, got)
			}
			if again, _, ok := NormalizeIdentificacion(tipo, got); !ok || again != got {
				t.Fatalf("NormalizeIdentificacion(%q, %q) = %q, %v; not idempotent", tipo, got, again, ok)
			}
		}
	})
}
