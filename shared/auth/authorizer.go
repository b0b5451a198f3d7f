package auth

import (
	"context"
	"errors"
	"fmt"
	"log/slog"

	"github.com/aws/aws-lambda-go/events"
	"github.com/jackc/pgx/v5"

	"github.com/erpcr/erp/shared/db"
	"github.com/erpcr/erp/shared/tenancy"
)

// Authorizer is the API Gateway (HTTP API, payload 2.0, simple responses)
// REQUEST authorizer. It never denies: it annotates the request with the
// principal or with an error class, and the function answers in Spanish
// (DESIGN.md section 2). A database failure, however, is an error, so API
// Gateway answers 500 instead of letting an unchecked request through.
type Authorizer struct {
	DB         *db.DB
	BaseDomain string
	Log        *slog.Logger
}

// Handle is the Lambda handler.
func (a *Authorizer) Handle(ctx context.Context, req events.APIGatewayV2CustomAuthorizerV2Request) (events.APIGatewayV2CustomAuthorizerSimpleResponse, error) {
	allow := func(c map[string]any) (events.APIGatewayV2CustomAuthorizerSimpleResponse, error) {
		return events.APIGatewayV2CustomAuthorizerSimpleResponse{IsAuthorized: true, Context: c}, nil
	}
	h := lower(req.Headers)
	token, ok := BearerToken(h["authorization"])
	if !ok {
		return allow(EncodeError(ErrMissingToken))
	}
	tokenID, secret, ok := ParseToken(token)
	if !ok {
		return allow(EncodeError(ErrInvalidToken))
	}
	host := h["host"]
	if host == "" {
		host = req.RequestContext.DomainName
	}
	tr, err := tenancy.Resolve(h["x-empresa-id"], h["x-empresa-subdominio"], host, a.BaseDomain)
	if err != nil {
		return allow(EncodeError(ErrInvalidTenant))
	}
	p, refusal, err := a.Decide(ctx, tokenID, secret, tr)
	if err != nil {
		a.log().Error("authorizer", "error", err.Error())
		return events.APIGatewayV2CustomAuthorizerSimpleResponse{}, fmt.Errorf("authorizer: %w", err)
	}
	if refusal != nil {
		return allow(EncodeError(refusal))
	}
	return allow(EncodeContext(p))
}

// Decide resolves token, user, tenant, membership and permissions in one
// database round trip. A refusal is returned as the second value (nil when
// the request may proceed); err is a failure to decide.
func (a *Authorizer) Decide(ctx context.Context, tokenID int64, secret string, tr tenancy.Request) (Principal, *Refusal, error) {
	var empresa *int64
	if tr.EmpresaID > 0 {
		empresa = &tr.EmpresaID
	}
	var sub *string
	if tr.Subdominio != "" {
		sub = &tr.Subdominio
	}
	var (
		estado              string
		usuarioID, empresID *int64
		permisos, roles     []string
		plataforma          bool
	)
	err := a.DB.Pool.QueryRow(ctx, `select estado, usuario_id, empresa_id, permisos, roles, plataforma from auth_autorizar($1, $2, $3, $4)`,
		tokenID, HashSecret(secret), empresa, sub).Scan(&estado, &usuarioID, &empresID, &permisos, &roles, &plataforma)
	if errors.Is(err, pgx.ErrNoRows) {
		return Principal{}, ErrInvalidToken, nil
	}
	if err != nil {
		return Principal{}, nil, fmt.Errorf("auth_autorizar: %w", err)
	}
	if estado != "ok" {
		return Principal{}, RefusalOf(estado), nil
	}
	return Principal{UsuarioID: *usuarioID, EmpresaID: *empresID, TokenID: tokenID, Permisos: permisos, Roles: roles, Plataforma: plataforma}, nil, nil
}

func (a *Authorizer) log() *slog.Logger {
	if a.Log != nil {
		return a.Log
	}
	return slog.Default()
}

func lower(h map[string]string) map[string]string {
	out := make(map[string]string, len(h))
	for k, v := range h {
		out[toLower(k)] = v
	}
	return out
}

func toLower(s string) string {
	b := []byte(s)
	for i, c := range b {
		if 'A' <= c && c <= 'Z' {
			b[i] = c + 32
		}
	}
	return string(b)
}
