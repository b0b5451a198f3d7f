-- Foundation: application role, tenant helpers, catalogs, companies, users,
-- memberships, roles and permissions, access tokens, rate-limit counters.
--
-- Tenant isolation is enforced twice: queries filter by empresa_id, and row
-- level security filters by current_setting('app.empresa_id'), which the
-- application sets transaction-locally. The application connects as erp_app,
-- which owns nothing and has no BYPASSRLS, so every policy binds it.
-- RLS is deliberately not FORCE'd: the owner runs only migrations, seeds and
-- the SECURITY DEFINER auth functions below, which must see across tenants
-- (a token is resolved before the tenant is known); forcing it would make
-- them depend on the owner being a superuser (it is not on RDS/Aurora).

DO $$
BEGIN
  IF NOT EXISTS (SELECT 1 FROM pg_roles WHERE rolname = 'erp_app') THEN
    CREATE ROLE erp_app NOLOGIN NOSUPERUSER NOCREATEDB NOCREATEROLE NOBYPASSRLS;
  END IF;
EXCEPTION WHEN duplicate_object OR unique_violation THEN
  NULL; -- another database of the same cluster created it concurrently
END $$;

REVOKE ALL ON SCHEMA public FROM PUBLIC;
GRANT USAGE ON SCHEMA public TO erp_app;

CREATE FUNCTION app_empresa_id() RETURNS bigint
LANGUAGE sql STABLE AS $$ SELECT NULLIF(current_setting('app.empresa_id', true), '')::bigint $$;

CREATE FUNCTION app_usuario_id() RETURNS bigint
LANGUAGE sql STABLE AS $$ SELECT NULLIF(current_setting('app.usuario_id', true), '')::bigint $$;

CREATE FUNCTION tocar_actualizado_en() RETURNS trigger
LANGUAGE plpgsql AS $$ BEGIN NEW.actualizado_en := now(); RETURN NEW; END $$;

-- Global catalogs (no tenant): readable by the application, written by seeds.

CREATE TABLE regimenes_tributarios (
  id             bigserial PRIMARY KEY,
  codigo         varchar(50)  NOT NULL UNIQUE,
  nombre         varchar(255) NOT NULL,
  descripcion    varchar(1000),
  activo         boolean NOT NULL DEFAULT true,
  eliminado      boolean NOT NULL DEFAULT false,
  creado_en      timestamptz NOT NULL DEFAULT now(),
  actualizado_en timestamptz NOT NULL DEFAULT now()
);

CREATE TABLE unidades_medida (
  id             bigserial PRIMARY KEY,
  codigo         varchar(20)  NOT NULL UNIQUE, -- official Hacienda code, case-sensitive
  nombre         varchar(255) NOT NULL,
  abreviatura    varchar(20)  NOT NULL UNIQUE,
  tipo           varchar(50)  NOT NULL DEFAULT 'unidad',
  activo         boolean NOT NULL DEFAULT true,
  eliminado      boolean NOT NULL DEFAULT false,
  creado_en      timestamptz NOT NULL DEFAULT now(),
  actualizado_en timestamptz NOT NULL DEFAULT now()
);

CREATE TABLE tipos_impuesto (
  id                bigserial PRIMARY KEY,
  codigo            varchar(2)   NOT NULL,      -- Impuesto/Codigo (01 IVA)
  codigo_tarifa_iva varchar(2)   NOT NULL,      -- CodigoTarifaIVA (08 general ...)
  nombre            varchar(255) NOT NULL,
  porcentaje        numeric(5,2) NOT NULL CHECK (porcentaje BETWEEN 0 AND 100),
  exento            boolean NOT NULL DEFAULT false,
  activo            boolean NOT NULL DEFAULT true,
  eliminado         boolean NOT NULL DEFAULT false,
  creado_en         timestamptz NOT NULL DEFAULT now(),
  actualizado_en    timestamptz NOT NULL DEFAULT now(),
  UNIQUE (codigo, codigo_tarifa_iva)
);

CREATE TABLE formas_pago (
  id             bigserial PRIMARY KEY,
  codigo         varchar(2)   NOT NULL UNIQUE,  -- TipoMedioPago 01-07, 99
  nombre         varchar(255) NOT NULL,
  activo         boolean NOT NULL DEFAULT true,
  eliminado      boolean NOT NULL DEFAULT false,
  creado_en      timestamptz NOT NULL DEFAULT now(),
  actualizado_en timestamptz NOT NULL DEFAULT now()
);

CREATE TABLE tipos_identificacion (
  id              bigserial PRIMARY KEY,
  codigo          varchar(20)  NOT NULL UNIQUE, -- fisica, juridica, dimex, nite, extranjero
  codigo_hacienda varchar(2)   NOT NULL,        -- Identificacion/Tipo 01-06
  nombre          varchar(255) NOT NULL,
  formato         varchar(255) NOT NULL,
  activo          boolean NOT NULL DEFAULT true,
  eliminado       boolean NOT NULL DEFAULT false,
  creado_en       timestamptz NOT NULL DEFAULT now(),
  actualizado_en  timestamptz NOT NULL DEFAULT now()
);

CREATE TABLE permisos (
  id             bigserial PRIMARY KEY,
  slug           varchar(100) NOT NULL UNIQUE,  -- {modulo}.{accion}
  modulo         varchar(50)  NOT NULL,
  accion         varchar(20)  NOT NULL,
  descripcion    varchar(255) NOT NULL,
  creado_en      timestamptz NOT NULL DEFAULT now(),
  actualizado_en timestamptz NOT NULL DEFAULT now()
);

GRANT SELECT ON regimenes_tributarios, unidades_medida, tipos_impuesto, formas_pago,
  tipos_identificacion, permisos TO erp_app;

-- Companies. A company is visible to the members of it (and to the tenant
-- itself); creating one is allowed, the API decides who may.

CREATE TABLE empresas (
  id                    bigserial PRIMARY KEY,
  nombre                varchar(255) NOT NULL,
  razon_social          varchar(255) NOT NULL,
  nit_ruc               varchar(50)  NOT NULL,
  regimen_tributario_id bigint NOT NULL REFERENCES regimenes_tributarios(id),
  email                 varchar(255),
  telefono              varchar(50),
  direccion             varchar(500),
  pais                  varchar(100),
  provincia             varchar(100),
  ciudad                varchar(100),
  codigo_postal         varchar(20),
  sitio_web             varchar(255),
  subdominio            varchar(63),
  activo                boolean NOT NULL DEFAULT true,
  eliminado             boolean NOT NULL DEFAULT false,
  creado_en             timestamptz NOT NULL DEFAULT now(),
  actualizado_en        timestamptz NOT NULL DEFAULT now()
);
CREATE UNIQUE INDEX empresas_nit_ruc_key ON empresas (nit_ruc);
CREATE UNIQUE INDEX empresas_subdominio_key ON empresas (subdominio);
CREATE TRIGGER empresas_actualizado_en BEFORE UPDATE ON empresas FOR EACH ROW EXECUTE FUNCTION tocar_actualizado_en();

CREATE TABLE cargos (
  id             bigserial PRIMARY KEY,
  empresa_id     bigint NOT NULL REFERENCES empresas(id),
  nombre         varchar(255) NOT NULL,
  descripcion    varchar(1000),
  activo         boolean NOT NULL DEFAULT true,
  eliminado      boolean NOT NULL DEFAULT false,
  creado_en      timestamptz NOT NULL DEFAULT now(),
  actualizado_en timestamptz NOT NULL DEFAULT now(),
  UNIQUE (empresa_id, nombre)
);
CREATE INDEX cargos_empresa ON cargos (empresa_id);

-- Users have a home company (empresa_id) and may belong to several
-- companies through membresias, with roles per company. The e-mail is the
-- login name, hence unique across the service.
CREATE TABLE usuarios (
  id             bigserial PRIMARY KEY,
  empresa_id     bigint NOT NULL REFERENCES empresas(id),
  cargo_id       bigint REFERENCES cargos(id),
  nombre         varchar(255) NOT NULL,
  apellidos      varchar(255),
  email          varchar(255) NOT NULL,
  password_hash  text NOT NULL,
  activo         boolean NOT NULL DEFAULT true,
  eliminado      boolean NOT NULL DEFAULT false,
  creado_en      timestamptz NOT NULL DEFAULT now(),
  actualizado_en timestamptz NOT NULL DEFAULT now()
);
CREATE UNIQUE INDEX usuarios_email_key ON usuarios (lower(email));
CREATE INDEX usuarios_empresa ON usuarios (empresa_id);
CREATE TRIGGER usuarios_actualizado_en BEFORE UPDATE ON usuarios FOR EACH ROW EXECUTE FUNCTION tocar_actualizado_en();

CREATE TABLE membresias (
  empresa_id     bigint NOT NULL REFERENCES empresas(id),
  usuario_id     bigint NOT NULL REFERENCES usuarios(id),
  activo         boolean NOT NULL DEFAULT true,
  eliminado      boolean NOT NULL DEFAULT false,
  creado_en      timestamptz NOT NULL DEFAULT now(),
  actualizado_en timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (empresa_id, usuario_id)
);
CREATE INDEX membresias_usuario ON membresias (usuario_id);

CREATE TABLE roles (
  id             bigserial PRIMARY KEY,
  empresa_id     bigint NOT NULL REFERENCES empresas(id),
  nombre         varchar(255) NOT NULL,
  slug           varchar(100) NOT NULL,
  descripcion    varchar(1000),
  predefinido    boolean NOT NULL DEFAULT false,
  activo         boolean NOT NULL DEFAULT true,
  eliminado      boolean NOT NULL DEFAULT false,
  creado_en      timestamptz NOT NULL DEFAULT now(),
  actualizado_en timestamptz NOT NULL DEFAULT now(),
  UNIQUE (empresa_id, id)
);
-- A deleted role frees its slug.
CREATE UNIQUE INDEX roles_empresa_slug_key ON roles (empresa_id, slug) WHERE NOT eliminado;
CREATE TRIGGER roles_actualizado_en BEFORE UPDATE ON roles FOR EACH ROW EXECUTE FUNCTION tocar_actualizado_en();

CREATE TABLE rol_permisos (
  empresa_id bigint NOT NULL,
  rol_id     bigint NOT NULL,
  permiso_id bigint NOT NULL REFERENCES permisos(id),
  creado_en  timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (empresa_id, rol_id, permiso_id),
  FOREIGN KEY (empresa_id, rol_id) REFERENCES roles (empresa_id, id)
);

CREATE TABLE usuario_roles (
  empresa_id bigint NOT NULL,
  usuario_id bigint NOT NULL,
  rol_id     bigint NOT NULL,
  creado_en  timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (empresa_id, usuario_id, rol_id),
  FOREIGN KEY (empresa_id, usuario_id) REFERENCES membresias (empresa_id, usuario_id),
  FOREIGN KEY (empresa_id, rol_id) REFERENCES roles (empresa_id, id)
);
CREATE INDEX usuario_roles_rol ON usuario_roles (empresa_id, rol_id);

-- Row-level security on every tenant table.
ALTER TABLE empresas ENABLE ROW LEVEL SECURITY;
ALTER TABLE cargos ENABLE ROW LEVEL SECURITY;
ALTER TABLE usuarios ENABLE ROW LEVEL SECURITY;
ALTER TABLE membresias ENABLE ROW LEVEL SECURITY;
ALTER TABLE roles ENABLE ROW LEVEL SECURITY;
ALTER TABLE rol_permisos ENABLE ROW LEVEL SECURITY;
ALTER TABLE usuario_roles ENABLE ROW LEVEL SECURITY;

-- The companies the current user belongs to. SECURITY DEFINER so that the
-- empresas policy can consult memberships of other tenants without exposing
-- them.
CREATE FUNCTION app_empresas_del_usuario() RETURNS SETOF bigint
LANGUAGE sql STABLE SECURITY DEFINER SET search_path = public, pg_temp AS $$
  SELECT m.empresa_id FROM membresias m
  WHERE m.usuario_id = app_usuario_id() AND m.activo AND NOT m.eliminado
$$;
REVOKE ALL ON FUNCTION app_empresas_del_usuario() FROM PUBLIC;
GRANT EXECUTE ON FUNCTION app_empresas_del_usuario() TO erp_app;

CREATE POLICY empresas_lectura ON empresas FOR SELECT
  USING (id = app_empresa_id() OR id IN (SELECT app_empresas_del_usuario()));
CREATE POLICY empresas_alta ON empresas FOR INSERT WITH CHECK (true);
CREATE POLICY empresas_cambio ON empresas FOR UPDATE
  USING (id = app_empresa_id()) WITH CHECK (id = app_empresa_id());

CREATE POLICY cargos_tenant ON cargos
  USING (empresa_id = app_empresa_id()) WITH CHECK (empresa_id = app_empresa_id());

-- A user row is visible in its home company and in every company it is a
-- member of (the membership row itself is tenant-filtered).
CREATE POLICY usuarios_tenant ON usuarios
  USING (empresa_id = app_empresa_id()
         OR EXISTS (SELECT 1 FROM membresias m WHERE m.usuario_id = usuarios.id AND m.empresa_id = app_empresa_id()))
  WITH CHECK (empresa_id = app_empresa_id()
         OR EXISTS (SELECT 1 FROM membresias m WHERE m.usuario_id = usuarios.id AND m.empresa_id = app_empresa_id()));

CREATE POLICY membresias_tenant ON membresias
  USING (empresa_id = app_empresa_id()) WITH CHECK (empresa_id = app_empresa_id());
CREATE POLICY roles_tenant ON roles
  USING (empresa_id = app_empresa_id()) WITH CHECK (empresa_id = app_empresa_id());
CREATE POLICY rol_permisos_tenant ON rol_permisos
  USING (empresa_id = app_empresa_id()) WITH CHECK (empresa_id = app_empresa_id());
CREATE POLICY usuario_roles_tenant ON usuario_roles
  USING (empresa_id = app_empresa_id()) WITH CHECK (empresa_id = app_empresa_id());

GRANT SELECT, INSERT, UPDATE ON empresas, cargos, usuarios, membresias, roles TO erp_app;
GRANT SELECT, INSERT, DELETE ON rol_permisos, usuario_roles TO erp_app;
GRANT USAGE ON SEQUENCE empresas_id_seq, cargos_id_seq, usuarios_id_seq, roles_id_seq TO erp_app;

-- Personal access tokens: "<id>|<random>", only the SHA-256 of the whole
-- string is kept. Not readable by the application role at all: it works on
-- them only through the narrow functions below.
CREATE TABLE tokens_acceso (
  id            bigserial PRIMARY KEY,
  usuario_id    bigint NOT NULL REFERENCES usuarios(id),
  token_hash    bytea NOT NULL UNIQUE,
  nombre        varchar(255) NOT NULL DEFAULT 'api',
  creado_en     timestamptz NOT NULL DEFAULT now(),
  expira_en     timestamptz NOT NULL,
  last_used_at  timestamptz,
  revocado_en   timestamptz
);
CREATE INDEX tokens_acceso_usuario ON tokens_acceso (usuario_id);

-- Fixed-window counters shared by every Lambda instance.
CREATE TABLE limites_tasa (
  clave          text NOT NULL,
  ventana_inicio timestamptz NOT NULL,
  cuenta         integer NOT NULL DEFAULT 0,
  PRIMARY KEY (clave, ventana_inicio)
);
GRANT SELECT, INSERT, UPDATE, DELETE ON limites_tasa TO erp_app;

-- auth_buscar_login finds the login candidate by e-mail across tenants.
CREATE FUNCTION auth_buscar_login(p_email text)
RETURNS TABLE (id bigint, empresa_id bigint, password_hash text, activo boolean)
LANGUAGE sql STABLE SECURITY DEFINER SET search_path = public, pg_temp AS $$
  SELECT u.id, u.empresa_id, u.password_hash, u.activo
  FROM usuarios u
  WHERE lower(u.email) = lower(p_email) AND NOT u.eliminado
$$;

CREATE FUNCTION auth_crear_token(p_usuario_id bigint, p_hash bytea, p_expira timestamptz, p_nombre text)
RETURNS bigint
LANGUAGE sql VOLATILE SECURITY DEFINER SET search_path = public, pg_temp AS $$
  INSERT INTO tokens_acceso (usuario_id, token_hash, expira_en, nombre, last_used_at)
  VALUES (p_usuario_id, p_hash, p_expira, p_nombre, now())
  RETURNING id
$$;

CREATE FUNCTION auth_revocar_token(p_token_id bigint, p_usuario_id bigint) RETURNS boolean
LANGUAGE sql VOLATILE SECURITY DEFINER SET search_path = public, pg_temp AS $$
  WITH r AS (
    UPDATE tokens_acceso SET revocado_en = now()
    WHERE id = p_token_id AND usuario_id = p_usuario_id AND revocado_en IS NULL
    RETURNING 1)
  SELECT EXISTS (SELECT 1 FROM r)
$$;

-- Revokes every token of a user (deactivation, deletion, password change).
CREATE FUNCTION auth_revocar_tokens_usuario(p_usuario_id bigint, p_excepto bigint) RETURNS integer
LANGUAGE sql VOLATILE SECURITY DEFINER SET search_path = public, pg_temp AS $$
  WITH r AS (
    UPDATE tokens_acceso SET revocado_en = now()
    WHERE usuario_id = p_usuario_id AND revocado_en IS NULL AND id IS DISTINCT FROM p_excepto
      -- only users the caller's tenant can see may be touched
      AND EXISTS (SELECT 1 FROM membresias m WHERE m.usuario_id = p_usuario_id AND m.empresa_id = app_empresa_id())
    RETURNING 1)
  SELECT count(*)::integer FROM r
$$;

-- auth_autorizar is the authorizer's whole decision in one round trip:
-- token -> user -> tenant (explicit id, subdomain, or the user's home
-- company) -> membership -> permissions. estado is 'ok' or an error class.
CREATE FUNCTION auth_autorizar(p_token_id bigint, p_hash bytea, p_empresa_id bigint, p_subdominio text)
RETURNS TABLE (estado text, usuario_id bigint, empresa_id bigint, permisos text[])
LANGUAGE plpgsql VOLATILE SECURITY DEFINER SET search_path = public, pg_temp AS $$
DECLARE
  t tokens_acceso%ROWTYPE;
  u usuarios%ROWTYPE;
  e empresas%ROWTYPE;
  v_empresa bigint;
BEGIN
  SELECT * INTO t FROM tokens_acceso tk WHERE tk.id = p_token_id AND tk.token_hash = p_hash;
  IF NOT FOUND OR t.revocado_en IS NOT NULL OR t.expira_en <= now() THEN
    RETURN QUERY SELECT 'invalid_token'::text, NULL::bigint, NULL::bigint, NULL::text[];
    RETURN;
  END IF;
  SELECT * INTO u FROM usuarios x WHERE x.id = t.usuario_id;
  IF NOT FOUND OR u.eliminado THEN
    RETURN QUERY SELECT 'invalid_token'::text, NULL::bigint, NULL::bigint, NULL::text[];
    RETURN;
  END IF;
  IF NOT u.activo THEN
    RETURN QUERY SELECT 'inactive_user'::text, u.id, NULL::bigint, NULL::text[];
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
    RETURN QUERY SELECT 'unknown_tenant'::text, u.id, NULL::bigint, NULL::text[];
    RETURN;
  END IF;
  v_empresa := e.id;
  IF NOT EXISTS (SELECT 1 FROM membresias m
                 WHERE m.empresa_id = v_empresa AND m.usuario_id = u.id AND m.activo AND NOT m.eliminado) THEN
    RETURN QUERY SELECT 'foreign_tenant'::text, u.id, v_empresa, NULL::text[];
    RETURN;
  END IF;
  IF NOT e.activo THEN
    RETURN QUERY SELECT 'inactive_tenant'::text, u.id, v_empresa, NULL::text[];
    RETURN;
  END IF;
  RETURN QUERY
    SELECT 'ok'::text, u.id, v_empresa,
      COALESCE((SELECT array_agg(DISTINCT p.slug::text ORDER BY p.slug::text)
                FROM usuario_roles ur
                JOIN roles r ON r.empresa_id = ur.empresa_id AND r.id = ur.rol_id AND r.activo AND NOT r.eliminado
                JOIN rol_permisos rp ON rp.empresa_id = r.empresa_id AND rp.rol_id = r.id
                JOIN permisos p ON p.id = rp.permiso_id
                WHERE ur.empresa_id = v_empresa AND ur.usuario_id = u.id), ARRAY[]::text[]);
END $$;

REVOKE ALL ON FUNCTION auth_buscar_login(text), auth_crear_token(bigint, bytea, timestamptz, text),
  auth_revocar_token(bigint, bigint), auth_revocar_tokens_usuario(bigint, bigint),
  auth_autorizar(bigint, bytea, bigint, text) FROM PUBLIC;
GRANT EXECUTE ON FUNCTION auth_buscar_login(text), auth_crear_token(bigint, bytea, timestamptz, text),
  auth_revocar_token(bigint, bigint), auth_revocar_tokens_usuario(bigint, bigint),
  auth_autorizar(bigint, bytea, bigint, text) TO erp_app;
