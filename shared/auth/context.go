package auth

import (
	"fmt"
	"strconv"
	"strings"
)

// Keys of the authorizer context (what API Gateway hands the function in
// requestContext.authorizer.lambda). Values are strings: API Gateway passes
// them through JSON, and strings keep 64-bit ids exact.
const (
	ctxError     = "error"
	ctxUsuarioID = "usuario_id"
	ctxEmpresaID = "empresa_id"
	ctxTokenID   = "token_id"
	ctxPermisos  = "permisos"
	ctxRoles     = "roles"
	ctxPlatform  = "plataforma"
)

// EncodeContext builds the authorizer's context for a principal.
func EncodeContext(p Principal) map[string]any {
	return map[string]any{
		ctxUsuarioID: strconv.FormatInt(p.UsuarioID, 10),
		ctxEmpresaID: strconv.FormatInt(p.EmpresaID, 10),
		ctxTokenID:   strconv.FormatInt(p.TokenID, 10),
		ctxPermisos:  strings.Join(p.Permisos, ","),
		ctxRoles:     strings.Join(p.Roles, ","),
		ctxPlatform:  strconv.FormatBool(p.Plataforma),
	}
}

// EncodeError builds the authorizer's context for a refused request.
func EncodeError(r *Refusal) map[string]any {
	return map[string]any{ctxError: r.Class}
}

// DecodeContext reads the authorizer context. It returns the error class
// when the authorizer refused, and fails closed on anything unexpected.
func DecodeContext(m map[string]any) (Principal, error) {
	if len(m) == 0 {
		return Principal{}, ErrMissingToken
	}
	if e, ok := m[ctxError]; ok {
		if s := fmt.Sprint(e); s != "" {
			return Principal{}, RefusalOf(s)
		}
	}
	var p Principal
	var ok1, ok2, ok3 bool
	p.UsuarioID, ok1 = id(m[ctxUsuarioID])
	p.EmpresaID, ok2 = id(m[ctxEmpresaID])
	p.TokenID, ok3 = id(m[ctxTokenID])
	if !ok1 || !ok2 || !ok3 {
		return Principal{}, ErrInvalidToken
	}
	if s, _ := m[ctxPermisos].(string); s != "" {
		p.Permisos = strings.Split(s, ",")
	}
	if s, _ := m[ctxRoles].(string); s != "" {
		p.Roles = strings.Split(s, ",")
	}
	p.Plataforma = m[ctxPlatform] == "true"
	return p, nil
}

func id(v any) (int64, bool) {
	switch x := v.(type) {
	case string:
		n, err := strconv.ParseInt(x, 10, 64)
		return n, err == nil && n > 0
	case float64:
		return int64(x), x > 0
	}
	return 0, false
}
