-- 0015: the dashboard (issue 14): daily sales summaries kept in the sales'
-- own transactions, the figures' version per company, and the cache.
--
-- A month of a company with a million sales must answer in milliseconds,
-- so the sales figures (month, today, last 30 days, top products) are read
-- from summaries per company, branch and day, not from the sales. A
-- deferred trigger (at COMMIT, like the accounting) adds a sale's
-- contribution when it is confirmed and takes it back when it is
-- cancelled; resumen_ventas_aportes remembers what each sale contributed,
-- so a sale changed twice in one transaction is counted once.

CREATE TABLE resumen_ventas_dia (
  empresa_id  bigint NOT NULL REFERENCES empresas(id),
  sucursal_id bigint NOT NULL DEFAULT 0, -- 0: sales without a branch
  fecha       date NOT NULL,
  cantidad    integer NOT NULL DEFAULT 0,
  monto       numeric(20,2) NOT NULL DEFAULT 0,
  PRIMARY KEY (empresa_id, fecha, sucursal_id)
);

CREATE TABLE resumen_productos_dia (
  empresa_id  bigint NOT NULL REFERENCES empresas(id),
  sucursal_id bigint NOT NULL DEFAULT 0,
  fecha       date NOT NULL,
  producto_id bigint NOT NULL,
  cantidad    numeric(20,3) NOT NULL DEFAULT 0,
  monto       numeric(20,2) NOT NULL DEFAULT 0,
  PRIMARY KEY (empresa_id, fecha, sucursal_id, producto_id)
);

-- What each sale added to the summaries (sign 1 or -1 for a credit note;
-- a row only while it counts).
CREATE TABLE resumen_ventas_aportes (
  empresa_id  bigint NOT NULL REFERENCES empresas(id),
  venta_id    bigint NOT NULL,
  sucursal_id bigint NOT NULL,
  fecha       date NOT NULL,
  signo       integer NOT NULL,
  monto       numeric(20,2) NOT NULL,
  PRIMARY KEY (empresa_id, venta_id)
);

-- The version of a company's dashboard figures: every write that changes
-- one bumps it (statement-level triggers), so a cached answer of an older
-- version is never served.
CREATE TABLE dashboard_versiones (
  empresa_id bigint PRIMARY KEY REFERENCES empresas(id),
  version    bigint NOT NULL DEFAULT 0
);

CREATE TABLE dashboard_cache (
  empresa_id bigint NOT NULL REFERENCES empresas(id),
  clave      varchar(200) NOT NULL,
  version    bigint NOT NULL,
  datos      jsonb NOT NULL,
  creado_en  timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (empresa_id, clave)
);

DO $$
DECLARE t text;
BEGIN
  FOREACH t IN ARRAY ARRAY['resumen_ventas_dia', 'resumen_productos_dia', 'resumen_ventas_aportes', 'dashboard_versiones',
      'dashboard_cache'] LOOP
    EXECUTE format('ALTER TABLE %I ENABLE ROW LEVEL SECURITY', t);
    EXECUTE format('CREATE POLICY %I ON %I USING (empresa_id = app_empresa_id()) WITH CHECK (empresa_id = app_empresa_id())', t || '_tenant', t);
    EXECUTE format('GRANT SELECT, INSERT, UPDATE ON %I TO erp_app', t);
  END LOOP;
END $$;
GRANT DELETE ON resumen_ventas_aportes, dashboard_cache TO erp_app;

-- Indexes the live figures read (the rest comes from the summaries).
CREATE INDEX IF NOT EXISTS cuentas_por_cobrar_vencimiento ON cuentas_por_cobrar (empresa_id, fecha_vencimiento)
  INCLUDE (saldo) WHERE estado = 'pendiente' AND NOT eliminado;
CREATE INDEX IF NOT EXISTS cuentas_por_pagar_vencimiento ON cuentas_por_pagar (empresa_id, fecha_vencimiento)
  INCLUDE (saldo) WHERE estado = 'pendiente' AND NOT eliminado;
CREATE INDEX IF NOT EXISTS clientes_creado_en ON clientes (empresa_id, creado_en) WHERE NOT eliminado;
CREATE INDEX IF NOT EXISTS comprobantes_electronicos_pendientes ON comprobantes_electronicos (empresa_id, estado)
  WHERE NOT eliminado AND estado IN ('pending', 'signed', 'sent', 'error');

-- dashboard_sync_venta brings a sale's contribution to the summaries in
-- line with its state: a confirmed sale (pendiente, pagada, not deleted)
-- counts on its date and branch, a credit note negatively; anything else
-- (borrador, anulada) counts nothing.
CREATE FUNCTION dashboard_sync_venta(p_venta bigint) RETURNS void
LANGUAGE plpgsql AS $$
DECLARE
  v ventas;
  a resumen_ventas_aportes;
  signo integer;
BEGIN
  SELECT * INTO v FROM ventas WHERE id = p_venta;
  IF v.id IS NULL THEN RETURN; END IF;
  SELECT * INTO a FROM resumen_ventas_aportes WHERE empresa_id = v.empresa_id AND venta_id = v.id;
  signo := CASE WHEN v.estado IN ('pendiente', 'pagada') AND NOT v.eliminado
    THEN CASE WHEN v.tipo_comprobante = 'nota_credito' THEN -1 ELSE 1 END ELSE 0 END;
  IF a.venta_id IS NOT NULL AND (signo = 0 OR a.signo <> signo OR a.fecha <> v.fecha_venta
      OR a.sucursal_id <> coalesce(v.sucursal_id, 0)) THEN
    -- take the old contribution back
    UPDATE resumen_ventas_dia SET cantidad = cantidad - a.signo, monto = monto - a.monto
      WHERE empresa_id = a.empresa_id AND fecha = a.fecha AND sucursal_id = a.sucursal_id;
    UPDATE resumen_productos_dia r SET cantidad = r.cantidad - a.signo * x.cantidad, monto = r.monto - a.signo * x.monto
      FROM (SELECT d.producto_id, sum(d.cantidad) AS cantidad, sum(d.subtotal - d.descuento) AS monto
            FROM detalles_venta d WHERE d.empresa_id = a.empresa_id AND d.venta_id = a.venta_id GROUP BY d.producto_id) x
      WHERE r.empresa_id = a.empresa_id AND r.fecha = a.fecha AND r.sucursal_id = a.sucursal_id AND r.producto_id = x.producto_id;
    DELETE FROM resumen_ventas_aportes WHERE empresa_id = a.empresa_id AND venta_id = a.venta_id;
    a.venta_id := NULL;
  END IF;
  IF signo <> 0 AND a.venta_id IS NULL THEN
    INSERT INTO resumen_ventas_aportes (empresa_id, venta_id, sucursal_id, fecha, signo, monto)
      VALUES (v.empresa_id, v.id, coalesce(v.sucursal_id, 0), v.fecha_venta, signo, signo * v.monto_total);
    INSERT INTO resumen_ventas_dia AS r (empresa_id, sucursal_id, fecha, cantidad, monto)
      VALUES (v.empresa_id, coalesce(v.sucursal_id, 0), v.fecha_venta, signo, signo * v.monto_total)
      ON CONFLICT (empresa_id, fecha, sucursal_id) DO UPDATE SET cantidad = r.cantidad + excluded.cantidad, monto = r.monto + excluded.monto;
    INSERT INTO resumen_productos_dia AS r (empresa_id, sucursal_id, fecha, producto_id, cantidad, monto)
      SELECT v.empresa_id, coalesce(v.sucursal_id, 0), v.fecha_venta, d.producto_id, signo * sum(d.cantidad), signo * sum(d.subtotal - d.descuento)
      FROM detalles_venta d WHERE d.empresa_id = v.empresa_id AND d.venta_id = v.id GROUP BY d.producto_id
      ON CONFLICT (empresa_id, fecha, sucursal_id, producto_id) DO UPDATE
        SET cantidad = r.cantidad + excluded.cantidad, monto = r.monto + excluded.monto;
  END IF;
END $$;

CREATE FUNCTION dashboard_tg_venta() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN PERFORM dashboard_sync_venta(NEW.id); RETURN NULL; END $$;
CREATE CONSTRAINT TRIGGER ventas_dashboard AFTER INSERT OR UPDATE OF estado, eliminado, fecha_venta, sucursal_id ON ventas
  DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION dashboard_tg_venta();

-- dashboard_tocar bumps the version of the company whose row changed,
-- once per transaction, at COMMIT: the version row is the last lock a
-- write takes (like the accounting's entry counter), so concurrent writes
-- of a company wait for each other only for the instant of their commits
-- and never deadlock on it.
CREATE FUNCTION dashboard_tocar() RETURNS trigger
LANGUAGE plpgsql AS $$
DECLARE
  marca text := 'app.dashboard_' || NEW.empresa_id;
BEGIN
  IF current_setting(marca, true) = '1' THEN
    RETURN NULL;
  END IF;
  PERFORM set_config(marca, '1', true);
  INSERT INTO dashboard_versiones AS d (empresa_id, version) VALUES (NEW.empresa_id, 1)
    ON CONFLICT (empresa_id) DO UPDATE SET version = d.version + 1;
  RETURN NULL;
END $$;

DO $$
DECLARE t text;
BEGIN
  FOREACH t IN ARRAY ARRAY['ventas', 'cuentas_por_cobrar', 'cuentas_por_pagar', 'inventarios', 'comprobantes_electronicos',
      'clientes', 'productos'] LOOP
    EXECUTE format('CREATE CONSTRAINT TRIGGER %I AFTER INSERT OR UPDATE ON %I DEFERRABLE INITIALLY DEFERRED '
      'FOR EACH ROW EXECUTE FUNCTION dashboard_tocar()', t || '_dashboard_version', t);
  END LOOP;
END $$;

-- dashboard_reconstruir rebuilds a company's summaries from its sales:
-- after a bulk load with triggers off (the benchmark), or to repair.
CREATE FUNCTION dashboard_reconstruir(p_empresa bigint) RETURNS void
LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM resumen_ventas_dia WHERE empresa_id = p_empresa;
  DELETE FROM resumen_productos_dia WHERE empresa_id = p_empresa;
  DELETE FROM resumen_ventas_aportes WHERE empresa_id = p_empresa;
  INSERT INTO resumen_ventas_aportes (empresa_id, venta_id, sucursal_id, fecha, signo, monto)
    SELECT empresa_id, id, coalesce(sucursal_id, 0), fecha_venta, s, s * monto_total
    FROM (SELECT *, CASE WHEN tipo_comprobante = 'nota_credito' THEN -1 ELSE 1 END AS s FROM ventas
          WHERE empresa_id = p_empresa AND estado IN ('pendiente', 'pagada') AND NOT eliminado) v;
  INSERT INTO resumen_ventas_dia (empresa_id, sucursal_id, fecha, cantidad, monto)
    SELECT empresa_id, sucursal_id, fecha, sum(signo), sum(monto) FROM resumen_ventas_aportes WHERE empresa_id = p_empresa
    GROUP BY 1, 2, 3;
  INSERT INTO resumen_productos_dia (empresa_id, sucursal_id, fecha, producto_id, cantidad, monto)
    SELECT a.empresa_id, a.sucursal_id, a.fecha, d.producto_id, sum(a.signo * d.cantidad), sum(a.signo * (d.subtotal - d.descuento))
    FROM resumen_ventas_aportes a JOIN detalles_venta d ON d.empresa_id = a.empresa_id AND d.venta_id = a.venta_id
    WHERE a.empresa_id = p_empresa GROUP BY 1, 2, 3, 4;
  INSERT INTO dashboard_versiones AS d (empresa_id, version) VALUES (p_empresa, 1)
    ON CONFLICT (empresa_id) DO UPDATE SET version = d.version + 1;
END $$;

DO $$
DECLARE e bigint;
BEGIN
  FOR e IN SELECT id FROM empresas LOOP
    PERFORM dashboard_reconstruir(e);
  END LOOP;
END $$;
GRANT EXECUTE ON FUNCTION dashboard_reconstruir(bigint) TO erp_app;
