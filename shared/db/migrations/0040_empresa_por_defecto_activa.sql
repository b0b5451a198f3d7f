-- A deleted or inactive company no longer strands its users.
--
-- Before: login looked a user up by e-mail and set the tenant to the user's
-- home company (usuarios.empresa_id) whatever that company's state, so the
-- administrator of a soft-deleted company (activo false, eliminado true) got
-- 200 and a token, and every later request without X-Empresa-Id resolved the
-- home company, found it deleted and answered 404 "La empresa indicada no
-- existe.", as if the token pointed nowhere.
--
-- Now the company a user acts in when none is named (login included) is the
-- user's default company: the home company while it is active and the user an
-- active member of it, otherwise the active company of lowest id among the
-- user's active memberships, and NULL when there is none (every company
-- the user is a live member of is deleted or inactive). Login refuses a
-- user without one (403, like an inactive user; sesiones.go), and the
-- authorizer refuses such a user's tokens on every request with the class
-- no_company (403) before looking at the tenant headers. A member who names
-- a deleted company of its own gets inactive_tenant (403) instead of 404; a
-- non-member still gets 404, so nothing about other companies leaks.
--
-- A user with no live membership at all (its memberships ended) keeps its
-- home company as before: the callers then refuse it as a non-member (login:
-- "no tiene acceso a su empresa"; tokens: foreign_tenant), unchanged.
CREATE FUNCTION auth_empresa_por_defecto(p_usuario_id bigint, p_home bigint) RETURNS bigint
LANGUAGE sql STABLE SECURITY DEFINER SET search_path = public, pg_temp AS $$
  SELECT x.id FROM (
    SELECT e.id, 0 AS grupo, e.id = p_home AS home
    FROM membresias m JOIN empresas e ON e.id = m.empresa_id
    WHERE m.usuario_id = p_usuario_id AND m.activo AND NOT m.eliminado AND e.activo AND NOT e.eliminado
    UNION ALL
    SELECT p_home, 1, true
    WHERE NOT EXISTS (SELECT 1 FROM membresias m
                      WHERE m.usuario_id = p_usuario_id AND m.activo AND NOT m.eliminado)
  ) x
  ORDER BY x.grupo, x.home DESC, x.id
  LIMIT 1
$$;
REVOKE ALL ON FUNCTION auth_empresa_por_defecto(bigint, bigint) FROM PUBLIC;

-- empresa_id is now the default company (NULL: none is available).
CREATE OR REPLACE FUNCTION auth_buscar_login(p_email text)
RETURNS TABLE (id bigint, empresa_id bigint, password_hash text, activo boolean)
LANGUAGE sql STABLE SECURITY DEFINER SET search_path = public, pg_temp AS $$
  SELECT u.id, auth_empresa_por_defecto(u.id, u.empresa_id), u.password_hash, u.activo
  FROM usuarios u
  WHERE lower(u.email) = lower(p_email) AND NOT u.eliminado
$$;

CREATE OR REPLACE FUNCTION auth_autorizar(p_token_id bigint, p_hash bytea, p_empresa_id bigint, p_subdominio text)
RETURNS TABLE (estado text, usuario_id bigint, empresa_id bigint, permisos text[], roles text[], plataforma boolean)
LANGUAGE plpgsql VOLATILE SECURITY DEFINER SET search_path = public, pg_temp AS $$
DECLARE
  t tokens_acceso%ROWTYPE;
  u usuarios%ROWTYPE;
  e empresas%ROWTYPE;
  v_defecto bigint;
  v_miembro boolean;
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
  v_defecto := auth_empresa_por_defecto(u.id, u.empresa_id);
  IF v_defecto IS NULL THEN
    RETURN QUERY SELECT 'no_company'::text, u.id, NULL::bigint, NULL::text[], NULL::text[], false;
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
    SELECT * INTO e FROM empresas x WHERE x.id = v_defecto;
  END IF;
  IF NOT FOUND THEN
    RETURN QUERY SELECT 'unknown_tenant'::text, u.id, NULL::bigint, NULL::text[], NULL::text[], false;
    RETURN;
  END IF;
  v_miembro := EXISTS (SELECT 1 FROM membresias m
                       WHERE m.empresa_id = e.id AND m.usuario_id = u.id AND m.activo AND NOT m.eliminado);
  IF e.eliminado AND NOT v_miembro THEN
    RETURN QUERY SELECT 'unknown_tenant'::text, u.id, NULL::bigint, NULL::text[], NULL::text[], false;
    RETURN;
  END IF;
  IF NOT v_miembro THEN
    RETURN QUERY SELECT 'foreign_tenant'::text, u.id, e.id, NULL::text[], NULL::text[], false;
    RETURN;
  END IF;
  IF NOT e.activo OR e.eliminado THEN
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
