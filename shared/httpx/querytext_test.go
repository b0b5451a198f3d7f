package httpx

import (
	"net/http/httptest"
	"testing"
)

// A text filter with NUL or invalid UTF-8 reached PostgreSQL as is and the
// list answered 500 (GET /api/empleados?puesto=%00, /api/nomina/tarifas?concepto=%00).
func TestQueryTextMakesNULAndInvalidUTF8SafeForSQL(t *testing.T) {
	cases := []struct{ name, in, want string }{
		{"plain text is trimmed", "  Chofer ", "Chofer"},
		{"NUL becomes U+FFFD", "a\x00b", "a\uFFFDb"},
		{"invalid UTF-8 becomes U+FFFD", "a\xffb", "a\uFFFDb"},
		{"white space only is empty", " \t ", ""},
		{"accents are kept", "Técnico", "Técnico"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if got := QueryText(c.in); got != c.want {
				t.Fatalf("QueryText(%q) = %q, want %q", c.in, got, c.want)
			}
		})
	}
	r := httptest.NewRequest("GET", "/x?concepto=%00&search=%FF", nil)
	if got := NewFilters(r).Value("concepto"); got != "\uFFFD" {
		t.Fatalf("Filters.Value with NUL: %q", got)
	}
	if got := SearchQuery(r); got == nil || *got != "%\uFFFD%" {
		t.Fatalf("SearchQuery with invalid UTF-8: %v", got)
	}
}
