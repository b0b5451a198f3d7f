package gateway_test

import (
	"bufio"
	"context"
	"errors"
	"io"
	"net"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/aws/aws-lambda-go/events"

	"github.com/erpcr/erp/shared/gateway"
)

// stubGateway routes every group to a function that answers 200 "ok", with
// an authorizer that lets everything through: enough to measure the server.
func stubGateway() *gateway.Gateway {
	fn := func(ctx context.Context, ev events.APIGatewayV2HTTPRequest) (events.APIGatewayV2HTTPResponse, error) {
		return events.APIGatewayV2HTTPResponse{StatusCode: 200, Body: "ok",
			Headers: map[string]string{"Access-Control-Allow-Origin": "*", "Access-Control-Allow-Credentials": "true"}}, nil
	}
	authorizer := func(ctx context.Context, req events.APIGatewayV2CustomAuthorizerV2Request) (events.APIGatewayV2CustomAuthorizerSimpleResponse, error) {
		return events.APIGatewayV2CustomAuthorizerSimpleResponse{IsAuthorized: true}, nil
	}
	groups := map[string]any{}
	for _, g := range []string{"auth", "ops", "usuarios"} {
		groups[g] = fn
	}
	return gateway.New(authorizer, groups, nil)
}

// serve starts NewServer on a loopback port and returns its address.
func serve(t *testing.T, h http.Handler, o gateway.ServerOptions) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	srv := gateway.NewServer(ln.Addr().String(), h, o)
	go func() { _ = srv.Serve(ln) }()
	t.Cleanup(func() { _ = srv.Close() })
	return ln.Addr().String()
}

func TestDefaultServerOptionsModelAPIGateway(t *testing.T) {
	t.Parallel()
	o := gateway.DefaultServerOptions()
	srv := gateway.NewServer(":0", http.NotFoundHandler(), gateway.ServerOptions{})
	if o.ReadTimeout != 30*time.Second || o.MaxHeaderBytes != 10240 || o.IdleTimeout <= 0 || o.ReadHeaderTimeout <= 0 ||
		o.WriteTimeout < o.ReadTimeout+30*time.Second {
		t.Errorf("defaults %+v", o)
	}
	if srv.ReadTimeout != o.ReadTimeout || srv.ReadHeaderTimeout != o.ReadHeaderTimeout || srv.WriteTimeout != o.WriteTimeout ||
		srv.IdleTimeout != o.IdleTimeout || srv.MaxHeaderBytes != o.MaxHeaderBytes {
		t.Errorf("zero options must take the defaults: %+v", srv)
	}
}

// A client that sends its headers and then one body byte at a time used to
// hold its connection for as long as it liked. The server's ReadTimeout
// now ends it: the gateway answers 408 and the connection closes.
func TestSlowBodyClientIsCutOff(t *testing.T) {
	t.Parallel()
	addr := serve(t, stubGateway(), gateway.ServerOptions{ReadTimeout: 700 * time.Millisecond, IdleTimeout: time.Second})
	conn, err := net.Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	start := time.Now()
	if _, err := io.WriteString(conn, "POST /api/login HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n{"); err != nil {
		t.Fatal(err)
	}
	answered := make(chan *http.Response, 1)
	go func() {
		res, err := http.ReadResponse(bufio.NewReader(conn), nil)
		if err == nil {
			answered <- res
		}
		close(answered)
	}()
	tick := time.NewTicker(100 * time.Millisecond)
	defer tick.Stop()
	for {
		select {
		case res := <-answered:
			elapsed := time.Since(start)
			if res == nil || res.StatusCode != http.StatusRequestTimeout {
				t.Fatalf("slow body: %v after %s, want 408", res, elapsed)
			}
			if elapsed > 3*time.Second {
				t.Fatalf("cut off only after %s", elapsed)
			}
			// And the connection is closed, not kept for another request.
			_ = conn.SetReadDeadline(time.Now().Add(3 * time.Second))
			if _, err := conn.Read(make([]byte, 1)); err == nil || errors.Is(err, context.DeadlineExceeded) || isTimeout(err) {
				t.Fatalf("connection still open after the 408: %v", err)
			}
			return
		case <-tick.C:
			if time.Since(start) > 5*time.Second {
				t.Fatal("a client sending one byte every 100 ms still holds its connection after 5 s")
			}
			_, _ = conn.Write([]byte(" ")) // one byte, and the client dawdles
		}
	}
}

// Keep-alive connections that wait for a next request are closed after the
// IdleTimeout, and headers beyond API Gateway's 10240 bytes are refused.
func TestIdleConnectionsCloseAndHeadersAreCapped(t *testing.T) {
	t.Parallel()
	addr := serve(t, stubGateway(), gateway.ServerOptions{IdleTimeout: 300 * time.Millisecond})
	conn, err := net.Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	if _, err := io.WriteString(conn, "GET /api/health HTTP/1.1\r\nHost: localhost\r\n\r\n"); err != nil {
		t.Fatal(err)
	}
	br := bufio.NewReader(conn)
	res, err := http.ReadResponse(br, nil)
	if err != nil || res.StatusCode != 200 {
		t.Fatalf("first request: %v %v", res, err)
	}
	_, _ = io.Copy(io.Discard, res.Body)
	_ = conn.SetReadDeadline(time.Now().Add(3 * time.Second))
	start := time.Now()
	if _, err := br.ReadByte(); err == nil || isTimeout(err) || time.Since(start) > 2*time.Second {
		t.Fatalf("idle connection not closed: %v after %s", err, time.Since(start))
	}

	for _, size := range []int{9000, 11000, 20000, 60000} {
		res, _, err := rawRequest(addr, "GET", "/api/health", "localhost", []rawHeader{{"X-Relleno", strings.Repeat("a", size)}}, "")
		switch {
		case err != nil:
			t.Errorf("%d bytes of header: %v", size, err)
		case size < 10240 && res.StatusCode != 200, size > 10240 && res.StatusCode != http.StatusRequestHeaderFieldsTooLarge:
			t.Errorf("%d bytes of header: %d", size, res.StatusCode)
		}
	}
}

// The integration's own CORS headers never reach the client: the
// configured ones replace them (API Gateway ignores the backend's).
func TestIntegrationCORSHeadersAreReplaced(t *testing.T) {
	t.Parallel()
	addr := serve(t, stubGateway(), gateway.ServerOptions{})
	res, _, err := rawRequest(addr, "GET", "/api/health", "localhost", []rawHeader{{"Origin", "https://otro.example"}}, "")
	if err != nil {
		t.Fatal(err)
	}
	if hasCORS(res.Header) {
		t.Errorf("foreign origin got the function's CORS headers: %v", res.Header)
	}
	res, _, err = rawRequest(addr, "GET", "/api/health", "localhost", []rawHeader{{"Origin", "http://localhost:3001"}}, "")
	if err != nil {
		t.Fatal(err)
	}
	if res.Header.Get("Access-Control-Allow-Origin") != "http://localhost:3001" || res.Header.Get("Access-Control-Allow-Credentials") != "" {
		t.Errorf("allowed origin: %v", res.Header)
	}
}

func isTimeout(err error) bool {
	var ne net.Error
	return errors.As(err, &ne) && ne.Timeout()
}
