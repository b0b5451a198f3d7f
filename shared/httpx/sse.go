package httpx

import (
	"net/http"
	"strconv"
	"strings"
)

// TipoSSE is the media type of Server-Sent Events.
const TipoSSE = "text/event-stream"

// AceptaSSE reports whether the request's Accept header names
// text/event-stream (any parameters, any case) with a non-zero quality:
// the client can read Server-Sent Events. The local gateway and
// /api/tiempo-real both ask.
func AceptaSSE(r *http.Request) bool {
	return Acepta(r.Header.Get("Accept"), TipoSSE)
}

// Acepta reports whether an Accept header names the media type mt (any
// case) without refusing it: "q=0" means "not acceptable" (RFC 9110,
// 12.4.2), so "text/event-stream;q=0" does not ask for a stream.
func Acepta(accept, mt string) bool {
	for _, part := range strings.Split(accept, ",") {
		t, params, _ := strings.Cut(part, ";")
		if strings.EqualFold(strings.TrimSpace(t), mt) && !calidadCero(params) {
			return true
		}
	}
	return false
}

func calidadCero(params string) bool {
	for _, p := range strings.Split(params, ";") {
		k, v, _ := strings.Cut(p, "=")
		if strings.EqualFold(strings.TrimSpace(k), "q") {
			q, err := strconv.ParseFloat(strings.TrimSpace(v), 64)
			return err == nil && q == 0
		}
	}
	return false
}
