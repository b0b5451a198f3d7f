package auth

import (
	"errors"
	"strings"
	"testing"

	"golang.org/x/crypto/bcrypt"
)

func TestCanonicalAcceptsBothPermissionSchemes(t *testing.T) {
	cases := map[string]string{
		"productos.leer":                "productos.leer",
		"ver-productos":                 "productos.leer",
		"crear-ventas":                  "ventas.crear",
		"editar-clientes":               "clientes.actualizar",
		"eliminar-webhooks":             "webhooks.eliminar",
		"ver-roles":                     "roles.leer",
		"ver-categorias-producto":       "categorias_producto.leer",
		"ver-categorias_producto":       "categorias_producto.leer",
		" VER-Productos ":               "productos.leer",
		"facturacion_electronica.crear": "facturacion_electronica.crear",
	}
	for in, want := range cases {
		if got, ok := Canonical(in); !ok || got != want {
			t.Errorf("Canonical(%q) = %q, %v; want %q", in, got, ok, want)
		}
	}
	for _, bad := range []string{"", "productos", "productos.borrar", "ver-nada", "leer-productos", "productos.leer.extra"} {
		if got, ok := Canonical(bad); ok {
			t.Errorf("Canonical(%q) accepted as %q", bad, got)
		}
	}
}

func TestCatalogHas18ModulesOfTheSpecTreasuryUsersAndRoles(t *testing.T) {
	if n := len(Catalog()); n != 92 {
		t.Fatalf("catalog has %d permissions, want 72 (18 modules) + 12 (cuentas_bancarias, cajas, presupuestos) + 8 (usuarios, roles)", n)
	}
	for _, r := range PredefinedRoles() {
		for _, p := range r.Permisos {
			if _, ok := Canonical(p); !ok {
				t.Errorf("role %s grants unknown %s", r.Slug, p)
			}
		}
	}
	if len(PredefinedRoles()) != 7 || len(PredefinedRoles()[0].Permisos) != 92 {
		t.Errorf("predefined roles: %d, administrador has %d", len(PredefinedRoles()), len(PredefinedRoles()[0].Permisos))
	}
}

func TestPasswordPolicy(t *testing.T) {
	for pw, ok := range map[string]bool{
		"Segura123!":               true,
		"Ñandú 2024":               true,
		"segura123!":               false,
		"SEGURA123!":               false,
		"Segura!!!":                false,
		"Segura123":                false,
		"Se1!":                     false,
		strings.Repeat("Aa1!", 19): false, // over bcrypt's 72 bytes
	} {
		if err := CheckPolicy(pw); (err == nil) != ok {
			t.Errorf("CheckPolicy(%q) = %v, want ok=%v", pw, err, ok)
		}
	}
}

func TestTokensAreOpaqueAndOnlyTheirHashIsComparable(t *testing.T) {
	s := NewSecret()
	if len(s) != 40 || s == NewSecret() {
		t.Fatalf("secret %q", s)
	}
	tok := FormatToken(42, s)
	id, secret, ok := ParseToken(tok)
	if !ok || id != 42 || secret != s {
		t.Fatalf("ParseToken(%q) = %d %q %v", tok, id, secret, ok)
	}
	for _, bad := range []string{"", "42", "42|", "|abc", "x|abc", "-1|abc", "0|abc"} {
		if _, _, ok := ParseToken(bad); ok {
			t.Errorf("ParseToken(%q) accepted", bad)
		}
	}
	if string(HashSecret(s)) == s || len(HashSecret(s)) != 32 {
		t.Errorf("hash")
	}
	for h, want := range map[string]bool{"Bearer abc": true, "bearer abc": true, "Basic abc": false, "Bearer ": false, "": false} {
		if _, ok := BearerToken(h); ok != want {
			t.Errorf("BearerToken(%q) = %v", h, ok)
		}
	}
}

func TestAuthorizerContextRoundTripAndFailsClosed(t *testing.T) {
	p := Principal{UsuarioID: 5, EmpresaID: 2, TokenID: 9, Permisos: []string{"a.leer", "b.crear"}}
	got, refusal := DecodeContext(EncodeContext(p))
	if refusal != nil || got.UsuarioID != 5 || got.EmpresaID != 2 || got.TokenID != 9 || len(got.Permisos) != 2 {
		t.Fatalf("round trip: %+v %v", got, refusal)
	}
	if _, r := DecodeContext(nil); !errors.Is(r, ErrMissingToken) {
		t.Errorf("no context: %v", r)
	}
	if _, r := DecodeContext(EncodeError(ErrForeignTenant)); !errors.Is(r, ErrForeignTenant) {
		t.Errorf("error class: %v", r)
	}
	if _, r := DecodeContext(map[string]any{"usuario_id": "x"}); !errors.Is(r, ErrInvalidToken) {
		t.Errorf("garbage context: %v", r)
	}
	if !p.Can() || !p.Can("x.y", "b.crear") || p.Can("x.y") {
		t.Errorf("Can OR semantics")
	}
}

func TestDummyHashCostsAsMuchAsAUsersHash(t *testing.T) {
	cost, err := bcrypt.Cost(dummyHash)
	if err != nil || cost != bcrypt.DefaultCost {
		t.Fatalf("dummy hash cost %d, %v; want %d", cost, err, bcrypt.DefaultCost)
	}
	if bcrypt.CompareHashAndPassword(dummyHash, []byte("no-existe-este-usuario")) != nil {
		t.Fatal("dummy hash is not a hash of its documented password")
	}
}
