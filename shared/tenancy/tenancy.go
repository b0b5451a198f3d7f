// Package tenancy resolves which company (tenant) a request acts in.
package tenancy

import (
	"net"
	"regexp"
	"strconv"
	"strings"
)

// Request is what the tenant may be read from. An empty request means "the
// user's home company".
type Request struct {
	// EmpresaID from X-Empresa-Id (0 when absent).
	EmpresaID int64
	// Subdominio from X-Empresa-Subdominio or the Host's subdomain.
	Subdominio string
}

// Invalid explains a malformed tenant header in Spanish.
type Invalid struct{ Message string }

func (e *Invalid) Error() string { return e.Message }

var labelRe = regexp.MustCompile(`^[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?$`)

// ValidSubdomain reports whether s is a lowercase DNS label.
func ValidSubdomain(s string) bool { return labelRe.MatchString(s) }

// Resolve reads, in order: X-Empresa-Id, X-Empresa-Subdominio, then the
// subdomain of baseDomain in host (www and api are not tenants).
func Resolve(empresaIDHeader, subdominioHeader, host, baseDomain string) (Request, error) {
	if v := strings.TrimSpace(empresaIDHeader); v != "" {
		id, err := strconv.ParseInt(v, 10, 64)
		if err != nil || id <= 0 {
			return Request{}, &Invalid{Message: "El encabezado X-Empresa-Id debe ser un número entero positivo."}
		}
		return Request{EmpresaID: id}, nil
	}
	if v := strings.ToLower(strings.TrimSpace(subdominioHeader)); v != "" {
		if !ValidSubdomain(v) {
			return Request{}, &Invalid{Message: "El encabezado X-Empresa-Subdominio no es un subdominio válido."}
		}
		return Request{Subdominio: v}, nil
	}
	if sub := subdomainOf(host, baseDomain); sub != "" {
		return Request{Subdominio: sub}, nil
	}
	return Request{}, nil
}

func subdomainOf(host, base string) string {
	if base == "" || host == "" {
		return ""
	}
	if h, _, err := net.SplitHostPort(host); err == nil {
		host = h
	}
	host = strings.TrimSuffix(strings.ToLower(host), ".")
	base = strings.TrimPrefix(strings.ToLower(base), ".")
	rest, ok := strings.CutSuffix(host, "."+base)
	if !ok || rest == "" {
		return ""
	}
	labels := strings.Split(rest, ".")
	// "www.demo.example.com" and "demo.api.example.com" still name "demo".
	for i := len(labels) - 1; i >= 0; i-- {
		l := labels[i]
		if l == "www" || l == "api" {
			continue
		}
		if ValidSubdomain(l) {
			return l
		}
		return ""
	}
	return ""
}
