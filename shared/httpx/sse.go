package httpx

import (
	"net/http"
	"strings"
)

// TipoSSE is the media type of Server-Sent Events.
const TipoSSE = "text/event-stream"

// AceptaSSE reports whether the request's Accept header names
// text/event-stream (any parameters, any case): the client can read
// Server-Sent Events. The local gateway and /api/tiempo-real both ask.
func AceptaSSE(r *http.Request) bool {
	for _, part := range strings.Split(r.Header.Get("Accept"), ",") {
		mt, _, _ := strings.Cut(part, ";")
		if strings.EqualFold(strings.TrimSpace(mt), TipoSSE) {
			return true
		}
	}
	return false
}
