package webhooks

import (
	"testing"
	"time"
)

func TestRetryWaitsAre30Times4ToTheN(t *testing.T) {
	want := []time.Duration{30 * time.Second, 2 * time.Minute, 8 * time.Minute, 32 * time.Minute, 128 * time.Minute}
	for i, w := range want {
		if got := Espera(i + 1); got != w {
			t.Errorf("retry %d: %v, want %v", i+1, got, w)
		}
	}
}

func TestSignatureCoversTimestampAndBodyAndExpires(t *testing.T) {
	secret := []byte("s3cr3t")
	now := time.Unix(1_800_000_000, 0)
	body := []byte(`{"id":"1","evento":"VentaCreadaEvent"}`)
	sig := Firmar(secret, now, body)
	if len(sig) != len("sha256=")+64 || sig[:7] != "sha256=" {
		t.Fatalf("signature %q", sig)
	}
	ts := "1800000000"
	if !Verificar(secret, ts, sig, body, now.Add(time.Minute)) {
		t.Error("a fresh, intact request was refused")
	}
	for name, ok := range map[string]bool{
		"other body":      Verificar(secret, ts, sig, []byte(`{"id":"2"}`), now),
		"other timestamp": Verificar(secret, "1800000001", sig, body, now),
		"other secret":    Verificar([]byte("otro"), ts, sig, body, now),
		"replayed later":  Verificar(secret, ts, sig, body, now.Add(6*time.Minute)),
		"bad timestamp":   Verificar(secret, "ayer", sig, body, now),
	} {
		if ok {
			t.Errorf("%s was accepted", name)
		}
	}
}
