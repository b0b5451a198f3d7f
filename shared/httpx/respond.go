package httpx

import (
	"bytes"
	"encoding/json"
	"net/http"
)

// WriteJSON writes v as JSON with the given status.
func WriteJSON(w http.ResponseWriter, status int, v any) {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		w.Header().Set("Content-Type", "application/json; charset=utf-8")
		w.WriteHeader(http.StatusInternalServerError)
		_, _ = w.Write([]byte(`{"success":false,"message":"` + MsgInternal + `"}`))
		return
	}
	w.Header().Set("Content-Type", "application/json; charset=utf-8")
	w.WriteHeader(status)
	_, _ = w.Write(buf.Bytes())
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
