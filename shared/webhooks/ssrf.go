package webhooks

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/netip"
	"net/url"
	"strconv"
	"strings"
	"syscall"
	"time"
)

// ErrDestinoProhibido is returned when a webhook URL or the address it
// resolves to is not a public Internet destination.
var ErrDestinoProhibido = errors.New("webhooks: destino no permitido")

// blocked are the ranges a webhook may never reach: SSRF targets inside
// our network or the cloud provider's (DESIGN.md section 6).
var blocked = func() []netip.Prefix {
	var out []netip.Prefix
	for _, s := range []string{
		"0.0.0.0/8",       // "this network"
		"10.0.0.0/8",      // private
		"100.64.0.0/10",   // carrier-grade NAT
		"127.0.0.0/8",     // loopback
		"169.254.0.0/16",  // link-local, incl. 169.254.169.254 (instance metadata)
		"172.16.0.0/12",   // private
		"192.0.0.0/24",    // IETF protocol assignments
		"192.0.2.0/24",    // documentation
		"192.168.0.0/16",  // private
		"198.18.0.0/15",   // benchmarking
		"198.51.100.0/24", // documentation
		"203.0.113.0/24",  // documentation
		"224.0.0.0/4",     // multicast
		"240.0.0.0/4",     // reserved, incl. 255.255.255.255 broadcast
		"::/128",          // unspecified
		"::1/128",         // loopback
		"fc00::/7",        // unique-local
		"fe80::/10",       // link-local
		"ff00::/8",        // multicast
		"2001:db8::/32",   // documentation
		"100::/64",        // discard
	} {
		out = append(out, netip.MustParsePrefix(s))
	}
	return out
}()

// embedded returns the IPv4 address an IPv6 address carries in its low 32
// bits when it is IPv4-mapped, IPv4-compatible, NAT64 (64:ff9b::/96,
// 64:ff9b:1::/48) or 6to4 (2002::/16, bits 16-48): a blocked IPv4 must not
// pass in any of these coats.
func embedded(a netip.Addr) (netip.Addr, bool) {
	if !a.Is6() {
		return netip.Addr{}, false
	}
	if a.Is4In6() {
		return a.Unmap(), true
	}
	b := a.As16()
	v4 := func(i int) netip.Addr { return netip.AddrFrom4([4]byte{b[i], b[i+1], b[i+2], b[i+3]}) }
	switch {
	case b[0] == 0 && b[1] == 0 && b[2] == 0 && b[3] == 0 && b[4] == 0 && b[5] == 0 && b[6] == 0 && b[7] == 0 &&
		b[8] == 0 && b[9] == 0 && b[10] == 0 && b[11] == 0: // ::a.b.c.d (IPv4-compatible)
		return v4(12), true
	case netip.MustParsePrefix("64:ff9b::/96").Contains(a), netip.MustParsePrefix("64:ff9b:1::/48").Contains(a):
		return v4(12), true
	case b[0] == 0x20 && b[1] == 0x02: // 6to4
		return v4(2), true
	}
	return netip.Addr{}, false
}

// Prohibida reports whether a webhook may not connect to a.
func Prohibida(a netip.Addr) bool {
	a = a.WithZone("")
	if v4, ok := embedded(a); ok {
		if Prohibida(v4) {
			return true
		}
		if a.Is4In6() {
			return false
		}
	}
	for _, p := range blocked {
		if p.Contains(a) {
			return true
		}
	}
	return false
}

// parseIPv4 reads every spelling inet_aton accepts, which is how browsers,
// curl and many HTTP stacks read a host: 1 to 4 parts, each decimal, octal
// (leading 0) or hexadecimal (0x), the last part filling the remaining
// bytes ("2130706433", "0177.0.0.1", "0x7f.1", "127.1").
func parseIPv4(host string) (netip.Addr, bool) {
	parts := strings.Split(host, ".")
	if len(parts) == 0 || len(parts) > 4 {
		return netip.Addr{}, false
	}
	vals := make([]uint64, len(parts))
	for i, p := range parts {
		if p == "" {
			return netip.Addr{}, false
		}
		base := 10
		switch {
		case strings.HasPrefix(p, "0x") || strings.HasPrefix(p, "0X"):
			base, p = 16, p[2:]
			if p == "" {
				p = "0"
			}
		case len(p) > 1 && p[0] == '0':
			base, p = 8, p[1:]
		}
		v, err := strconv.ParseUint(p, base, 32)
		if err != nil {
			return netip.Addr{}, false
		}
		vals[i] = v
	}
	var n uint64
	for i, v := range vals[:len(vals)-1] {
		if v > 255 {
			return netip.Addr{}, false
		}
		n |= v << (8 * (3 - i))
	}
	last := vals[len(vals)-1]
	if last >= 1<<(8*(5-len(vals))) {
		return netip.Addr{}, false
	}
	n |= last
	return netip.AddrFrom4([4]byte{byte(n >> 24), byte(n >> 16), byte(n >> 8), byte(n)}), true
}

// hostAddr returns the address a URL host literally names, if it is one.
func hostAddr(host string) (netip.Addr, bool) {
	h := strings.TrimSuffix(strings.Trim(host, "[]"), ".")
	if i := strings.IndexByte(h, '%'); i >= 0 { // zone (fe80::1%eth0)
		h = h[:i]
	}
	if a, err := netip.ParseAddr(h); err == nil {
		return a, true
	}
	return parseIPv4(h)
}

// Permitidos are host:port destinations exempt from the address rules
// (ERP_WEBHOOK_ALLOWED_HOSTS, for local receivers; refused in production).
type Permitidos map[string]bool

// NuevosPermitidos parses a comma-separated host:port list.
func NuevosPermitidos(s string) (Permitidos, error) {
	out := Permitidos{}
	for _, x := range strings.Split(s, ",") {
		x = strings.ToLower(strings.TrimSpace(x))
		if x == "" {
			continue
		}
		if _, port, err := net.SplitHostPort(x); err != nil || port == "" {
			return nil, fmt.Errorf("ERP_WEBHOOK_ALLOWED_HOSTS: %q no es host:puerto", x)
		}
		out[x] = true
	}
	return out, nil
}

func (p Permitidos) permite(hostport string) bool {
	return p[strings.ToLower(hostport)]
}

// MaxURL is the longest webhook URL accepted.
const MaxURL = 2048

// ValidarURL checks a webhook URL when it is saved: http or https, a host,
// no userinfo, and a host that names no forbidden address in any spelling
// (nor localhost or *.localhost). Names are checked again, after DNS, at
// connect time (Dialer), so DNS rebinding cannot pass. It returns a Spanish
// message, or "" when the URL is acceptable.
func ValidarURL(raw string, permitidos Permitidos) string {
	if len(raw) > MaxURL {
		return "La URL admite como máximo 2048 caracteres."
	}
	u, err := url.Parse(strings.TrimSpace(raw))
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" || u.Opaque != "" {
		return "La URL debe ser una dirección http o https válida."
	}
	if u.User != nil {
		return "La URL no puede incluir usuario ni contraseña."
	}
	if p := u.Port(); p != "" {
		if n, err := strconv.Atoi(p); err != nil || n < 1 || n > 65535 {
			return "El puerto de la URL debe estar entre 1 y 65535."
		}
	}
	host := strings.ToLower(u.Hostname())
	if permitidos.permite(net.JoinHostPort(host, puerto(u))) {
		return ""
	}
	name := strings.TrimSuffix(host, ".")
	if name == "" || name == "localhost" || strings.HasSuffix(name, ".localhost") {
		return msgPrivada
	}
	if a, ok := hostAddr(host); ok && Prohibida(a) {
		return msgPrivada
	}
	return ""
}

const msgPrivada = "La URL apunta a una dirección privada, interna o reservada; use una dirección pública."

func puerto(u *url.URL) string {
	if p := u.Port(); p != "" {
		return p
	}
	if u.Scheme == "https" {
		return "443"
	}
	return "80"
}

// Dialer returns a dialer that refuses, after DNS resolution and for every
// address tried, a forbidden destination: the check DNS rebinding cannot
// pass (a name that resolved to a public address when saved and to
// 127.0.0.1 now is refused now).
func Dialer(timeout time.Duration) *net.Dialer {
	return &net.Dialer{
		Timeout: timeout,
		Control: func(network, address string, _ syscall.RawConn) error {
			host, _, err := net.SplitHostPort(address)
			if err != nil {
				return fmt.Errorf("%w: %s", ErrDestinoProhibido, address)
			}
			a, err := netip.ParseAddr(host)
			if err != nil || Prohibida(a) {
				return fmt.Errorf("%w: %s", ErrDestinoProhibido, address)
			}
			return nil
		},
	}
}

// dialContext is the webhook transport's DialContext: exempted host:port
// destinations (as written in the URL) dial directly, every other one
// through the guarded dialer.
func dialContext(timeout time.Duration, permitidos Permitidos) func(ctx context.Context, network, addr string) (net.Conn, error) {
	guarded, plain := Dialer(timeout), &net.Dialer{Timeout: timeout}
	return func(ctx context.Context, network, addr string) (net.Conn, error) {
		if permitidos.permite(addr) {
			return plain.DialContext(ctx, network, addr)
		}
		return guarded.DialContext(ctx, network, addr)
	}
}
