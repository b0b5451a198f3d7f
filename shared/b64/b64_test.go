package b64

import "testing"

func TestDecodificarAcceptsWrappedAndUnpaddedBase64(t *testing.T) {
	cases := []struct{ name, in, want string }{
		{"padded", "aG9sYQ==", "hola"},
		{"unpadded", "aG9sYQ", "hola"},
		{"wrapped", "aG9s\r\n YQ==\t", "hola"},
	}
	for _, c := range cases {
		got, err := Decodificar(c.in)
		if err != nil || string(got) != c.want {
			t.Errorf("%s: %q, %v", c.name, got, err)
		}
	}
	if _, err := Decodificar("no es base64!"); err == nil {
		t.Error("invalid input decoded without error")
	}
}
