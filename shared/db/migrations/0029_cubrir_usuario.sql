-- Whether the current user (app_usuario_id) may take over the account of
-- p_usuario_id by setting its password or e-mail: an account is one login
-- for every company it is a member of, so whoever changes its credentials
-- gets its permissions in all of them, not only in the company acting. True
-- when, in every company where the target is an active member, the current
-- user holds every permission the target holds there (a company the current
-- user is not a member of counts as holding nothing), and the target is no
-- platform administrator unless the current user is one too. Row-level
-- security would show only the acting company, hence SECURITY DEFINER; it
-- answers one boolean about a user id and nothing else.
CREATE FUNCTION app_cubre_usuario(p_usuario_id bigint) RETURNS boolean
LANGUAGE sql STABLE SECURITY DEFINER SET search_path = public, pg_temp AS $$
  WITH del_objetivo AS (
    SELECT DISTINCT m.empresa_id, rp.permiso_id FROM membresias m
    JOIN usuario_roles ur ON ur.empresa_id = m.empresa_id AND ur.usuario_id = m.usuario_id
    JOIN roles r ON r.empresa_id = ur.empresa_id AND r.id = ur.rol_id AND r.activo AND NOT r.eliminado
    JOIN rol_permisos rp ON rp.empresa_id = r.empresa_id AND rp.rol_id = r.id
    WHERE m.usuario_id = p_usuario_id AND m.activo AND NOT m.eliminado
  ), del_actual AS (
    SELECT DISTINCT m.empresa_id, rp.permiso_id FROM membresias m
    JOIN usuario_roles ur ON ur.empresa_id = m.empresa_id AND ur.usuario_id = m.usuario_id
    JOIN roles r ON r.empresa_id = ur.empresa_id AND r.id = ur.rol_id AND r.activo AND NOT r.eliminado
    JOIN rol_permisos rp ON rp.empresa_id = r.empresa_id AND rp.rol_id = r.id
    WHERE m.usuario_id = app_usuario_id() AND m.activo AND NOT m.eliminado
  )
  SELECT NOT EXISTS (SELECT empresa_id, permiso_id FROM del_objetivo EXCEPT SELECT empresa_id, permiso_id FROM del_actual)
    AND (NOT coalesce((SELECT administrador_plataforma FROM usuarios WHERE id = p_usuario_id), false)
      OR coalesce((SELECT administrador_plataforma FROM usuarios WHERE id = app_usuario_id()), false))
$$;
REVOKE ALL ON FUNCTION app_cubre_usuario(bigint) FROM PUBLIC;
GRANT EXECUTE ON FUNCTION app_cubre_usuario(bigint) TO erp_app;
