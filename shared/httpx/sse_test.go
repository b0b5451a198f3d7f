package httpx

import "testing"

func TestAceptaHonoursQualityZero(t *testing.T) {
	cases := []struct {
		accept string
		want   bool
	}{
		{"text/event-stream", true},
		{"TEXT/Event-Stream; charset=utf-8", true},
		{"application/json, text/event-stream;q=0.5", true},
		{"text/event-stream;q=0", false},
		{"text/event-stream; q=0.000", false},
		{"text/event-stream;q=0, application/json", false},
		{"application/json", false},
		{"", false},
		{"*/*", false},
	}
	for _, c := range cases {
		if got := Acepta(c.accept, TipoSSE); got != c.want {
			t.Errorf("Acepta(%q) = %v, want %v", c.accept, got, c.want)
		}
	}
}
