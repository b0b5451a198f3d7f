-- 0009: hardening found by attack (issue 9).

-- Platform administrators may change the global catalogs (brands, units of
-- measure) that every company shares. No demo user has the flag; operators
-- set it with `make plataforma EMAIL=...` (cmd/plataforma).
ALTER TABLE usuarios ADD COLUMN administrador_plataforma boolean NOT NULL DEFAULT false;

-- The authorizer also hands over the platform-administrator flag.
DROP FUNCTION auth_autorizar(bigint, bytea, bigint, text);
CREATE FUNCTION auth_autorizar(p_token_id bigint, p_hash bytea, p_empresa_id bigint, p_subdominio text)
RETURNS TABLE (estado text, usuario_id bigint, empresa_id bigint, permisos text[], roles text[], plataforma boolean)
LANGUAGE plpgsql VOLATILE SECURITY DEFINER SET search_path = public, pg_temp AS $$
DECLARE
  t tokens_acceso%ROWTYPE;
  u usuarios%ROWTYPE;
  e empresas%ROWTYPE;
BEGIN
  SELECT * INTO t FROM tokens_acceso tk WHERE tk.id = p_token_id AND tk.token_hash = p_hash;
  IF NOT FOUND OR t.revocado_en IS NOT NULL OR t.expira_en <= now() THEN
    RETURN QUERY SELECT 'invalid_token'::text, NULL::bigint, NULL::bigint, NULL::text[], NULL::text[], false;
    RETURN;
  END IF;
  SELECT * INTO u FROM usuarios x WHERE x.id = t.usuario_id;
  IF NOT FOUND OR u.eliminado THEN
    RETURN QUERY SELECT 'invalid_token'::text, NULL::bigint, NULL::bigint, NULL::text[], NULL::text[], false;
    RETURN;
  END IF;
  IF NOT u.activo THEN
    RETURN QUERY SELECT 'inactive_user'::text, u.id, NULL::bigint, NULL::text[], NULL::text[], false;
    RETURN;
  END IF;
  IF t.last_used_at IS NULL OR t.last_used_at < now() - interval '60 seconds' THEN
    UPDATE tokens_acceso SET last_used_at = now() WHERE id = t.id;
  END IF;
  IF p_empresa_id IS NOT NULL THEN
    SELECT * INTO e FROM empresas x WHERE x.id = p_empresa_id;
  ELSIF p_subdominio IS NOT NULL THEN
    SELECT * INTO e FROM empresas x WHERE x.subdominio = lower(p_subdominio);
  ELSE
    SELECT * INTO e FROM empresas x WHERE x.id = u.empresa_id;
  END IF;
  IF NOT FOUND OR e.eliminado THEN
    RETURN QUERY SELECT 'unknown_tenant'::text, u.id, NULL::bigint, NULL::text[], NULL::text[], false;
    RETURN;
  END IF;
  IF NOT EXISTS (SELECT 1 FROM membresias m
                 WHERE m.empresa_id = e.id AND m.usuario_id = u.id AND m.activo AND NOT m.eliminado) THEN
    RETURN QUERY SELECT 'foreign_tenant'::text, u.id, e.id, NULL::text[], NULL::text[], false;
    RETURN;
  END IF;
  IF NOT e.activo THEN
    RETURN QUERY SELECT 'inactive_tenant'::text, u.id, e.id, NULL::text[], NULL::text[], false;
    RETURN;
  END IF;
  RETURN QUERY
    SELECT 'ok'::text, u.id, e.id,
      COALESCE((SELECT array_agg(DISTINCT p.slug::text ORDER BY p.slug::text)
                FROM usuario_roles ur
                JOIN roles r ON r.empresa_id = ur.empresa_id AND r.id = ur.rol_id AND r.activo AND NOT r.eliminado
                JOIN rol_permisos rp ON rp.empresa_id = r.empresa_id AND rp.rol_id = r.id
                JOIN permisos p ON p.id = rp.permiso_id
                WHERE ur.empresa_id = e.id AND ur.usuario_id = u.id), ARRAY[]::text[]),
      COALESCE((SELECT array_agg(DISTINCT r.slug::text ORDER BY r.slug::text)
                FROM usuario_roles ur
                JOIN roles r ON r.empresa_id = ur.empresa_id AND r.id = ur.rol_id AND r.activo AND NOT r.eliminado
                WHERE ur.empresa_id = e.id AND ur.usuario_id = u.id), ARRAY[]::text[]),
      u.administrador_plataforma;
END $$;
REVOKE ALL ON FUNCTION auth_autorizar(bigint, bytea, bigint, text) FROM PUBLIC;
GRANT EXECUTE ON FUNCTION auth_autorizar(bigint, bytea, bigint, text) TO erp_app;

-- Failed logins, for the limiter: 5 failures per e-mail and 50 per client
-- address within 15 minutes (settings). Successful logins are not counted;
-- one clears its e-mail's failures. Not a tenant table: a login happens
-- before any tenant is known.
CREATE TABLE fallos_login (
  id        bigserial PRIMARY KEY,
  email     text NOT NULL,
  direccion text NOT NULL,
  creado_en timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX fallos_login_email ON fallos_login (email, creado_en);
CREATE INDEX fallos_login_direccion ON fallos_login (direccion, creado_en);
GRANT SELECT, INSERT, DELETE ON fallos_login TO erp_app;
GRANT USAGE ON SEQUENCE fallos_login_id_seq TO erp_app;

-- Idempotency keys are scoped per company AND user, as per-account keys in
-- payment APIs: two users may use the same key value without colliding.
-- Keys stored before this migration keep usuario_id 0 and simply expire.
ALTER TABLE claves_idempotencia ADD COLUMN usuario_id bigint NOT NULL DEFAULT 0;
ALTER TABLE claves_idempotencia DROP CONSTRAINT claves_idempotencia_pkey;
ALTER TABLE claves_idempotencia ADD PRIMARY KEY (empresa_id, usuario_id, clave);
ALTER TABLE claves_idempotencia ALTER COLUMN usuario_id DROP DEFAULT;

-- The permissions the current user (app_usuario_id) holds in another of its
-- companies: a company's own update and delete are checked in the company
-- changed, not in the one the caller acts in. Empty for a non-member.
CREATE FUNCTION app_permisos_en(p_empresa_id bigint) RETURNS SETOF text
LANGUAGE sql STABLE SECURITY DEFINER SET search_path = public, pg_temp AS $$
  SELECT DISTINCT p.slug::text FROM membresias m
  JOIN usuario_roles ur ON ur.empresa_id = m.empresa_id AND ur.usuario_id = m.usuario_id
  JOIN roles r ON r.empresa_id = ur.empresa_id AND r.id = ur.rol_id AND r.activo AND NOT r.eliminado
  JOIN rol_permisos rp ON rp.empresa_id = r.empresa_id AND rp.rol_id = r.id
  JOIN permisos p ON p.id = rp.permiso_id
  WHERE m.empresa_id = p_empresa_id AND m.usuario_id = app_usuario_id() AND m.activo AND NOT m.eliminado
$$;
REVOKE ALL ON FUNCTION app_permisos_en(bigint) FROM PUBLIC;
GRANT EXECUTE ON FUNCTION app_permisos_en(bigint) TO erp_app;

-- The application role's sessions run in UTC whatever the server's default:
-- rows PostgreSQL builds as JSON then print +00:00, which the API writes as Z
-- (one timestamp format everywhere). A role default, so no SET statement or
-- startup parameter pins connections behind RDS Proxy.
ALTER ROLE erp_app SET timezone = 'UTC';
