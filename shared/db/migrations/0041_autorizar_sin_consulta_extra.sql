-- The authorizer runs on every request: 0040 made it compute the user's
-- default company (auth_empresa_por_defecto, a union over the memberships)
-- before anything else, although it is needed only when the company the
-- request resolves to cannot be used. Now the company is resolved first (the
-- named one, or the home company when none is named) and the default is
-- computed only when that company is unknown, deleted, inactive or not the
-- user's: then it says whether the user has any company left (no_company)
-- and, when none was named, which one to act in. The answers are those of
-- 0040 in every case (a user who passes with the resolved company has an
-- active membership of an active company, so its default is never NULL);
-- last_used_at is still touched for every answer but invalid_token,
-- inactive_user and no_company. Copied from 0040's definition.
CREATE OR REPLACE FUNCTION auth_autorizar(p_token_id bigint, p_hash bytea, p_empresa_id bigint, p_subdominio text)
RETURNS TABLE (estado text, usuario_id bigint, empresa_id bigint, permisos text[], roles text[], plataforma boolean)
LANGUAGE plpgsql VOLATILE SECURITY DEFINER SET search_path = public, pg_temp AS $$
DECLARE
  t tokens_acceso%ROWTYPE;
  u usuarios%ROWTYPE;
  e empresas%ROWTYPE;
  v_defecto bigint;
  v_encontrada boolean;
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
  IF p_empresa_id IS NOT NULL THEN
    SELECT * INTO e FROM empresas x WHERE x.id = p_empresa_id;
  ELSIF p_subdominio IS NOT NULL THEN
    SELECT * INTO e FROM empresas x WHERE x.subdominio = lower(p_subdominio);
  ELSE
    SELECT * INTO e FROM empresas x WHERE x.id = u.empresa_id;
  END IF;
  v_encontrada := FOUND;
  v_miembro := v_encontrada AND EXISTS (SELECT 1 FROM membresias m
                       WHERE m.empresa_id = e.id AND m.usuario_id = u.id AND m.activo AND NOT m.eliminado);
  IF NOT (v_miembro AND e.activo AND NOT e.eliminado) THEN
    v_defecto := auth_empresa_por_defecto(u.id, u.empresa_id);
    IF v_defecto IS NULL THEN
      RETURN QUERY SELECT 'no_company'::text, u.id, NULL::bigint, NULL::text[], NULL::text[], false;
      RETURN;
    END IF;
    IF p_empresa_id IS NULL AND p_subdominio IS NULL AND v_defecto IS DISTINCT FROM e.id THEN
      SELECT * INTO e FROM empresas x WHERE x.id = v_defecto;
      v_encontrada := FOUND;
      v_miembro := v_encontrada AND EXISTS (SELECT 1 FROM membresias m
                           WHERE m.empresa_id = e.id AND m.usuario_id = u.id AND m.activo AND NOT m.eliminado);
    END IF;
  END IF;
  IF t.last_used_at IS NULL OR t.last_used_at < now() - interval '60 seconds' THEN
    UPDATE tokens_acceso SET last_used_at = now() WHERE id = t.id;
  END IF;
  IF NOT v_encontrada THEN
    RETURN QUERY SELECT 'unknown_tenant'::text, u.id, NULL::bigint, NULL::text[], NULL::text[], false;
    RETURN;
  END IF;
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
