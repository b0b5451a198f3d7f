package routes

import (
	"slices"
	"sort"
)

// CORSPolicy is the cross-origin policy of the HTTP API, minus the allowed
// origins, which belong to each deployment (the template's CorsAllowOrigins
// parameter; ERP_CORS_ORIGINS for the local gateway). It lives beside the
// route table so that the template's CorsConfiguration and the local
// gateway's answers come from one place.
type CORSPolicy struct {
	// AllowMethods are the methods of the route table plus OPTIONS.
	AllowMethods []string
	// AllowHeaders are the request headers a browser may send.
	AllowHeaders []string
	// ExposeHeaders are the response headers a browser lets scripts read.
	ExposeHeaders []string
	// MaxAge is how long, in seconds, a browser may cache a preflight answer.
	MaxAge int
}

// methodOrder is the order methods are listed in (Allow, CORS).
var methodOrder = []string{"GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"}

// CORS returns the policy.
func CORS() CORSPolicy {
	used := map[string]bool{"OPTIONS": true}
	for _, r := range routesTable() {
		if r.Path != DefaultRoute && r.Method != "ANY" {
			used[r.Method] = true
		}
	}
	return CORSPolicy{
		AllowMethods: ordered(used),
		AllowHeaders: []string{
			"Authorization", "Content-Type", "Accept", "X-Empresa-Id", "X-Empresa-Subdominio",
			"Idempotency-Key", "X-Trace-Id", "X-Span-Id", "If-None-Match", "If-Match",
		},
		// Besides the safelisted ones, what a front end acts on: versions,
		// retries, limits, v1's deprecation (Deprecation, Sunset, Link), a
		// 202's Location and a download's file name.
		ExposeHeaders: []string{
			"ETag", "X-Response-Time", "X-Trace-Id", "X-Span-Id", "X-Parent-Span-Id", "Retry-After",
			"Idempotent-Replayed", "X-RateLimit-Limit", "X-RateLimit-Remaining", "X-RateLimit-Reset",
			"Deprecation", "Sunset", "Link", "Location", "Content-Disposition",
		},
		MaxAge: 3600,
	}
}

// Methods returns the methods the route table serves on a concrete path, in
// the usual order (GET, POST, PUT, PATCH, DELETE), or nil when no route's
// path matches it. A request whose method is missing from a non-empty list
// is answered 405 with these methods in Allow; a path without any is a 404.
func Methods(path string) []string {
	used := map[string]bool{}
	for _, r := range routesTable() {
		if r.Path == DefaultRoute {
			continue
		}
		if _, _, ok := matchVersioned(r.Path, path); ok {
			used[r.Method] = true
		}
	}
	if len(used) == 0 {
		return nil
	}
	return ordered(used)
}

// ordered lists a set of methods in methodOrder, then any others sorted.
func ordered(set map[string]bool) []string {
	var out []string
	for _, m := range methodOrder {
		if set[m] {
			out = append(out, m)
		}
	}
	var rest []string
	for m := range set {
		if !slices.Contains(methodOrder, m) {
			rest = append(rest, m)
		}
	}
	sort.Strings(rest)
	return append(out, rest...)
}
