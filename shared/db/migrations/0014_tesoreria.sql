-- 0014: treasury (issue 13, "Treasury"; shared/tesoreria): bank accounts
-- with their ledger account and reconciliations, cash boxes per branch with
-- their sessions, budgets per year and account; sales and payments name the
-- bank account or cash box they move, and their postings use its ledger
-- account.
--
-- Rules a caller can break raise HINT 'erp:422' with the field key in
-- DETAIL (contabilidad_error of 0012), so they are 422s whatever code path
-- wrote the row, without a round trip of their own.

CREATE TABLE cuentas_bancarias (
  id                 bigserial PRIMARY KEY,
  empresa_id         bigint NOT NULL REFERENCES empresas(id),
  banco              varchar(255) NOT NULL,
  numero             varchar(50) NOT NULL,
  -- Costa Rican IBAN: CR, 2 check digits (ISO 13616 mod 97), 18 digits.
  iban               varchar(22) NOT NULL CHECK (iban ~ '^CR[0-9]{20}$'),
  moneda             varchar(3) NOT NULL DEFAULT 'CRC' CHECK (moneda IN ('CRC', 'USD')),
  titular            varchar(255),
  descripcion        varchar(1000),
  cuenta_contable_id bigint NOT NULL,
  activo             boolean NOT NULL DEFAULT true,
  eliminado          boolean NOT NULL DEFAULT false,
  creado_en          timestamptz NOT NULL DEFAULT now(),
  actualizado_en     timestamptz NOT NULL DEFAULT now(),
  UNIQUE (empresa_id, id),
  FOREIGN KEY (empresa_id, cuenta_contable_id) REFERENCES cuentas_contables (empresa_id, id)
);
CREATE UNIQUE INDEX cuentas_bancarias_iban ON cuentas_bancarias (empresa_id, iban) WHERE NOT eliminado;
-- Each bank account has a ledger account of its own: its balance is that account's.
CREATE UNIQUE INDEX cuentas_bancarias_cuenta ON cuentas_bancarias (empresa_id, cuenta_contable_id) WHERE NOT eliminado;

-- A bank reconciliation at a cut-off date: the book balance of the bank's
-- ledger account, the statement's balance, and which posted lines the
-- statement shows (conciliado) or not yet (the difference).
CREATE TABLE conciliaciones_bancarias (
  id                  bigserial PRIMARY KEY,
  empresa_id          bigint NOT NULL REFERENCES empresas(id),
  cuenta_bancaria_id  bigint NOT NULL,
  fecha_corte         date NOT NULL,
  saldo_libros        numeric(18,2) NOT NULL,
  saldo_estado_cuenta numeric(18,2) NOT NULL,
  total_conciliado    numeric(18,2) NOT NULL,
  total_no_conciliado numeric(18,2) NOT NULL,
  diferencia          numeric(18,2) NOT NULL,
  observaciones       varchar(1000),
  usuario_id          bigint REFERENCES usuarios(id),
  creado_en           timestamptz NOT NULL DEFAULT now(),
  actualizado_en      timestamptz NOT NULL DEFAULT now(),
  UNIQUE (empresa_id, id),
  FOREIGN KEY (empresa_id, cuenta_bancaria_id) REFERENCES cuentas_bancarias (empresa_id, id),
  CHECK (saldo_libros - total_no_conciliado = saldo_estado_cuenta AND diferencia = saldo_libros - saldo_estado_cuenta)
);
CREATE INDEX conciliaciones_bancarias_cuenta ON conciliaciones_bancarias (empresa_id, cuenta_bancaria_id, fecha_corte DESC, id DESC);

-- The lines of a reconciliation: the ones it reconciled (a line is
-- reconciled once) and the ones it left outstanding (kept as they were).
CREATE TABLE conciliacion_movimientos (
  id               bigserial PRIMARY KEY,
  empresa_id       bigint NOT NULL REFERENCES empresas(id),
  conciliacion_id  bigint NOT NULL,
  asiento_linea_id bigint NOT NULL REFERENCES asiento_lineas(id),
  conciliado       boolean NOT NULL,
  monto            numeric(18,2) NOT NULL,
  FOREIGN KEY (empresa_id, conciliacion_id) REFERENCES conciliaciones_bancarias (empresa_id, id),
  UNIQUE (conciliacion_id, asiento_linea_id)
);
CREATE UNIQUE INDEX conciliacion_movimientos_linea ON conciliacion_movimientos (empresa_id, asiento_linea_id) WHERE conciliado;

CREATE TABLE cajas (
  id                 bigserial PRIMARY KEY,
  empresa_id         bigint NOT NULL REFERENCES empresas(id),
  sucursal_id        bigint NOT NULL,
  nombre             varchar(255) NOT NULL,
  codigo             varchar(50),
  descripcion        varchar(1000),
  -- The cash account the box's money is in (by default Caja general).
  cuenta_contable_id bigint NOT NULL,
  activo             boolean NOT NULL DEFAULT true,
  eliminado          boolean NOT NULL DEFAULT false,
  creado_en          timestamptz NOT NULL DEFAULT now(),
  actualizado_en     timestamptz NOT NULL DEFAULT now(),
  UNIQUE (empresa_id, id),
  FOREIGN KEY (empresa_id, sucursal_id) REFERENCES sucursales (empresa_id, id),
  FOREIGN KEY (empresa_id, cuenta_contable_id) REFERENCES cuentas_contables (empresa_id, id)
);
CREATE INDEX cajas_sucursal ON cajas (empresa_id, sucursal_id) WHERE NOT eliminado;
CREATE UNIQUE INDEX cajas_codigo ON cajas (empresa_id, codigo) WHERE NOT eliminado AND codigo IS NOT NULL;

-- A session of a box, from its opening to its closing count.
CREATE TABLE caja_sesiones (
  id               bigserial PRIMARY KEY,
  empresa_id       bigint NOT NULL REFERENCES empresas(id),
  caja_id          bigint NOT NULL,
  estado           varchar(10) NOT NULL DEFAULT 'abierta' CHECK (estado IN ('abierta', 'cerrada')),
  monto_inicial    numeric(18,2) NOT NULL CHECK (monto_inicial >= 0),
  abierta_en       timestamptz NOT NULL DEFAULT now(),
  abierta_por      bigint REFERENCES usuarios(id),
  ventas_efectivo  numeric(18,2),
  cobros_efectivo  numeric(18,2),
  pagos_efectivo   numeric(18,2),
  monto_esperado   numeric(18,2),
  monto_contado    numeric(18,2) CHECK (monto_contado >= 0),
  diferencia       numeric(18,2),
  -- sobrante (counted more than expected), faltante (less) or cuadrada.
  resultado        varchar(10) CHECK (resultado IN ('sobrante', 'faltante', 'cuadrada')),
  asiento_id       bigint,
  observaciones    varchar(1000),
  cerrada_en       timestamptz,
  cerrada_por      bigint REFERENCES usuarios(id),
  creado_en        timestamptz NOT NULL DEFAULT now(),
  actualizado_en   timestamptz NOT NULL DEFAULT now(),
  UNIQUE (empresa_id, id),
  FOREIGN KEY (empresa_id, caja_id) REFERENCES cajas (empresa_id, id),
  FOREIGN KEY (empresa_id, asiento_id) REFERENCES asientos_contables (empresa_id, id),
  CHECK (estado = 'abierta' OR (monto_contado IS NOT NULL AND monto_esperado IS NOT NULL AND cerrada_en IS NOT NULL))
);
-- One open session per box.
CREATE UNIQUE INDEX caja_sesiones_abierta ON caja_sesiones (empresa_id, caja_id) WHERE estado = 'abierta';
CREATE INDEX caja_sesiones_caja ON caja_sesiones (empresa_id, caja_id, id DESC);

-- A budget: twelve monthly amounts of one account in one year.
CREATE TABLE presupuestos (
  id                 bigserial PRIMARY KEY,
  empresa_id         bigint NOT NULL REFERENCES empresas(id),
  anio               integer NOT NULL CHECK (anio BETWEEN 1900 AND 2999),
  cuenta_contable_id bigint NOT NULL,
  montos             numeric(18,2)[] NOT NULL CHECK (cardinality(montos) = 12 AND array_position(montos, NULL) IS NULL),
  descripcion        varchar(1000),
  activo             boolean NOT NULL DEFAULT true,
  eliminado          boolean NOT NULL DEFAULT false,
  creado_en          timestamptz NOT NULL DEFAULT now(),
  actualizado_en     timestamptz NOT NULL DEFAULT now(),
  UNIQUE (empresa_id, id),
  FOREIGN KEY (empresa_id, cuenta_contable_id) REFERENCES cuentas_contables (empresa_id, id)
);
CREATE UNIQUE INDEX presupuestos_anio_cuenta ON presupuestos (empresa_id, anio, cuenta_contable_id) WHERE NOT eliminado;

DO $$
DECLARE t text;
BEGIN
  FOREACH t IN ARRAY ARRAY['cuentas_bancarias', 'conciliaciones_bancarias', 'conciliacion_movimientos', 'cajas',
      'caja_sesiones', 'presupuestos'] LOOP
    EXECUTE format('ALTER TABLE %I ENABLE ROW LEVEL SECURITY', t);
    EXECUTE format('CREATE POLICY %I ON %I USING (empresa_id = app_empresa_id()) WITH CHECK (empresa_id = app_empresa_id())', t || '_tenant', t);
    EXECUTE format('GRANT SELECT, INSERT, UPDATE ON %I TO erp_app', t);
    EXECUTE format('GRANT USAGE ON SEQUENCE %I TO erp_app', t || '_id_seq');
  END LOOP;
END $$;
CREATE TRIGGER cuentas_bancarias_actualizado_en BEFORE UPDATE ON cuentas_bancarias FOR EACH ROW EXECUTE FUNCTION tocar_actualizado_en();
CREATE TRIGGER conciliaciones_bancarias_actualizado_en BEFORE UPDATE ON conciliaciones_bancarias FOR EACH ROW EXECUTE FUNCTION tocar_actualizado_en();
CREATE TRIGGER cajas_actualizado_en BEFORE UPDATE ON cajas FOR EACH ROW EXECUTE FUNCTION tocar_actualizado_en();
CREATE TRIGGER caja_sesiones_actualizado_en BEFORE UPDATE ON caja_sesiones FOR EACH ROW EXECUTE FUNCTION tocar_actualizado_en();
CREATE TRIGGER presupuestos_actualizado_en BEFORE UPDATE ON presupuestos FOR EACH ROW EXECUTE FUNCTION tocar_actualizado_en();

-- ---- sales and payments name the money's bank account or cash box ----------

ALTER TABLE ventas ADD COLUMN cuenta_bancaria_id bigint, ADD COLUMN caja_id bigint, ADD COLUMN caja_sesion_id bigint,
  ADD FOREIGN KEY (empresa_id, cuenta_bancaria_id) REFERENCES cuentas_bancarias (empresa_id, id),
  ADD FOREIGN KEY (empresa_id, caja_id) REFERENCES cajas (empresa_id, id),
  ADD FOREIGN KEY (empresa_id, caja_sesion_id) REFERENCES caja_sesiones (empresa_id, id);
ALTER TABLE pagos ADD COLUMN cuenta_bancaria_id bigint, ADD COLUMN caja_id bigint, ADD COLUMN caja_sesion_id bigint,
  ADD FOREIGN KEY (empresa_id, cuenta_bancaria_id) REFERENCES cuentas_bancarias (empresa_id, id),
  ADD FOREIGN KEY (empresa_id, caja_id) REFERENCES cajas (empresa_id, id),
  ADD FOREIGN KEY (empresa_id, caja_sesion_id) REFERENCES caja_sesiones (empresa_id, id);
CREATE INDEX ventas_caja_sesion ON ventas (empresa_id, caja_sesion_id) WHERE caja_sesion_id IS NOT NULL;
CREATE INDEX ventas_sucursal ON ventas (empresa_id, sucursal_id) WHERE NOT eliminado;
CREATE INDEX pagos_caja_sesion ON pagos (empresa_id, caja_sesion_id) WHERE caja_sesion_id IS NOT NULL;

-- tesoreria_medio checks, before a sale or payment is written, the bank
-- account or cash box it names: it must exist in the company and be
-- active, and a cash box must have an open session, which the row is
-- tied to (the session's count at closing includes it). The session row is
-- share-locked, so a closing waits for this write to commit and counts it,
-- and a write after the closing finds no open session. A sale without a
-- branch takes the box's; one of another branch is refused.
CREATE FUNCTION tesoreria_medio() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  banco cuentas_bancarias;
  caja cajas;
BEGIN
  IF NEW.cuenta_bancaria_id IS NOT NULL AND NEW.caja_id IS NOT NULL THEN
    PERFORM contabilidad_error('caja_id', 'Indique una cuenta bancaria o una caja, no ambas.');
  END IF;
  IF NEW.cuenta_bancaria_id IS NOT NULL THEN
    SELECT * INTO banco FROM cuentas_bancarias b WHERE b.empresa_id = NEW.empresa_id AND b.id = NEW.cuenta_bancaria_id AND NOT b.eliminado;
    IF banco.id IS NULL THEN
      PERFORM contabilidad_error('cuenta_bancaria_id', 'La cuenta bancaria seleccionada no existe en esta empresa.');
    ELSIF NOT banco.activo THEN
      PERFORM contabilidad_error('cuenta_bancaria_id', 'La cuenta bancaria seleccionada está inactiva.');
    END IF;
  END IF;
  NEW.caja_sesion_id := NULL;
  IF NEW.caja_id IS NOT NULL THEN
    SELECT * INTO caja FROM cajas c WHERE c.empresa_id = NEW.empresa_id AND c.id = NEW.caja_id AND NOT c.eliminado;
    IF caja.id IS NULL THEN
      PERFORM contabilidad_error('caja_id', 'La caja seleccionada no existe en esta empresa.');
    ELSIF NOT caja.activo THEN
      PERFORM contabilidad_error('caja_id', 'La caja seleccionada está inactiva.');
    END IF;
    SELECT s.id INTO NEW.caja_sesion_id FROM caja_sesiones s
      WHERE s.empresa_id = NEW.empresa_id AND s.caja_id = caja.id AND s.estado = 'abierta' FOR SHARE;
    IF NEW.caja_sesion_id IS NULL THEN
      PERFORM contabilidad_error('caja_id', format('La caja %s no tiene una sesión abierta; ábrala antes de registrar movimientos en ella.', caja.nombre));
    END IF;
    IF TG_TABLE_NAME = 'ventas' THEN
      IF NEW.sucursal_id IS NULL THEN
        NEW.sucursal_id := caja.sucursal_id;
      ELSIF NEW.sucursal_id <> caja.sucursal_id THEN
        PERFORM contabilidad_error('caja_id', 'La caja seleccionada no pertenece a la sucursal de la venta.');
      END IF;
    END IF;
  END IF;
  RETURN NEW;
END $$;
CREATE TRIGGER ventas_tesoreria BEFORE INSERT ON ventas FOR EACH ROW
  WHEN (NEW.cuenta_bancaria_id IS NOT NULL OR NEW.caja_id IS NOT NULL) EXECUTE FUNCTION tesoreria_medio();
CREATE TRIGGER pagos_tesoreria BEFORE INSERT ON pagos FOR EACH ROW
  WHEN (NEW.cuenta_bancaria_id IS NOT NULL OR NEW.caja_id IS NOT NULL) EXECUTE FUNCTION tesoreria_medio();

-- tesoreria_efectivo reports whether a payment method moves cash
-- (TipoMedioPago 01, or none given).
CREATE FUNCTION tesoreria_efectivo(p_forma_pago bigint) RETURNS boolean
LANGUAGE sql STABLE AS $$
  SELECT p_forma_pago IS NULL OR (SELECT codigo FROM formas_pago WHERE id = p_forma_pago) = '01'
$$;

-- tesoreria_cuenta_medio is the ledger account money comes into or goes out
-- of: the named bank account's, the named cash box's for cash, else what
-- contabilidad_cuenta_cobro chooses (cash or the banks account).
CREATE FUNCTION tesoreria_cuenta_medio(cfg contabilidad_configuracion, p_forma_pago bigint, p_cuenta_bancaria bigint, p_caja bigint)
RETURNS bigint LANGUAGE sql STABLE AS $$
  SELECT coalesce(
    (SELECT b.cuenta_contable_id FROM cuentas_bancarias b WHERE b.empresa_id = cfg.empresa_id AND b.id = p_cuenta_bancaria),
    (SELECT c.cuenta_contable_id FROM cajas c WHERE c.empresa_id = cfg.empresa_id AND c.id = p_caja AND tesoreria_efectivo(p_forma_pago)),
    contabilidad_cuenta_cobro(cfg, p_forma_pago))
$$;

-- The sale and payment postings of 0012, with the money account chosen by
-- tesoreria_cuenta_medio (the only change); still idempotent.
CREATE OR REPLACE FUNCTION contabilidad_sync_venta(p_venta bigint) RETURNS void
LANGUAGE plpgsql AS $$
DECLARE
  v ventas;
  cfg contabilidad_configuracion;
  existente bigint;
  total numeric(18,2);
  iva numeric(18,2);
  cobro bigint;
  lineas jsonb;
BEGIN
  SELECT * INTO v FROM ventas WHERE id = p_venta;
  SELECT * INTO cfg FROM contabilidad_configuracion WHERE empresa_id = v.empresa_id;
  IF v.id IS NULL OR cfg.empresa_id IS NULL THEN
    RETURN; -- no books for this company
  END IF;
  existente := contabilidad_posteado(v.empresa_id, 'venta', v.id);
  IF v.estado IN ('pendiente', 'pagada') AND NOT v.eliminado AND existente IS NULL THEN
    total := round(v.monto_total * v.tipo_cambio, 2);
    iva := round(v.monto_impuestos * v.tipo_cambio, 2);
    cobro := CASE WHEN v.condicion_venta = 'credito' THEN cfg.cuenta_cuentas_por_cobrar_id
      ELSE tesoreria_cuenta_medio(cfg, v.forma_pago_id, v.cuenta_bancaria_id, v.caja_id) END;
    IF v.tipo_comprobante = 'nota_credito' THEN
      lineas := jsonb_build_array(
        jsonb_build_object('cuenta_id', cfg.cuenta_devoluciones_ventas_id, 'debe', total - iva, 'sucursal_id', v.sucursal_id),
        jsonb_build_object('cuenta_id', cfg.cuenta_iva_por_pagar_id, 'debe', iva, 'sucursal_id', v.sucursal_id),
        jsonb_build_object('cuenta_id', cobro, 'haber', total, 'sucursal_id', v.sucursal_id));
    ELSE
      lineas := jsonb_build_array(
        jsonb_build_object('cuenta_id', cobro, 'debe', total, 'sucursal_id', v.sucursal_id),
        jsonb_build_object('cuenta_id', cfg.cuenta_ventas_id, 'haber', total - iva, 'sucursal_id', v.sucursal_id),
        jsonb_build_object('cuenta_id', cfg.cuenta_iva_por_pagar_id, 'haber', iva, 'sucursal_id', v.sucursal_id));
    END IF;
    PERFORM contabilidad_registrar(v.empresa_id, v.fecha_venta, 'Venta ' || v.numero_comprobante, 'venta', v.id, lineas,
      v.moneda, v.tipo_cambio, 'fecha_venta');
  ELSIF (v.estado = 'anulada' OR v.eliminado) AND existente IS NOT NULL
      AND (SELECT estado FROM asientos_contables WHERE id = existente) = 'contabilizado' THEN
    PERFORM contabilidad_reversar(existente, 'anulacion_venta', v.id, greatest(v.fecha_venta, contabilidad_hoy()));
  END IF;
END $$;

CREATE OR REPLACE FUNCTION contabilidad_sync_pago(p_pago bigint) RETURNS void
LANGUAGE plpgsql AS $$
DECLARE
  pg pagos;
  cfg contabilidad_configuracion;
  monto numeric(18,2);
  tc numeric(18,5) := 1;
  doc text;
BEGIN
  SELECT * INTO pg FROM pagos WHERE id = p_pago;
  SELECT * INTO cfg FROM contabilidad_configuracion WHERE empresa_id = pg.empresa_id;
  IF pg.id IS NULL OR cfg.empresa_id IS NULL OR pg.eliminado THEN
    RETURN;
  END IF;
  IF pg.cuenta_por_cobrar_id IS NOT NULL THEN
    IF contabilidad_posteado(pg.empresa_id, 'pago_cliente', pg.id) IS NOT NULL THEN RETURN; END IF;
    SELECT v.tipo_cambio, v.numero_comprobante INTO tc, doc FROM cuentas_por_cobrar c JOIN ventas v ON v.empresa_id = c.empresa_id AND v.id = c.venta_id
      WHERE c.empresa_id = pg.empresa_id AND c.id = pg.cuenta_por_cobrar_id;
    monto := round(pg.monto * coalesce(tc, 1), 2);
    PERFORM contabilidad_registrar(pg.empresa_id, pg.fecha, 'Cobro de ' || coalesce(doc, 'cuenta por cobrar'), 'pago_cliente', pg.id,
      jsonb_build_array(
        jsonb_build_object('cuenta_id', tesoreria_cuenta_medio(cfg, pg.forma_pago_id, pg.cuenta_bancaria_id, pg.caja_id), 'debe', monto),
        jsonb_build_object('cuenta_id', cfg.cuenta_cuentas_por_cobrar_id, 'haber', monto)));
  ELSE
    IF contabilidad_posteado(pg.empresa_id, 'pago_proveedor', pg.id) IS NOT NULL THEN RETURN; END IF;
    SELECT o.numero_orden INTO doc FROM cuentas_por_pagar c JOIN ordenes_compra o ON o.empresa_id = c.empresa_id AND o.id = c.orden_compra_id
      WHERE c.empresa_id = pg.empresa_id AND c.id = pg.cuenta_por_pagar_id;
    PERFORM contabilidad_registrar(pg.empresa_id, pg.fecha, 'Pago de ' || coalesce(doc, 'cuenta por pagar'), 'pago_proveedor', pg.id,
      jsonb_build_array(
        jsonb_build_object('cuenta_id', cfg.cuenta_cuentas_por_pagar_id, 'debe', pg.monto),
        jsonb_build_object('cuenta_id', tesoreria_cuenta_medio(cfg, pg.forma_pago_id, pg.cuenta_bancaria_id, pg.caja_id), 'haber', pg.monto)));
  END IF;
END $$;

-- tesoreria_saldo is the balance of a ledger account in its nature's sign
-- at a date (null: every date): the posted lines of the account and of the
-- accounts below it. A reversed entry and its reversal both count, so they
-- cancel out; drafts do not count.
CREATE FUNCTION tesoreria_saldo(p_empresa bigint, p_cuenta bigint, p_hasta date) RETURNS numeric
LANGUAGE sql STABLE AS $$
  SELECT coalesce(sum(CASE WHEN c.naturaleza = 'deudora' THEN l.debe - l.haber ELSE l.haber - l.debe END), 0)::numeric(18,2)
  FROM cuentas_contables c
  JOIN cuentas_contables k ON k.empresa_id = c.empresa_id AND (k.id = c.id OR k.codigo LIKE c.codigo || '.%')
  JOIN asiento_lineas l ON l.empresa_id = k.empresa_id AND l.cuenta_id = k.id
  JOIN asientos_contables a ON a.empresa_id = l.empresa_id AND a.id = l.asiento_id
  WHERE c.empresa_id = p_empresa AND c.id = p_cuenta AND a.estado IN ('contabilizado', 'anulado') AND NOT a.eliminado
    AND (p_hasta IS NULL OR a.fecha <= p_hasta)
$$;

-- tesoreria_cerrar_caja closes a box's open session: the expected cash is
-- the opening amount plus the session's cash sales (credit notes refunded
-- in cash subtract) and cash received on receivables, less cash paid to
-- suppliers, all in colones; the count's difference is a sobrante (Dr the
-- box's cash account, Cr cuenta_sobrante_caja_id) or a faltante (Dr
-- cuenta_faltante_caja_id, Cr the box's cash account), posted with origen
-- 'caja' on the closing day. The caller holds the session's row lock.
CREATE FUNCTION tesoreria_cerrar_caja(p_empresa bigint, p_sesion bigint, p_contado numeric, p_usuario bigint, p_observaciones text)
RETURNS void LANGUAGE plpgsql AS $$
DECLARE
  s caja_sesiones;
  caja cajas;
  cfg contabilidad_configuracion;
  ventas_ef numeric(18,2);
  cobros_ef numeric(18,2);
  pagos_ef numeric(18,2);
  esperado numeric(18,2);
  dif numeric(18,2);
  asiento bigint;
  hoy date := contabilidad_hoy();
BEGIN
  SELECT * INTO s FROM caja_sesiones WHERE empresa_id = p_empresa AND id = p_sesion;
  SELECT * INTO caja FROM cajas WHERE empresa_id = p_empresa AND id = s.caja_id;
  SELECT * INTO cfg FROM contabilidad_configuracion WHERE empresa_id = p_empresa;
  SELECT coalesce(sum(CASE WHEN v.tipo_comprobante = 'nota_credito' THEN -1 ELSE 1 END * round(v.monto_total * v.tipo_cambio, 2)), 0)
    INTO ventas_ef FROM ventas v
    WHERE v.empresa_id = p_empresa AND v.caja_sesion_id = s.id AND NOT v.eliminado AND v.estado IN ('pendiente', 'pagada')
      AND v.condicion_venta = 'contado' AND tesoreria_efectivo(v.forma_pago_id);
  SELECT coalesce(sum(round(pg.monto * coalesce(v.tipo_cambio, 1), 2)), 0) INTO cobros_ef
    FROM pagos pg
    JOIN cuentas_por_cobrar c ON c.empresa_id = pg.empresa_id AND c.id = pg.cuenta_por_cobrar_id
    LEFT JOIN ventas v ON v.empresa_id = c.empresa_id AND v.id = c.venta_id
    WHERE pg.empresa_id = p_empresa AND pg.caja_sesion_id = s.id AND NOT pg.eliminado AND tesoreria_efectivo(pg.forma_pago_id);
  SELECT coalesce(sum(pg.monto), 0) INTO pagos_ef FROM pagos pg
    WHERE pg.empresa_id = p_empresa AND pg.caja_sesion_id = s.id AND pg.cuenta_por_pagar_id IS NOT NULL AND NOT pg.eliminado
      AND tesoreria_efectivo(pg.forma_pago_id);
  esperado := s.monto_inicial + ventas_ef + cobros_ef - pagos_ef;
  dif := p_contado - esperado;
  IF dif > 0 THEN
    asiento := contabilidad_registrar(p_empresa, hoy, format('Cierre de caja %s: sobrante', caja.nombre), 'caja', s.id,
      jsonb_build_array(
        jsonb_build_object('cuenta_id', caja.cuenta_contable_id, 'debe', dif, 'sucursal_id', caja.sucursal_id),
        jsonb_build_object('cuenta_id', cfg.cuenta_sobrante_caja_id, 'haber', dif, 'sucursal_id', caja.sucursal_id)),
      'CRC', 1, 'monto_contado');
  ELSIF dif < 0 THEN
    asiento := contabilidad_registrar(p_empresa, hoy, format('Cierre de caja %s: faltante', caja.nombre), 'caja', s.id,
      jsonb_build_array(
        jsonb_build_object('cuenta_id', cfg.cuenta_faltante_caja_id, 'debe', -dif, 'sucursal_id', caja.sucursal_id),
        jsonb_build_object('cuenta_id', caja.cuenta_contable_id, 'haber', -dif, 'sucursal_id', caja.sucursal_id)),
      'CRC', 1, 'monto_contado');
  END IF;
  UPDATE caja_sesiones SET estado = 'cerrada', ventas_efectivo = ventas_ef, cobros_efectivo = cobros_ef, pagos_efectivo = pagos_ef,
      monto_esperado = esperado, monto_contado = p_contado, diferencia = dif,
      resultado = CASE WHEN dif > 0 THEN 'sobrante' WHEN dif < 0 THEN 'faltante' ELSE 'cuadrada' END,
      asiento_id = asiento, cerrada_en = now(), cerrada_por = nullif(p_usuario, 0),
      observaciones = coalesce(p_observaciones, observaciones)
    WHERE empresa_id = p_empresa AND id = s.id;
END $$;

-- ---- permissions of the new modules for the companies that exist ----------

-- tesoreria_conceder_permisos adds the permissions of the treasury modules
-- (cuentas_bancarias, cajas, presupuestos) to the catalog and to the
-- predefined roles that hold them in auth.PredefinedRoles (Administrador,
-- Gerente: every action; Contador: every action) of every existing company:
-- seed.Catalogs runs after the migrations and usuarios.EnsurePredefinedRoles
-- only for new and demo companies. The migration runs it once; it only
-- adds, so a company's later changes to its roles are not undone by a
-- deploy.
CREATE FUNCTION tesoreria_conceder_permisos() RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO permisos (slug, modulo, accion, descripcion)
  SELECT m.modulo || '.' || a.accion, m.modulo, a.accion, a.verbo || ' ' || m.nombre
  FROM (VALUES ('cuentas_bancarias', 'cuentas bancarias'), ('cajas', 'cajas'), ('presupuestos', 'presupuestos')) AS m(modulo, nombre),
       (VALUES ('crear', 'Crear'), ('leer', 'Ver'), ('actualizar', 'Editar'), ('eliminar', 'Eliminar')) AS a(accion, verbo)
  ON CONFLICT (slug) DO NOTHING;
  INSERT INTO rol_permisos (empresa_id, rol_id, permiso_id)
  SELECT r.empresa_id, r.id, p.id
  FROM roles r JOIN permisos p ON p.modulo IN ('cuentas_bancarias', 'cajas', 'presupuestos')
  WHERE r.predefinido AND NOT r.eliminado AND r.slug IN ('administrador', 'gerente', 'contador')
  ON CONFLICT DO NOTHING;
END $$;
SELECT tesoreria_conceder_permisos();
REVOKE ALL ON FUNCTION tesoreria_conceder_permisos() FROM PUBLIC;
