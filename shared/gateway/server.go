package gateway

import (
	"net/http"
	"time"
)

// ServerOptions are the limits of the local HTTP server in front of the
// gateway. A zero field takes its value from DefaultServerOptions.
type ServerOptions struct {
	// ReadHeaderTimeout bounds the request line and headers.
	ReadHeaderTimeout time.Duration
	// ReadTimeout bounds the whole request, body included, so that a client
	// trickling its body cannot hold a connection; the gateway answers such
	// a client 408 and the connection closes.
	ReadTimeout time.Duration
	// WriteTimeout bounds the time from the end of the headers to the end of
	// the response: the body, the function and the write.
	WriteTimeout time.Duration
	// IdleTimeout closes keep-alive connections that wait for a next request.
	IdleTimeout time.Duration
	// MaxHeaderBytes caps the request line and headers.
	MaxHeaderBytes int
}

// DefaultServerOptions models API Gateway's HTTP API limits: 30 s to send
// a request (API Gateway's integration timeout; a 10 MB payload needs about
// 3 Mbit/s), 10240 bytes of request line and headers (Go's server allows a
// few KB of slack; the gateway enforces the exact quota and answers 431),
// 65 s for the whole exchange (30 s to read, 30 s for the function, 5 s to
// write), and 60 s of idle keep-alive.
func DefaultServerOptions() ServerOptions {
	return ServerOptions{
		ReadHeaderTimeout: 10 * time.Second,
		ReadTimeout:       30 * time.Second,
		WriteTimeout:      65 * time.Second,
		IdleTimeout:       60 * time.Second,
		MaxHeaderBytes:    maxHeaderBytes,
	}
}

// NewServer returns the HTTP server make run listens with (cmd/local) and
// the tests measure: h behind the limits of o.
func NewServer(addr string, h http.Handler, o ServerOptions) *http.Server {
	d := DefaultServerOptions()
	if o.ReadHeaderTimeout <= 0 {
		o.ReadHeaderTimeout = d.ReadHeaderTimeout
	}
	if o.ReadTimeout <= 0 {
		o.ReadTimeout = d.ReadTimeout
	}
	if o.WriteTimeout <= 0 {
		o.WriteTimeout = d.WriteTimeout
	}
	if o.IdleTimeout <= 0 {
		o.IdleTimeout = d.IdleTimeout
	}
	if o.MaxHeaderBytes <= 0 {
		o.MaxHeaderBytes = d.MaxHeaderBytes
	}
	o.ReadHeaderTimeout = min(o.ReadHeaderTimeout, o.ReadTimeout)
	return &http.Server{
		Addr:              addr,
		Handler:           h,
		ReadHeaderTimeout: o.ReadHeaderTimeout,
		ReadTimeout:       o.ReadTimeout,
		WriteTimeout:      o.WriteTimeout,
		IdleTimeout:       o.IdleTimeout,
		MaxHeaderBytes:    o.MaxHeaderBytes,
	}
}
