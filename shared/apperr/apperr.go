// Package apperr holds the application's typed errors: what went wrong in
// terms a client can act on (invalid data, not found, forbidden, conflict,
// too many requests), with Spanish messages. Domain code returns them
// without knowing HTTP; the transport (httpx) is the one place that turns a
// Kind into a status and writes the envelope. Any other error is internal:
// logged with the trace id and answered as a masked 500.
package apperr

import (
	"errors"
	"fmt"
	"slices"
)

// Kind classifies an application error.
type Kind uint8

// The kinds, each answered with one HTTP status by httpx.
const (
	Internal           Kind = iota // 500, masked
	Invalid                        // 422, with field messages
	NotFound                       // 404
	Forbidden                      // 403
	Unauthenticated                // 401
	BadRequest                     // 400: a malformed request, as opposed to invalid data
	Conflict                       // 409
	TooManyRequests                // 429, with RetryAfter
	TooLarge                       // 413
	UnsupportedMedia               // 415
	MethodNotAllowed               // 405
	Unavailable                    // 503
	PreconditionFailed             // 412: If-Match names another version of the record
)

// Error is a typed application error.
type Error struct {
	Kind    Kind
	Message string
	// Fields holds validation messages keyed by field ("detalles.0.producto_id").
	Fields map[string][]string
	// RetryAfter, in seconds, for TooManyRequests.
	RetryAfter int
	// Err is the cause, logged but never sent to the client.
	Err error
}

func (e *Error) Error() string {
	if e.Err != nil {
		return fmt.Sprintf("%s: %v", e.Message, e.Err)
	}
	return e.Message
}

func (e *Error) Unwrap() error { return e.Err }

// As returns the application error inside err, if any.
func As(err error) (*Error, bool) {
	var e *Error
	ok := errors.As(err, &e)
	return e, ok
}

// Is reports whether err is an application error of kind k.
func Is(err error, k Kind) bool {
	e, ok := As(err)
	return ok && e.Kind == k
}

// MsgInvalid is the message of every validation error.
const MsgInvalid = "Los datos proporcionados no son válidos."

// NewInvalid is a validation error with field messages.
func NewInvalid(fields map[string][]string) *Error {
	return &Error{Kind: Invalid, Message: MsgInvalid, Fields: fields}
}

// InvalidField is a validation error of one field.
func InvalidField(field, msg string) *Error {
	return NewInvalid(map[string][]string{field: {msg}})
}

// NewNotFound is a not-found error.
func NewNotFound(msg string) *Error {
	if msg == "" {
		msg = "Recurso no encontrado."
	}
	return &Error{Kind: NotFound, Message: msg}
}

// NewForbidden is a forbidden error.
func NewForbidden(msg string) *Error {
	if msg == "" {
		msg = "No tiene permiso para realizar esta acción."
	}
	return &Error{Kind: Forbidden, Message: msg}
}

// NewPreconditionFailed is the 412 of a write whose If-Match header does not
// name the record's current version.
func NewPreconditionFailed() *Error {
	return &Error{Kind: PreconditionFailed,
		Message: "El registro cambió desde que lo leyó: el encabezado If-Match no coincide con su ETag actual. Vuelva a leerlo e intente de nuevo."}
}

// NewConflict is a conflict error.
func NewConflict(msg string) *Error { return &Error{Kind: Conflict, Message: msg} }

// NewUnauthenticated is a 401 ("No autenticado." when msg is empty).
func NewUnauthenticated(msg string) *Error {
	if msg == "" {
		msg = "No autenticado."
	}
	return &Error{Kind: Unauthenticated, Message: msg}
}

// NewTooManyRequests is a 429 with its Retry-After seconds.
func NewTooManyRequests(msg string, retryAfter int) *Error {
	if msg == "" {
		msg = "Demasiadas solicitudes. Intente de nuevo más tarde."
	}
	return &Error{Kind: TooManyRequests, Message: msg, RetryAfter: retryAfter}
}

// NewBadRequest is a malformed-request error.
func NewBadRequest(msg string) *Error { return &Error{Kind: BadRequest, Message: msg} }

// Campos collects validation messages by field while a domain function
// checks what only the database can tell (a role of the tenant, a free
// e-mail): all of them are reported at once, as one Invalid error.
type Campos map[string][]string

// Fail records msg under field.
func (c Campos) Fail(field, msg string) { c[field] = append(c[field], msg) }

// Juntar adds the messages of err, when it is an Invalid error, each once
// (a list's shared parameters and its own filters may name the same
// mistake); other errors are left to the caller.
func (c Campos) Juntar(err error) {
	e, ok := As(err)
	if !ok || e.Kind != Invalid {
		return
	}
	for campo, msgs := range e.Fields {
		for _, m := range msgs {
			if !slices.Contains(c[campo], m) {
				c.Fail(campo, m)
			}
		}
	}
}

// Err is the Invalid error of the collected messages, or nil.
func (c Campos) Err() error {
	if len(c) == 0 {
		return nil
	}
	return NewInvalid(c)
}
