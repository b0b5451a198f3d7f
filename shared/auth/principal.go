package auth

import (
	"context"
	"net/http"

	"github.com/erpcr/erp/shared/db"
)

// Refusal is an authorizer verdict against a request: an error value whose
// class (the wire string) travels in the authorizer context instead of a
// denial, because API Gateway's own denial is a bare English 403 we cannot
// word (DESIGN.md section 2). Compare with errors.Is.
type Refusal struct{ Class string }

func (r *Refusal) Error() string { return "auth: " + r.Class }

// The authorizer's refusals.
var (
	ErrMissingToken   = &Refusal{"missing_token"}
	ErrInvalidToken   = &Refusal{"invalid_token"}
	ErrInactiveUser   = &Refusal{"inactive_user"}
	ErrInvalidTenant  = &Refusal{"invalid_tenant"}
	ErrUnknownTenant  = &Refusal{"unknown_tenant"}
	ErrForeignTenant  = &Refusal{"foreign_tenant"}
	ErrInactiveTenant = &Refusal{"inactive_tenant"}
	// ErrNoCompany: the user is active but none of its companies is (each
	// one deleted or inactive, or every membership ended), so no request
	// can act anywhere, whatever tenant it names.
	ErrNoCompany = &Refusal{"no_company"}
)

// refusals by wire class; an unknown class reads as an invalid token (fail
// closed).
var refusals = map[string]*Refusal{}

func init() {
	for _, r := range []*Refusal{ErrMissingToken, ErrInvalidToken, ErrInactiveUser, ErrInvalidTenant, ErrUnknownTenant, ErrForeignTenant, ErrInactiveTenant, ErrNoCompany} {
		refusals[r.Class] = r
	}
}

// RefusalOf returns the refusal of a wire class.
func RefusalOf(class string) *Refusal {
	if r, ok := refusals[class]; ok {
		return r
	}
	return ErrInvalidToken
}

// Principal is the authenticated caller acting in one company.
type Principal struct {
	UsuarioID int64
	EmpresaID int64
	TokenID   int64
	Permisos  []string
	// Roles are the slugs of the roles held in EmpresaID.
	Roles []string
	// Plataforma marks a platform administrator: the only users who may
	// change the global catalogs every company shares (brands, units).
	Plataforma bool
}

// Can reports whether the principal holds any of the permissions (OR).
// An empty list means "any authenticated user".
func (p Principal) Can(perms ...string) bool {
	if len(perms) == 0 {
		return true
	}
	for _, want := range perms {
		for _, have := range p.Permisos {
			if have == want {
				return true
			}
		}
	}
	return false
}

// Lacks returns the permissions of want that the principal does not hold,
// in order and without repeats: what a grant by this principal would hand
// out beyond its own rights. Nobody grants a permission it does not hold.
func (p Principal) Lacks(want []string) []string {
	have := make(map[string]bool, len(p.Permisos))
	for _, s := range p.Permisos {
		have[s] = true
	}
	var out []string
	for _, s := range want {
		if !have[s] {
			have[s] = true
			out = append(out, s)
		}
	}
	return out
}

// HasRole reports whether the principal holds any of the roles (OR).
func (p Principal) HasRole(slugs ...string) bool {
	for _, want := range slugs {
		for _, have := range p.Roles {
			if have == want {
				return true
			}
		}
	}
	return false
}

type principalKey struct{}

// WithPrincipal stores p in ctx.
func WithPrincipal(ctx context.Context, p Principal) context.Context {
	return context.WithValue(ctx, principalKey{}, p)
}

// FromContext returns the principal of the request, if authenticated.
func FromContext(ctx context.Context) (Principal, bool) {
	p, ok := ctx.Value(principalKey{}).(Principal)
	return p, ok
}

// FromRequest returns the principal the route guard put in the request
// (the zero Principal on public routes).
func FromRequest(r *http.Request) Principal {
	p, _ := FromContext(r.Context())
	return p
}

// Scope is the database scope the principal acts in.
func (p Principal) Scope() db.Scope {
	return db.Scope{EmpresaID: p.EmpresaID, UsuarioID: p.UsuarioID}
}

// MsgSinEmpresa answers a user none of whose companies is available: the
// login refuses it and the authorizer refuses its tokens with it (403, as an
// inactive user), saying no more than the inactive-user answer does.
const MsgSinEmpresa = "La empresa del usuario no está disponible. Contacte al administrador."
