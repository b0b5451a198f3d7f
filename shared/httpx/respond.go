package httpx

import (
	"bytes"
	"encoding/json"
	"net/http"
	"sync"
)

// EncodeJSON encodes v as every response body is written: without HTML
// escaping, with a trailing newline, and with timestamps in one format
// (NormalizeTimestamps). Code that stores a body to replay it later (an
// Idempotency-Key) encodes it here so the replay is byte for byte the same.
func EncodeJSON(v any) ([]byte, error) { return appendJSON(make([]byte, 0, 1024), v) }

// appendJSON is EncodeJSON appending to b.
func appendJSON(b []byte, v any) ([]byte, error) {
	if out, ok := appendRapido(b, v); ok {
		return NormalizeTimestamps(out), nil
	}
	buf := bytes.NewBuffer(b)
	enc := json.NewEncoder(buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	return NormalizeTimestamps(buf.Bytes()), nil
}

// bodies are the buffers WriteJSON encodes into: a response writer copies
// what it is given (http.ResponseWriter's contract), so the buffer is
// reused once written.
var bodies = sync.Pool{New: func() any { b := make([]byte, 0, 16<<10); return &b }}

// maxPooledBody keeps a buffer that held a large answer out of the pool.
const maxPooledBody = 1 << 20

// WriteJSON writes v as JSON with the given status.
func WriteJSON(w http.ResponseWriter, status int, v any) {
	bp := bodies.Get().(*[]byte)
	body, err := appendJSON((*bp)[:0], v)
	if err != nil {
		bodies.Put(bp)
		w.Header().Set("Content-Type", "application/json; charset=utf-8")
		w.WriteHeader(http.StatusInternalServerError)
		_, _ = w.Write([]byte(`{"success":false,"message":"` + MsgInternal + `"}`))
		return
	}
	w.Header().Set("Content-Type", "application/json; charset=utf-8")
	w.WriteHeader(status)
	_, _ = w.Write(body)
	if cap(body) <= maxPooledBody {
		*bp = body[:0]
		bodies.Put(bp)
	}
}

// Message is the body of operations that return only a message.
type Message struct {
	Success bool   `json:"success"`
	Message string `json:"message"`
}

// Envelope is {success, message, data}.
type Envelope struct {
	Success bool   `json:"success"`
	Message string `json:"message,omitempty"`
	Data    any    `json:"data"`
}

// Created writes 201 {success, message, data}.
func Created(w http.ResponseWriter, msg string, data any) error {
	WriteJSON(w, http.StatusCreated, Envelope{Success: true, Message: msg, Data: data})
	return nil
}

// OK writes 200 {success, message?, data}.
func OK(w http.ResponseWriter, msg string, data any) error {
	WriteJSON(w, http.StatusOK, Envelope{Success: true, Message: msg, Data: data})
	return nil
}

// OKMessage writes 200 {success, message}.
func OKMessage(w http.ResponseWriter, msg string) error {
	WriteJSON(w, http.StatusOK, Message{Success: true, Message: msg})
	return nil
}

// WriteBody writes an already encoded JSON body (EncodeJSON) with status.
func WriteBody(w http.ResponseWriter, status int, body []byte) {
	w.Header().Set("Content-Type", "application/json; charset=utf-8")
	w.WriteHeader(status)
	_, _ = w.Write(body)
}
