package gateway_test

import (
	"bufio"
	"fmt"
	"io"
	"net"
	"net/http"
	"strings"
	"time"
)

// rawHeader is one header line as sent on the wire, bytes untouched.
type rawHeader struct{ name, value string }

// rawRequest writes a request byte for byte over TCP (so that values Go's
// HTTP client refuses to send still reach the server) and reads the answer.
// A connection closed without an answer is an error.
func rawRequest(addr, method, target, host string, headers []rawHeader, body string) (*http.Response, []byte, error) {
	conn, err := net.DialTimeout("tcp", addr, 5*time.Second)
	if err != nil {
		return nil, nil, err
	}
	defer conn.Close()
	_ = conn.SetDeadline(time.Now().Add(20 * time.Second))
	var b strings.Builder
	fmt.Fprintf(&b, "%s %s HTTP/1.1\r\nHost: %s\r\nConnection: close\r\n", method, target, host)
	for _, h := range headers {
		fmt.Fprintf(&b, "%s: %s\r\n", h.name, h.value)
	}
	if body != "" || method == http.MethodPost || method == http.MethodPut || method == http.MethodPatch {
		fmt.Fprintf(&b, "Content-Length: %d\r\n", len(body))
	}
	b.WriteString("\r\n")
	b.WriteString(body)
	// Write while reading: a server may answer (431, 400) and close before
	// it has read everything.
	wrote := make(chan error, 1)
	go func() {
		_, err := io.WriteString(conn, b.String())
		wrote <- err
	}()
	res, err := http.ReadResponse(bufio.NewReader(conn), &http.Request{Method: method})
	if err != nil {
		if werr := <-wrote; werr != nil {
			return nil, nil, fmt.Errorf("write: %v; read: %w", werr, err)
		}
		return nil, nil, err
	}
	defer res.Body.Close()
	raw, err := io.ReadAll(res.Body)
	return res, raw, err
}

// serverAddr is host:port of an httptest server URL.
func serverAddr(url string) string { return strings.TrimPrefix(url, "http://") }
