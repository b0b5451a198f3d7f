// Package httpx holds the HTTP conventions every handler shares: the error
// envelope, JSON responses, strict JSON input with Spanish validation
// messages, pagination, ETag/304, X-Response-Time, trace headers and
// structured request logs. Handlers return errors; one place writes them.
package httpx

import (
	"errors"
	"net/http"
	"strconv"

	"github.com/erpcr/erp/shared/apperr"
)

// Error is the application's typed error (package apperr): domain code
// returns it without knowing HTTP, and WriteError is the one place that
// turns its Kind into a status.
type Error = apperr.Error

// statuses maps each kind of application error to its HTTP status.
var statuses = map[apperr.Kind]int{
	apperr.Internal:           http.StatusInternalServerError,
	apperr.Invalid:            http.StatusUnprocessableEntity,
	apperr.NotFound:           http.StatusNotFound,
	apperr.Forbidden:          http.StatusForbidden,
	apperr.Unauthenticated:    http.StatusUnauthorized,
	apperr.BadRequest:         http.StatusBadRequest,
	apperr.Conflict:           http.StatusConflict,
	apperr.TooManyRequests:    http.StatusTooManyRequests,
	apperr.TooLarge:           http.StatusRequestEntityTooLarge,
	apperr.UnsupportedMedia:   http.StatusUnsupportedMediaType,
	apperr.MethodNotAllowed:   http.StatusMethodNotAllowed,
	apperr.Unavailable:        http.StatusServiceUnavailable,
	apperr.PreconditionFailed: http.StatusPreconditionFailed,
}

// Status is the HTTP status of an application error.
func Status(e *Error) int {
	if s, ok := statuses[e.Kind]; ok {
		return s
	}
	return http.StatusInternalServerError
}

// MsgInvalid is the message of every 422.
const MsgInvalid = apperr.MsgInvalid

// MsgInternal is the masked message of every 500.
const MsgInternal = "Ocurrió un error interno. Intente de nuevo más tarde."

// errorBody is the envelope: {success:false, message, errors?, error?, trace_id}.
type errorBody struct {
	Success bool                `json:"success"`
	Message string              `json:"message"`
	Errors  map[string][]string `json:"errors,omitempty"`
	Error   string              `json:"error,omitempty"`
	TraceID string              `json:"trace_id"`
}

// WriteError writes err in the envelope. Unknown errors are logged with the
// trace id and masked as 500; their text reaches the body only in debug.
func WriteError(w http.ResponseWriter, r *http.Request, err error) {
	var e *Error
	if !errors.As(err, &e) {
		e = &Error{Kind: apperr.Internal, Message: MsgInternal, Err: err}
	}
	status := Status(e)
	body := errorBody{Message: e.Message, Errors: e.Fields, TraceID: TraceID(r.Context())}
	if status >= 500 {
		Logger(r.Context()).Error("error interno", "error", err.Error(), "status", status)
		if debugFrom(r.Context()) && e.Err != nil {
			body.Error = e.Err.Error()
		}
	}
	if e.RetryAfter > 0 {
		w.Header().Set("Retry-After", strconv.Itoa(e.RetryAfter))
	}
	WriteJSON(w, status, body)
}
