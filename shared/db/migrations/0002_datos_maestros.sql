-- Master data: branches, warehouses, product categories, brands, products,
-- customers, suppliers, company settings, and the stock table the counts of
-- this issue read (filled by the inventory issue).
--
-- Search is case- and accent-insensitive: each searchable table has a
-- generated column "busqueda" = f_unaccent(lower(<searched columns>)) with a
-- trigram GIN index, and the API matches it with LIKE f_unaccent(lower($q)).

CREATE EXTENSION IF NOT EXISTS unaccent;
CREATE EXTENSION IF NOT EXISTS pg_trgm;

-- unaccent() is STABLE (it depends on the dictionary search path); pinning
-- the dictionary makes this wrapper safely IMMUTABLE, as generated columns
-- and index expressions require.
CREATE FUNCTION f_unaccent(text) RETURNS text
LANGUAGE sql IMMUTABLE PARALLEL SAFE STRICT
AS $$ SELECT public.unaccent('public.unaccent'::regdictionary, $1) $$;
GRANT EXECUTE ON FUNCTION f_unaccent(text) TO erp_app;

CREATE FUNCTION busqueda(VARIADIC partes text[]) RETURNS text
LANGUAGE sql IMMUTABLE PARALLEL SAFE
AS $$ SELECT f_unaccent(lower(array_to_string(partes, ' '))) $$;
GRANT EXECUTE ON FUNCTION busqueda(text[]) TO erp_app;

ALTER TABLE empresas ADD COLUMN busqueda text GENERATED ALWAYS AS (busqueda(nombre, razon_social, nit_ruc, email)) STORED;
CREATE INDEX empresas_busqueda ON empresas USING gin (busqueda gin_trgm_ops);
ALTER TABLE usuarios ADD COLUMN busqueda text GENERATED ALWAYS AS (busqueda(nombre, apellidos, email)) STORED;
CREATE INDEX usuarios_busqueda ON usuarios USING gin (busqueda gin_trgm_ops);

CREATE TABLE configuraciones (
  id             bigserial PRIMARY KEY,
  empresa_id     bigint NOT NULL REFERENCES empresas(id),
  clave          varchar(100) NOT NULL,
  valor          jsonb NOT NULL,
  descripcion    varchar(1000),
  activo         boolean NOT NULL DEFAULT true,
  eliminado      boolean NOT NULL DEFAULT false,
  creado_en      timestamptz NOT NULL DEFAULT now(),
  actualizado_en timestamptz NOT NULL DEFAULT now(),
  UNIQUE (empresa_id, clave)
);

CREATE TABLE sucursales (
  id             bigserial PRIMARY KEY,
  empresa_id     bigint NOT NULL REFERENCES empresas(id),
  nombre         varchar(255) NOT NULL,
  codigo         varchar(50),
  telefono       varchar(20),
  email          varchar(255),
  direccion      varchar(500),
  provincia      varchar(100),
  canton         varchar(100),
  distrito       varchar(100),
  codigo_postal  varchar(20),
  es_principal   boolean NOT NULL DEFAULT false,
  activo         boolean NOT NULL DEFAULT true,
  eliminado      boolean NOT NULL DEFAULT false,
  creado_en      timestamptz NOT NULL DEFAULT now(),
  actualizado_en timestamptz NOT NULL DEFAULT now(),
  busqueda       text GENERATED ALWAYS AS (busqueda(nombre, codigo, email)) STORED,
  UNIQUE (empresa_id, id)
);
CREATE UNIQUE INDEX sucursales_una_principal ON sucursales (empresa_id) WHERE es_principal AND NOT eliminado;
CREATE INDEX sucursales_empresa ON sucursales (empresa_id) WHERE NOT eliminado;
CREATE INDEX sucursales_busqueda ON sucursales USING gin (busqueda gin_trgm_ops);

CREATE TABLE almacenes (
  id             bigserial PRIMARY KEY,
  empresa_id     bigint NOT NULL REFERENCES empresas(id),
  sucursal_id    bigint NOT NULL,
  nombre         varchar(255) NOT NULL,
  codigo         varchar(50),
  descripcion    varchar(1000),
  ubicacion      varchar(500),
  tipo_almacen   varchar(50) NOT NULL DEFAULT 'general',
  es_principal   boolean NOT NULL DEFAULT false,
  activo         boolean NOT NULL DEFAULT true,
  eliminado      boolean NOT NULL DEFAULT false,
  creado_en      timestamptz NOT NULL DEFAULT now(),
  actualizado_en timestamptz NOT NULL DEFAULT now(),
  busqueda       text GENERATED ALWAYS AS (busqueda(nombre, codigo, descripcion)) STORED,
  UNIQUE (empresa_id, id),
  FOREIGN KEY (empresa_id, sucursal_id) REFERENCES sucursales (empresa_id, id)
);
CREATE UNIQUE INDEX almacenes_una_principal ON almacenes (empresa_id) WHERE es_principal AND NOT eliminado;
CREATE INDEX almacenes_sucursal ON almacenes (empresa_id, sucursal_id) WHERE NOT eliminado;
CREATE INDEX almacenes_busqueda ON almacenes USING gin (busqueda gin_trgm_ops);

CREATE TABLE categorias_producto (
  id             bigserial PRIMARY KEY,
  empresa_id     bigint NOT NULL REFERENCES empresas(id),
  nombre         varchar(255) NOT NULL,
  descripcion    varchar(1000),
  activo         boolean NOT NULL DEFAULT true,
  eliminado      boolean NOT NULL DEFAULT false,
  creado_en      timestamptz NOT NULL DEFAULT now(),
  actualizado_en timestamptz NOT NULL DEFAULT now(),
  busqueda       text GENERATED ALWAYS AS (busqueda(nombre, descripcion)) STORED,
  UNIQUE (empresa_id, id)
);
CREATE UNIQUE INDEX categorias_producto_nombre_key ON categorias_producto (empresa_id, lower(nombre)) WHERE NOT eliminado;
CREATE INDEX categorias_producto_busqueda ON categorias_producto USING gin (busqueda gin_trgm_ops);

-- Brands are global (no company): SPEC.md "Brand: global, name unique globally".
CREATE TABLE marcas (
  id             bigserial PRIMARY KEY,
  nombre         varchar(255) NOT NULL,
  descripcion    varchar(1000),
  activo         boolean NOT NULL DEFAULT true,
  eliminado      boolean NOT NULL DEFAULT false,
  creado_en      timestamptz NOT NULL DEFAULT now(),
  actualizado_en timestamptz NOT NULL DEFAULT now(),
  busqueda       text GENERATED ALWAYS AS (busqueda(nombre, descripcion)) STORED
);
CREATE UNIQUE INDEX marcas_nombre_key ON marcas (lower(nombre)) WHERE NOT eliminado;
CREATE INDEX marcas_busqueda ON marcas USING gin (busqueda gin_trgm_ops);

ALTER TABLE unidades_medida ADD COLUMN descripcion varchar(1000);
ALTER TABLE unidades_medida ADD COLUMN busqueda text GENERATED ALWAYS AS (busqueda(codigo, nombre, abreviatura)) STORED;
CREATE INDEX unidades_medida_busqueda ON unidades_medida USING gin (busqueda gin_trgm_ops);

CREATE TABLE proveedores (
  id                bigserial PRIMARY KEY,
  empresa_id        bigint NOT NULL REFERENCES empresas(id),
  nombre            varchar(255) NOT NULL,
  razon_social      varchar(255),
  nit_ruc           varchar(50),
  email             varchar(255),
  telefono          varchar(20),
  celular           varchar(20),
  direccion         varchar(500),
  pais              varchar(100),
  provincia         varchar(100),
  ciudad            varchar(100),
  codigo_postal     varchar(20),
  contacto_nombre   varchar(255),
  contacto_telefono varchar(20),
  contacto_email    varchar(255),
  dias_credito      integer NOT NULL DEFAULT 0 CHECK (dias_credito >= 0),
  limite_credito    numeric(18,2) NOT NULL DEFAULT 0 CHECK (limite_credito >= 0),
  activo            boolean NOT NULL DEFAULT true,
  eliminado         boolean NOT NULL DEFAULT false,
  creado_en         timestamptz NOT NULL DEFAULT now(),
  actualizado_en    timestamptz NOT NULL DEFAULT now(),
  busqueda          text GENERATED ALWAYS AS (busqueda(nombre, razon_social, nit_ruc, email, contacto_nombre)) STORED,
  UNIQUE (empresa_id, id)
);
CREATE UNIQUE INDEX proveedores_nit_ruc_key ON proveedores (empresa_id, nit_ruc) WHERE NOT eliminado AND nit_ruc IS NOT NULL;
CREATE INDEX proveedores_busqueda ON proveedores USING gin (busqueda gin_trgm_ops);

CREATE TABLE productos (
  id                          bigserial PRIMARY KEY,
  empresa_id                  bigint NOT NULL REFERENCES empresas(id),
  categoria_id                bigint NOT NULL,
  unidad_medida_id            bigint NOT NULL REFERENCES unidades_medida(id),
  marca_id                    bigint REFERENCES marcas(id),
  tipo_impuesto_id            bigint REFERENCES tipos_impuesto(id),
  proveedor_predeterminado_id bigint,
  cabys_id                    bigint,
  codigo_cabys                varchar(13),
  nombre                      varchar(255) NOT NULL,
  codigo                      varchar(50),
  codigo_barras               varchar(100),
  descripcion                 varchar(1000),
  tipo                        varchar(20) NOT NULL CHECK (tipo IN ('producto', 'servicio')),
  precio_compra               numeric(18,2) NOT NULL DEFAULT 0 CHECK (precio_compra >= 0),
  precio_venta                numeric(18,2) NOT NULL CHECK (precio_venta >= 0),
  stock_minimo                integer NOT NULL DEFAULT 0 CHECK (stock_minimo >= 0),
  stock_maximo                integer CHECK (stock_maximo >= 0),
  gestionado_inventario       boolean NOT NULL DEFAULT true,
  imagen_url                  varchar(500),
  activo                      boolean NOT NULL DEFAULT true,
  eliminado                   boolean NOT NULL DEFAULT false,
  creado_en                   timestamptz NOT NULL DEFAULT now(),
  actualizado_en              timestamptz NOT NULL DEFAULT now(),
  busqueda                    text GENERATED ALWAYS AS (busqueda(nombre, codigo, codigo_barras, descripcion)) STORED,
  UNIQUE (empresa_id, id),
  FOREIGN KEY (empresa_id, categoria_id) REFERENCES categorias_producto (empresa_id, id),
  FOREIGN KEY (empresa_id, proveedor_predeterminado_id) REFERENCES proveedores (empresa_id, id)
);
CREATE UNIQUE INDEX productos_codigo_key ON productos (empresa_id, codigo) WHERE NOT eliminado AND codigo IS NOT NULL;
CREATE INDEX productos_categoria ON productos (empresa_id, categoria_id) WHERE NOT eliminado;
CREATE INDEX productos_busqueda ON productos USING gin (busqueda gin_trgm_ops);

CREATE TABLE clientes (
  id                  bigserial PRIMARY KEY,
  empresa_id          bigint NOT NULL REFERENCES empresas(id),
  tipo_identificacion varchar(20) NOT NULL REFERENCES tipos_identificacion(codigo),
  identificacion      varchar(50) NOT NULL,
  nombre              varchar(255),
  apellidos           varchar(255),
  razon_social        varchar(255),
  nombre_comercial    varchar(255),
  email               varchar(255),
  telefono            varchar(20),
  celular             varchar(20),
  direccion           varchar(500),
  provincia           varchar(100),
  canton              varchar(100),
  distrito            varchar(100),
  codigo_postal       varchar(20),
  limite_credito      numeric(18,2) NOT NULL DEFAULT 0 CHECK (limite_credito >= 0),
  dias_credito        integer NOT NULL DEFAULT 0 CHECK (dias_credito >= 0),
  observaciones       varchar(2000),
  activo              boolean NOT NULL DEFAULT true,
  eliminado           boolean NOT NULL DEFAULT false,
  creado_en           timestamptz NOT NULL DEFAULT now(),
  actualizado_en      timestamptz NOT NULL DEFAULT now(),
  busqueda            text GENERATED ALWAYS AS (busqueda(nombre, apellidos, razon_social, nombre_comercial, identificacion, email)) STORED,
  UNIQUE (empresa_id, id)
);
CREATE UNIQUE INDEX clientes_identificacion_key ON clientes (empresa_id, identificacion) WHERE NOT eliminado;
CREATE INDEX clientes_busqueda ON clientes USING gin (busqueda gin_trgm_ops);

-- Stock per warehouse, product and batch. The inventory issue fills it; the
-- master-data counts (stock_total, inventarios_count, valor_total_inventario)
-- read it and are zero until then.
CREATE TABLE inventarios (
  id                  bigserial PRIMARY KEY,
  empresa_id          bigint NOT NULL REFERENCES empresas(id),
  almacen_id          bigint NOT NULL,
  producto_id         bigint NOT NULL,
  lote                varchar(100),
  fecha_vencimiento   date,
  cantidad_disponible numeric(18,4) NOT NULL DEFAULT 0,
  costo_unitario      numeric(18,4) NOT NULL DEFAULT 0,
  activo              boolean NOT NULL DEFAULT true,
  eliminado           boolean NOT NULL DEFAULT false,
  creado_en           timestamptz NOT NULL DEFAULT now(),
  actualizado_en      timestamptz NOT NULL DEFAULT now(),
  UNIQUE (empresa_id, id),
  FOREIGN KEY (empresa_id, almacen_id) REFERENCES almacenes (empresa_id, id),
  FOREIGN KEY (empresa_id, producto_id) REFERENCES productos (empresa_id, id)
);
CREATE INDEX inventarios_producto ON inventarios (empresa_id, producto_id) WHERE NOT eliminado;
CREATE INDEX inventarios_almacen ON inventarios (empresa_id, almacen_id) WHERE NOT eliminado;

DO $$
DECLARE t text;
BEGIN
  FOREACH t IN ARRAY ARRAY['configuraciones', 'sucursales', 'almacenes', 'categorias_producto',
                           'proveedores', 'productos', 'clientes', 'inventarios'] LOOP
    EXECUTE format('ALTER TABLE %I ENABLE ROW LEVEL SECURITY', t);
    EXECUTE format('CREATE POLICY %I ON %I USING (empresa_id = app_empresa_id()) WITH CHECK (empresa_id = app_empresa_id())', t || '_tenant', t);
    EXECUTE format('GRANT SELECT, INSERT, UPDATE ON %I TO erp_app', t);
    EXECUTE format('GRANT USAGE ON SEQUENCE %I TO erp_app', t || '_id_seq');
    EXECUTE format('CREATE TRIGGER %I BEFORE UPDATE ON %I FOR EACH ROW EXECUTE FUNCTION tocar_actualizado_en()', t || '_actualizado_en', t);
  END LOOP;
END $$;

-- Global catalogs the Administrador may edit through the API.
GRANT INSERT, UPDATE ON marcas, unidades_medida TO erp_app;
GRANT SELECT ON marcas TO erp_app;
GRANT USAGE ON SEQUENCE marcas_id_seq, unidades_medida_id_seq TO erp_app;
CREATE TRIGGER marcas_actualizado_en BEFORE UPDATE ON marcas FOR EACH ROW EXECUTE FUNCTION tocar_actualizado_en();
CREATE TRIGGER unidades_medida_actualizado_en BEFORE UPDATE ON unidades_medida FOR EACH ROW EXECUTE FUNCTION tocar_actualizado_en();

-- A company's creator becomes its Administrador: creating the company, its
-- roles and the membership happen before the new company is the tenant, so
-- this narrow function does it in one step for the calling user.
CREATE FUNCTION empresa_crear_membresia(p_empresa_id bigint, p_usuario_id bigint) RETURNS void
LANGUAGE plpgsql VOLATILE SECURITY DEFINER SET search_path = public, pg_temp AS $$
BEGIN
  -- Only the caller itself, and only for a company created in this transaction.
  IF p_usuario_id IS DISTINCT FROM app_usuario_id() THEN
    RAISE EXCEPTION 'empresa_crear_membresia: usuario ajeno';
  END IF;
  IF NOT EXISTS (SELECT 1 FROM empresas e WHERE e.id = p_empresa_id AND e.xmin = pg_current_xact_id()::xid) THEN
    RAISE EXCEPTION 'empresa_crear_membresia: la empresa no fue creada en esta transacción';
  END IF;
  INSERT INTO membresias (empresa_id, usuario_id) VALUES (p_empresa_id, p_usuario_id);
  INSERT INTO usuario_roles (empresa_id, usuario_id, rol_id)
    SELECT p_empresa_id, p_usuario_id, r.id FROM roles r
    WHERE r.empresa_id = p_empresa_id AND r.slug = 'administrador' AND NOT r.eliminado;
END $$;
REVOKE ALL ON FUNCTION empresa_crear_membresia(bigint, bigint) FROM PUBLIC;
GRANT EXECUTE ON FUNCTION empresa_crear_membresia(bigint, bigint) TO erp_app;

-- The authorizer also hands over the role slugs (global catalogs are
-- writable only by Administrador).
DROP FUNCTION auth_autorizar(bigint, bytea, bigint, text);
CREATE FUNCTION auth_autorizar(p_token_id bigint, p_hash bytea, p_empresa_id bigint, p_subdominio text)
RETURNS TABLE (estado text, usuario_id bigint, empresa_id bigint, permisos text[], roles text[])
LANGUAGE plpgsql VOLATILE SECURITY DEFINER SET search_path = public, pg_temp AS $$
DECLARE
  t tokens_acceso%ROWTYPE;
  u usuarios%ROWTYPE;
  e empresas%ROWTYPE;
BEGIN
  SELECT * INTO t FROM tokens_acceso tk WHERE tk.id = p_token_id AND tk.token_hash = p_hash;
  IF NOT FOUND OR t.revocado_en IS NOT NULL OR t.expira_en <= now() THEN
    RETURN QUERY SELECT 'invalid_token'::text, NULL::bigint, NULL::bigint, NULL::text[], NULL::text[];
    RETURN;
  END IF;
  SELECT * INTO u FROM usuarios x WHERE x.id = t.usuario_id;
  IF NOT FOUND OR u.eliminado THEN
    RETURN QUERY SELECT 'invalid_token'::text, NULL::bigint, NULL::bigint, NULL::text[], NULL::text[];
    RETURN;
  END IF;
  IF NOT u.activo THEN
    RETURN QUERY SELECT 'inactive_user'::text, u.id, NULL::bigint, NULL::text[], NULL::text[];
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
    RETURN QUERY SELECT 'unknown_tenant'::text, u.id, NULL::bigint, NULL::text[], NULL::text[];
    RETURN;
  END IF;
  IF NOT EXISTS (SELECT 1 FROM membresias m
                 WHERE m.empresa_id = e.id AND m.usuario_id = u.id AND m.activo AND NOT m.eliminado) THEN
    RETURN QUERY SELECT 'foreign_tenant'::text, u.id, e.id, NULL::text[], NULL::text[];
    RETURN;
  END IF;
  IF NOT e.activo THEN
    RETURN QUERY SELECT 'inactive_tenant'::text, u.id, e.id, NULL::text[], NULL::text[];
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
                WHERE ur.empresa_id = e.id AND ur.usuario_id = u.id), ARRAY[]::text[]);
END $$;
REVOKE ALL ON FUNCTION auth_autorizar(bigint, bytea, bigint, text) FROM PUBLIC;
GRANT EXECUTE ON FUNCTION auth_autorizar(bigint, bytea, bigint, text) TO erp_app;

-- Counts of the companies the caller belongs to (a company list shows every
-- membership, while row-level security only shows the active tenant's rows).
CREATE FUNCTION empresas_conteo(p_ids bigint[], p_que text) RETURNS TABLE (id bigint, valor jsonb)
LANGUAGE sql STABLE SECURITY DEFINER SET search_path = public, pg_temp AS $$
  WITH mias AS (SELECT x FROM unnest(p_ids) x WHERE x IN (SELECT app_empresas_del_usuario()))
  SELECT m.x, to_jsonb(CASE p_que
      WHEN 'sucursales' THEN (SELECT count(*) FROM sucursales s WHERE s.empresa_id = m.x AND NOT s.eliminado)
      WHEN 'usuarios' THEN (SELECT count(*) FROM membresias me JOIN usuarios u ON u.id = me.usuario_id
                            WHERE me.empresa_id = m.x AND NOT me.eliminado AND NOT u.eliminado)
      WHEN 'productos' THEN (SELECT count(*) FROM productos p WHERE p.empresa_id = m.x AND NOT p.eliminado)
    END)
  FROM mias m
$$;
REVOKE ALL ON FUNCTION empresas_conteo(bigint[], text) FROM PUBLIC;
GRANT EXECUTE ON FUNCTION empresas_conteo(bigint[], text) TO erp_app;
