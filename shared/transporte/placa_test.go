package transporte

import "testing"

func TestNormalizarPlacaAcceptsCostaRicanFormats(t *testing.T) {
	cases := []struct{ in, want string }{
		{"AB 1234", "AB 1234"},
		{"ab-1234", "AB 1234"},
		{"SJB12345", "SJB 12345"},
		{" sjb  12345 ", "SJB 12345"},
		{"BCD123", "BCD 123"},
		{"123456", "123456"},
		{"CL 123456", "CL 123456"},
		{"C-1", "C 1"},
		// refused
		{"", ""}, {"ABCD 1234", ""}, {"AB", ""}, {"1234567", ""}, {"123 AB", ""}, {"AB 12.34", ""}, {"ÁB 1234", ""}, {"AB 1234X", ""},
	}
	for _, c := range cases {
		got, msg, ok := NormalizarPlaca(c.in)
		if c.want == "" {
			if ok || msg == "" {
				t.Errorf("%q accepted as %q", c.in, got)
			}
			continue
		}
		if !ok || got != c.want {
			t.Errorf("%q -> %q (%v %s), want %q", c.in, got, ok, msg, c.want)
		}
	}
}
