package webhooks

import (
	"context"
	"errors"
	"net"
	"net/http"
	"net/http/httptest"
	"net/netip"
	"strings"
	"testing"
	"time"
)

func TestURLsNamingForbiddenDestinationsAreRefusedAtSave(t *testing.T) {
	refused := []string{
		"http://127.0.0.1/", "http://127.0.0.1:8080/x", "http://127.1/", "http://2130706433/", "http://0177.0.0.1/",
		"http://0x7f.1/", "http://0x7f000001/", "http://017700000001/", "http://[::1]/", "http://[::ffff:127.0.0.1]/",
		"http://[::ffff:7f00:1]/", "http://[::127.0.0.1]/", "http://[64:ff9b::7f00:1]/", "http://[2002:7f00:1::]/",
		"http://x@127.0.0.1/", "http://user:pw@example.com/", "http://127.0.0.1./", "http://localhost/", "http://LOCALHOST:3000/",
		"http://api.localhost/", "http://localhost./", "http://10.0.0.1/", "http://10.255.255.255/", "http://172.16.0.1/",
		"http://172.31.255.254/", "http://192.168.1.1/", "http://169.254.169.254/latest/meta-data/", "http://100.64.0.1/",
		"http://0.0.0.0/", "http://0/", "http://[fc00::1]/", "http://[fd12:3456::1]/", "http://[fe80::1]/", "http://[fe80::1%25eth0]/",
		"http://224.0.0.1/", "http://255.255.255.255/", "http://[ff02::1]/", "ftp://example.com/", "file:///etc/passwd",
		"gopher://example.com/", "http:///x", "javascript:alert(1)", "https://" + strings.Repeat("a", 2040) + ".com/",
		// A port no connection can use (it was saved, then failed every attempt).
		"https://hooks.example.com:0/", "https://hooks.example.com:65536/", "https://hooks.example.com:99999999999/",
	}
	for _, u := range refused {
		if msg := ValidarURL(u, nil); msg == "" {
			t.Errorf("%s was accepted", u)
		}
	}
	accepted := []string{"https://hooks.example.com/erp", "http://93.184.216.34/webhook", "https://8.8.8.8:8443/x",
		"http://[2606:4700:4700::1111]/", "http://172.32.0.1/", "http://11.0.0.1/"}
	for _, u := range accepted {
		if msg := ValidarURL(u, nil); msg != "" {
			t.Errorf("%s was refused: %s", u, msg)
		}
	}
	// An exempted local receiver, exactly host:port.
	p, err := NuevosPermitidos("127.0.0.1:9999, localhost:8080")
	if err != nil {
		t.Fatal(err)
	}
	if ValidarURL("http://127.0.0.1:9999/x", p) != "" || ValidarURL("http://localhost:8080/", p) != "" {
		t.Error("exempted destinations refused")
	}
	if ValidarURL("http://127.0.0.1:9998/x", p) == "" {
		t.Error("another port of an exempted host was accepted")
	}
	if _, err := NuevosPermitidos("127.0.0.1"); err == nil {
		t.Error("a host without port was accepted as an exemption")
	}
}

func TestInetAtonSpellings(t *testing.T) {
	cases := map[string]string{"2130706433": "127.0.0.1", "0177.0.0.1": "127.0.0.1", "0x7f.1": "127.0.0.1", "127.1": "127.0.0.1",
		"10.1": "10.0.0.1", "192.168.257": "192.168.1.1", "0": "0.0.0.0", "1.2.3.4": "1.2.3.4"}
	for in, want := range cases {
		a, ok := parseIPv4(in)
		if !ok || a.String() != want {
			t.Errorf("%s -> %v %v, want %s", in, a, ok, want)
		}
	}
	for _, bad := range []string{"256.1.1.1", "1.2.3.4.5", "08.1.1.1", "0x", "a.b.c.d", "1..1", "127.0.0.256", "4294967296"} {
		if a, ok := parseIPv4(bad); ok && bad != "0x" {
			t.Errorf("%s parsed as %v", bad, a)
		}
	}
}

func TestForbiddenAddresses(t *testing.T) {
	for _, s := range []string{"127.0.0.1", "::1", "::ffff:10.0.0.1", "64:ff9b::a9fe:a9fe", "fe80::1", "fd00::1", "100.127.255.255"} {
		if !Prohibida(netip.MustParseAddr(s)) {
			t.Errorf("%s allowed", s)
		}
	}
	for _, s := range []string{"8.8.8.8", "2606:4700:4700::1111", "::ffff:8.8.8.8", "100.128.0.1"} {
		if Prohibida(netip.MustParseAddr(s)) {
			t.Errorf("%s refused", s)
		}
	}
}

// A name that resolves to 127.0.0.1 passes the save check (it is a name)
// but is refused at connect time, after resolution.
func TestConnectTimeCheckRefusesANameResolvingToLoopback(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { w.WriteHeader(204) }))
	defer srv.Close()
	_, port, _ := net.SplitHostPort(srv.Listener.Addr().String())
	url := "http://localtest.invalid:" + port + "/"
	if ValidarURL(url, nil) != "" {
		t.Fatalf("a plain name should pass the save check")
	}
	// The resolver is the system's; make the name resolve to 127.0.0.1 the
	// way a rebinding DNS server would, through the transport's dial hook.
	dial := dialContext(2*time.Second, nil)
	client := &http.Client{Transport: &http.Transport{DialContext: func(ctx context.Context, network, addr string) (net.Conn, error) {
		_, p, _ := net.SplitHostPort(addr)
		return dial(ctx, network, net.JoinHostPort("127.0.0.1", p))
	}}}
	_, err := client.Get(url)
	if err == nil || !errors.Is(err, ErrDestinoProhibido) {
		t.Fatalf("want ErrDestinoProhibido, got %v", err)
	}
	// Exempted, the same receiver is reached.
	p, _ := NuevosPermitidos("127.0.0.1:" + port)
	dial = dialContext(2*time.Second, p)
	res, err := client.Get(url)
	if err != nil {
		t.Fatal(err)
	}
	res.Body.Close()
}

// The system resolver turns localhost into 127.0.0.1: the dialer refuses
// what the name resolves to, not the name.
func TestConnectTimeCheckRefusesWhatTheSystemResolves(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { w.WriteHeader(204) }))
	defer srv.Close()
	_, port, _ := net.SplitHostPort(srv.Listener.Addr().String())
	client := &http.Client{Transport: &http.Transport{DialContext: dialContext(2*time.Second, nil)}}
	if _, err := client.Get("http://localhost:" + port + "/"); !errors.Is(err, ErrDestinoProhibido) {
		t.Fatalf("want ErrDestinoProhibido, got %v", err)
	}
}
