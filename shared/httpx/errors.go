// Package httpx holds the HTTP conventions every handler shares: the error
// envelope, JSON responses, strict JSON input with Spanish validation
// messages, pagination, ETag/304, X-Response-Time, trace headers and
// structured request logs. Handlers return errors; one place writes them.
package httpx

import (
	"errors"
	"fmt"
	"net/http"
	"strconv"
)

// Error is a typed application error that maps to an HTTP status.
type Error struct {
	Status  int
	Message string
	// Fields holds validation messages keyed by field ("detalles.0.producto_id").
	Fields map[string][]string
	// RetryAfter, in seconds, for 429.
	RetryAfter int
	// Err is the cause, logged but never sent to the client.
	Err error
}

func (e *Error) Error() string {
	if e.Err != nil {
		return fmt.Sprintf("%d %s: %v", e.Status, e.Message, e.Err)
	}
	return fmt.Sprintf("%d %s", e.Status, e.Message)
}

func (e *Error) Unwrap() error { return e.Err }

// MsgInvalid is the message of every 422.
const MsgInvalid = "Los datos proporcionados no son válidos."

// Invalid is a 422 with field messages.
func Invalid(fields map[string][]string) *Error {
	return &Error{Status: http.StatusUnprocessableEntity, Message: MsgInvalid, Fields: fields}
}

// InvalidField is a 422 for one field.
func InvalidField(field, msg string) *Error {
	return Invalid(map[string][]string{field: {msg}})
}

// NotFound is a 404.
func NotFound(msg string) *Error {
	if msg == "" {
		msg = "Recurso no encontrado."
	}
	return &Error{Status: http.StatusNotFound, Message: msg}
}

// Forbidden is a 403.
func Forbidden(msg string) *Error {
	if msg == "" {
		msg = "No tiene permiso para realizar esta acción."
	}
	return &Error{Status: http.StatusForbidden, Message: msg}
}

// Unauthenticated is a 401.
func Unauthenticated(msg string) *Error {
	if msg == "" {
		msg = "No autenticado."
	}
	return &Error{Status: http.StatusUnauthorized, Message: msg}
}

// BadRequest is a 400 (malformed request, as opposed to invalid data).
func BadRequest(msg string) *Error {
	return &Error{Status: http.StatusBadRequest, Message: msg}
}

// TooManyRequests is a 429 with Retry-After.
func TooManyRequests(msg string, retryAfter int) *Error {
	if msg == "" {
		msg = "Demasiadas solicitudes. Intente de nuevo más tarde."
	}
	return &Error{Status: http.StatusTooManyRequests, Message: msg, RetryAfter: retryAfter}
}

// Conflict is a 409.
func Conflict(msg string) *Error {
	return &Error{Status: http.StatusConflict, Message: msg}
}

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
		e = &Error{Status: http.StatusInternalServerError, Message: MsgInternal, Err: err}
	}
	body := errorBody{Message: e.Message, Errors: e.Fields, TraceID: TraceID(r.Context())}
	if e.Status >= 500 {
		Logger(r.Context()).Error("error interno", "error", err.Error(), "status", e.Status)
		if debugFrom(r.Context()) && e.Err != nil {
			body.Error = e.Err.Error()
		}
	}
	if e.RetryAfter > 0 {
		w.Header().Set("Retry-After", strconv.Itoa(e.RetryAfter))
	}
	WriteJSON(w, e.Status, body)
}
