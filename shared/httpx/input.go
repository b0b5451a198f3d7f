package httpx

import (
	"bytes"
	"errors"
	"io"
	"mime"
	"net/http"
	"strings"

	"github.com/erpcr/erp/shared/apperr"
	"github.com/erpcr/erp/shared/valid"
)

// MaxBodyBytes is the limit of a JSON request body (1 MiB).
const MaxBodyBytes = 1 << 20

// MaxUploadBytes is the transport's body limit (httpx.Observe): a file
// upload (an import of up to 5 MiB) plus its multipart framing. Handlers
// that read a body bound it themselves: ReadInput to MaxBodyBytes.
const MaxUploadBytes = 5<<20 + 64<<10

// ReadInput reads the request body as a JSON object. An empty body is an
// empty object. Wrong content type -> 415, too large -> 413, malformed or not
// an object -> 400.
func ReadInput(r *http.Request) (*valid.Input, error) {
	if r.Body == nil {
		return valid.Decode(nil)
	}
	body, err := io.ReadAll(http.MaxBytesReader(nil, r.Body, MaxBodyBytes))
	if err != nil {
		var tooBig *http.MaxBytesError
		if errors.As(err, &tooBig) {
			return nil, &Error{Kind: apperr.TooLarge, Message: "El cuerpo de la solicitud supera el límite de 1 MiB."}
		}
		return nil, apperr.NewBadRequest("No se pudo leer el cuerpo de la solicitud.")
	}
	if len(bytes.TrimSpace(body)) > 0 && !isJSON(r.Header.Get("Content-Type")) {
		return nil, &Error{Kind: apperr.UnsupportedMedia, Message: "El tipo de contenido debe ser application/json."}
	}
	return valid.Decode(body)
}

func isJSON(ct string) bool {
	if ct == "" {
		return false
	}
	mt, _, err := mime.ParseMediaType(ct)
	if err != nil {
		return false
	}
	return mt == "application/json" || (strings.HasPrefix(mt, "application/") && strings.HasSuffix(mt, "+json"))
}
