package webhooks

import (
	"crypto/hmac"
	"crypto/sha256"
	"encoding/hex"
	"strconv"
	"time"
)

// Headers of every delivery.
const (
	HeaderID        = "X-Webhook-Id"        // the delivery id, stable across retries
	HeaderEvento    = "X-Webhook-Event"     // the event name
	HeaderTimestamp = "X-Webhook-Timestamp" // unix seconds of this attempt
	HeaderFirma     = "X-Webhook-Signature" // sha256=<hex HMAC-SHA256(secret, "<timestamp>.<raw body>")>
	UserAgent       = "ERP-Webhooks/1"
)

// Firmar returns the X-Webhook-Signature value of a body sent at ts: the
// timestamp is signed with the body so that a captured request cannot be
// replayed later with a fresh timestamp (receivers reject old ones).
func Firmar(secreto []byte, ts time.Time, body []byte) string {
	m := hmac.New(sha256.New, secreto)
	m.Write([]byte(strconv.FormatInt(ts.Unix(), 10)))
	m.Write([]byte{'.'})
	m.Write(body)
	return "sha256=" + hex.EncodeToString(m.Sum(nil))
}

// Tolerancia is how old a timestamp a receiver should accept.
const Tolerancia = 5 * time.Minute

// Verificar is what a receiver does: recompute the signature over the
// timestamp header and the raw body, compare in constant time, and refuse
// timestamps further than Tolerancia from now.
func Verificar(secreto []byte, timestamp, firma string, body []byte, now time.Time) bool {
	sec, err := strconv.ParseInt(timestamp, 10, 64)
	if err != nil {
		return false
	}
	ts := time.Unix(sec, 0)
	if d := now.Sub(ts); d > Tolerancia || d < -Tolerancia {
		return false
	}
	return hmac.Equal([]byte(firma), []byte(Firmar(secreto, ts, body)))
}

// Espera is the wait before retry n (n = 1, 2, ...): 30 x 4^(n-1) seconds,
// so 30 s, 2 min, 8 min, 32 min, 2 h 8 min ...
func Espera(n int) time.Duration {
	if n < 1 {
		n = 1
	}
	d := 30 * time.Second
	for i := 1; i < n; i++ {
		d *= 4
	}
	return d
}

// MaxDelaySQS is the longest wait SQS DelaySeconds can carry; longer ones
// are picked up by the scheduler's sweep.
const MaxDelaySQS = 15 * time.Minute
