-- 0012: accounting (issue 13): the chart of accounts, journal entries,
-- periods, the per-company posting configuration, exchange rates, and the
-- automatic posting of every business write in its own transaction.
--
-- Posting lives in the database on purpose: deferred constraint triggers
-- on ventas, movimientos_inventario and pagos post (or reverse) the entries
-- at COMMIT, when the whole business write is in place (a sale's stock exit
-- is written after the sale row), in the same transaction, whatever code
-- path wrote the rows, and without a single extra round trip. The rules a
-- caller can break raise SQLSTATE P0001 with HINT 'erp:422' and the field
-- key in DETAIL, which the API answers as a 422 (httpx.WriteError).

CREATE TABLE cuentas_contables (
  id                 bigserial PRIMARY KEY,
  empresa_id         bigint NOT NULL REFERENCES empresas(id),
  codigo             varchar(30) NOT NULL CHECK (codigo ~ '^[0-9]+(\.[0-9]+)*$'),
  nombre             varchar(255) NOT NULL,
  tipo               varchar(20) NOT NULL CHECK (tipo IN ('activo', 'pasivo', 'patrimonio', 'ingreso', 'costo', 'gasto')),
  naturaleza         varchar(10) NOT NULL CHECK (naturaleza IN ('deudora', 'acreedora')),
  padre_id           bigint,
  nivel              integer NOT NULL CHECK (nivel BETWEEN 1 AND 10),
  acepta_movimientos boolean NOT NULL DEFAULT true,
  moneda             varchar(3) NOT NULL DEFAULT 'CRC' CHECK (moneda IN ('CRC', 'USD')),
  descripcion        varchar(1000),
  activo             boolean NOT NULL DEFAULT true,
  eliminado          boolean NOT NULL DEFAULT false,
  creado_en          timestamptz NOT NULL DEFAULT now(),
  actualizado_en     timestamptz NOT NULL DEFAULT now(),
  UNIQUE (empresa_id, id),
  FOREIGN KEY (empresa_id, padre_id) REFERENCES cuentas_contables (empresa_id, id)
);
CREATE UNIQUE INDEX cuentas_contables_codigo ON cuentas_contables (empresa_id, codigo) WHERE NOT eliminado;
CREATE INDEX cuentas_contables_padre ON cuentas_contables (empresa_id, padre_id);

-- A month of a company's books; a missing row is an open month.
CREATE TABLE periodos_contables (
  empresa_id   bigint NOT NULL REFERENCES empresas(id),
  anio         integer NOT NULL CHECK (anio BETWEEN 1900 AND 2999),
  mes          integer NOT NULL CHECK (mes BETWEEN 1 AND 12),
  estado       varchar(10) NOT NULL DEFAULT 'abierto' CHECK (estado IN ('abierto', 'cerrado')),
  cerrado_en   timestamptz,
  cerrado_por  bigint REFERENCES usuarios(id),
  reabierto_en timestamptz,
  creado_en    timestamptz NOT NULL DEFAULT now(),
  actualizado_en timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (empresa_id, anio, mes)
);

CREATE TABLE asientos_contables (
  id              bigserial PRIMARY KEY,
  empresa_id      bigint NOT NULL REFERENCES empresas(id),
  -- AS-<year>-<6 digits>, gapless per company and year, given when posted.
  numero          varchar(20),
  fecha           date NOT NULL,
  descripcion     varchar(1000) NOT NULL,
  origen          varchar(20) NOT NULL CHECK (origen IN ('manual', 'venta', 'anulacion_venta', 'compra', 'pago_cliente',
                    'pago_proveedor', 'inventario', 'planilla', 'cierre', 'caja', 'anulacion')),
  origen_id       bigint,
  estado          varchar(15) NOT NULL DEFAULT 'borrador' CHECK (estado IN ('borrador', 'contabilizado', 'anulado')),
  moneda          varchar(3) NOT NULL DEFAULT 'CRC' CHECK (moneda IN ('CRC', 'USD')),
  tipo_cambio     numeric(18,5) NOT NULL DEFAULT 1 CHECK (tipo_cambio > 0),
  total_debe      numeric(18,2) NOT NULL DEFAULT 0,
  total_haber     numeric(18,2) NOT NULL DEFAULT 0,
  -- The entry this one reverses (an anulación), and the one reversing it.
  reversa_de_id   bigint,
  reversado_por_id bigint,
  usuario_id      bigint REFERENCES usuarios(id),
  contabilizado_en timestamptz,
  anulado_en      timestamptz,
  eliminado       boolean NOT NULL DEFAULT false,
  creado_en       timestamptz NOT NULL DEFAULT now(),
  actualizado_en  timestamptz NOT NULL DEFAULT now(),
  UNIQUE (empresa_id, id),
  UNIQUE (empresa_id, numero),
  CHECK (estado = 'borrador' OR (numero IS NOT NULL AND total_debe = total_haber))
);
CREATE INDEX asientos_contables_fecha ON asientos_contables (empresa_id, fecha, id) WHERE NOT eliminado;
CREATE INDEX asientos_contables_origen ON asientos_contables (empresa_id, origen, origen_id) WHERE origen_id IS NOT NULL;

CREATE TABLE asiento_lineas (
  id           bigserial PRIMARY KEY,
  empresa_id   bigint NOT NULL REFERENCES empresas(id),
  asiento_id   bigint NOT NULL,
  linea        integer NOT NULL,
  cuenta_id    bigint NOT NULL,
  debe         numeric(18,2) NOT NULL DEFAULT 0 CHECK (debe >= 0),
  haber        numeric(18,2) NOT NULL DEFAULT 0 CHECK (haber >= 0),
  descripcion  varchar(1000),
  sucursal_id  bigint,
  creado_en    timestamptz NOT NULL DEFAULT now(),
  UNIQUE (empresa_id, asiento_id, linea),
  CHECK ((debe > 0) <> (haber > 0)),
  FOREIGN KEY (empresa_id, asiento_id) REFERENCES asientos_contables (empresa_id, id),
  FOREIGN KEY (empresa_id, cuenta_id) REFERENCES cuentas_contables (empresa_id, id),
  FOREIGN KEY (empresa_id, sucursal_id) REFERENCES sucursales (empresa_id, id)
);
CREATE INDEX asiento_lineas_cuenta ON asiento_lineas (empresa_id, cuenta_id, asiento_id);

-- Which account each automatic posting uses (GET/PUT /api/contabilidad/configuracion).
CREATE TABLE contabilidad_configuracion (
  empresa_id                   bigint PRIMARY KEY REFERENCES empresas(id),
  cuenta_caja_id               bigint NOT NULL,
  cuenta_bancos_id             bigint NOT NULL,
  cuenta_cuentas_por_cobrar_id bigint NOT NULL,
  cuenta_inventario_id         bigint NOT NULL,
  cuenta_iva_acreditable_id    bigint NOT NULL,
  cuenta_cuentas_por_pagar_id  bigint NOT NULL,
  cuenta_iva_por_pagar_id      bigint NOT NULL,
  cuenta_ventas_id             bigint NOT NULL,
  cuenta_devoluciones_ventas_id bigint NOT NULL,
  cuenta_costo_ventas_id       bigint NOT NULL,
  cuenta_ajuste_inventario_ingreso_id bigint NOT NULL,
  cuenta_ajuste_inventario_gasto_id   bigint NOT NULL,
  cuenta_consumo_interno_id    bigint NOT NULL,
  cuenta_sobrante_caja_id      bigint NOT NULL,
  cuenta_faltante_caja_id      bigint NOT NULL,
  cuenta_salarios_id           bigint NOT NULL,
  cuenta_cargas_sociales_id    bigint NOT NULL,
  cuenta_salarios_por_pagar_id bigint NOT NULL,
  cuenta_ccss_por_pagar_id     bigint NOT NULL,
  cuenta_retenciones_id        bigint NOT NULL,
  cuenta_aguinaldo_gasto_id    bigint NOT NULL,
  cuenta_aguinaldo_provision_id bigint NOT NULL,
  cuenta_vacaciones_gasto_id   bigint NOT NULL,
  cuenta_vacaciones_provision_id bigint NOT NULL,
  cuenta_utilidades_retenidas_id bigint NOT NULL,
  cuenta_resultado_periodo_id  bigint NOT NULL,
  actualizado_en               timestamptz NOT NULL DEFAULT now()
);

-- Official reference rates (BCCR) entered per date; an entry in USD uses
-- the rate of its date.
CREATE TABLE tipos_cambio (
  id          bigserial PRIMARY KEY,
  empresa_id  bigint NOT NULL REFERENCES empresas(id),
  fecha       date NOT NULL,
  moneda      varchar(3) NOT NULL DEFAULT 'USD' CHECK (moneda IN ('USD')),
  compra      numeric(18,5) NOT NULL CHECK (compra > 0),
  venta       numeric(18,5) NOT NULL CHECK (venta > 0),
  fuente      varchar(255) NOT NULL DEFAULT 'Banco Central de Costa Rica, tipo de cambio de referencia',
  activo      boolean NOT NULL DEFAULT true,
  eliminado   boolean NOT NULL DEFAULT false,
  creado_en   timestamptz NOT NULL DEFAULT now(),
  actualizado_en timestamptz NOT NULL DEFAULT now(),
  UNIQUE (empresa_id, id)
);
CREATE UNIQUE INDEX tipos_cambio_fecha ON tipos_cambio (empresa_id, moneda, fecha) WHERE NOT eliminado;

DO $$
DECLARE t text;
BEGIN
  FOREACH t IN ARRAY ARRAY['cuentas_contables', 'periodos_contables', 'asientos_contables', 'asiento_lineas',
      'contabilidad_configuracion', 'tipos_cambio'] LOOP
    EXECUTE format('ALTER TABLE %I ENABLE ROW LEVEL SECURITY', t);
    EXECUTE format('CREATE POLICY %I ON %I USING (empresa_id = app_empresa_id()) WITH CHECK (empresa_id = app_empresa_id())', t || '_tenant', t);
    EXECUTE format('GRANT SELECT, INSERT, UPDATE ON %I TO erp_app', t);
  END LOOP;
  FOREACH t IN ARRAY ARRAY['cuentas_contables', 'asientos_contables', 'asiento_lineas', 'tipos_cambio'] LOOP
    EXECUTE format('GRANT USAGE ON SEQUENCE %I TO erp_app', t || '_id_seq');
  END LOOP;
END $$;
-- A draft entry's lines are replaced when the draft is edited.
GRANT DELETE ON asiento_lineas TO erp_app;
CREATE TRIGGER cuentas_contables_actualizado_en BEFORE UPDATE ON cuentas_contables FOR EACH ROW EXECUTE FUNCTION tocar_actualizado_en();
CREATE TRIGGER periodos_contables_actualizado_en BEFORE UPDATE ON periodos_contables FOR EACH ROW EXECUTE FUNCTION tocar_actualizado_en();
CREATE TRIGGER asientos_contables_actualizado_en BEFORE UPDATE ON asientos_contables FOR EACH ROW EXECUTE FUNCTION tocar_actualizado_en();
CREATE TRIGGER contabilidad_configuracion_actualizado_en BEFORE UPDATE ON contabilidad_configuracion FOR EACH ROW EXECUTE FUNCTION tocar_actualizado_en();
CREATE TRIGGER tipos_cambio_actualizado_en BEFORE UPDATE ON tipos_cambio FOR EACH ROW EXECUTE FUNCTION tocar_actualizado_en();

-- contabilidad_cuenta is the id of a company's account by code.
CREATE FUNCTION contabilidad_cuenta(p_empresa bigint, p_codigo text) RETURNS bigint
LANGUAGE sql STABLE AS $$
  SELECT id FROM cuentas_contables WHERE empresa_id = p_empresa AND codigo = p_codigo AND NOT eliminado
$$;

-- contabilidad_sembrar gives a company the chart of accounts of a Costa
-- Rican PYME under NIIF para PYMES (sections 2-4: assets, liabilities and
-- equity; 23 and 13: revenue and cost; 28: employee benefits -- aguinaldo
-- (Ley 2412), vacaciones (Código de Trabajo art. 153), CCSS charges) and
-- the posting configuration pointing at it. Idempotent: accounts whose
-- code exists are kept, so a company's own changes survive.
CREATE FUNCTION contabilidad_sembrar(p_empresa bigint) RETURNS void
LANGUAGE plpgsql AS $$
DECLARE
  r record;
BEGIN
  FOR r IN SELECT * FROM (VALUES
    ('1', 'Activo', 'activo'),
    ('1.1', 'Activo corriente', 'activo'),
    ('1.1.01', 'Efectivo y equivalentes de efectivo', 'activo'),
    ('1.1.01.001', 'Caja general', 'activo'),
    ('1.1.01.002', 'Caja chica', 'activo'),
    ('1.1.02', 'Bancos', 'activo'),
    ('1.1.02.001', 'Banco cuenta principal', 'activo'),
    ('1.1.03', 'Cuentas por cobrar', 'activo'),
    ('1.1.03.001', 'Cuentas por cobrar clientes', 'activo'),
    ('1.1.04', 'Inventarios', 'activo'),
    ('1.1.04.001', 'Inventario de mercadería', 'activo'),
    ('1.1.05', 'Impuestos por recuperar', 'activo'),
    ('1.1.05.001', 'IVA acreditable', 'activo'),
    ('1.2', 'Activo no corriente', 'activo'),
    ('1.2.01', 'Propiedad, planta y equipo', 'activo'),
    ('1.2.01.001', 'Mobiliario y equipo de oficina', 'activo'),
    ('1.2.01.002', 'Equipo de cómputo', 'activo'),
    ('1.2.01.003', 'Vehículos', 'activo'),
    ('1.2.01.900', 'Depreciación acumulada', 'activo'),
    ('2', 'Pasivo', 'pasivo'),
    ('2.1', 'Pasivo corriente', 'pasivo'),
    ('2.1.01', 'Cuentas por pagar', 'pasivo'),
    ('2.1.01.001', 'Proveedores', 'pasivo'),
    ('2.1.02', 'Impuestos por pagar', 'pasivo'),
    ('2.1.02.001', 'IVA por pagar', 'pasivo'),
    ('2.1.02.002', 'Retenciones de impuesto sobre la renta por pagar', 'pasivo'),
    ('2.1.03', 'Obligaciones laborales', 'pasivo'),
    ('2.1.03.001', 'Salarios por pagar', 'pasivo'),
    ('2.1.03.002', 'CCSS por pagar', 'pasivo'),
    ('2.1.03.003', 'Provisión de aguinaldo', 'pasivo'),
    ('2.1.03.004', 'Provisión de vacaciones', 'pasivo'),
    ('3', 'Patrimonio', 'patrimonio'),
    ('3.1', 'Capital', 'patrimonio'),
    ('3.1.01', 'Capital social', 'patrimonio'),
    ('3.1.01.001', 'Capital social pagado', 'patrimonio'),
    ('3.2', 'Resultados', 'patrimonio'),
    ('3.2.01', 'Resultados acumulados', 'patrimonio'),
    ('3.2.01.001', 'Utilidades retenidas', 'patrimonio'),
    ('3.2.01.002', 'Utilidad o pérdida del período', 'patrimonio'),
    ('4', 'Ingresos', 'ingreso'),
    ('4.1', 'Ingresos de operación', 'ingreso'),
    ('4.1.01', 'Ventas', 'ingreso'),
    ('4.1.01.001', 'Ventas de mercadería y servicios', 'ingreso'),
    ('4.1.01.002', 'Devoluciones y descuentos sobre ventas', 'ingreso'),
    ('4.2', 'Otros ingresos', 'ingreso'),
    ('4.2.01', 'Otros ingresos', 'ingreso'),
    ('4.2.01.001', 'Sobrantes de caja', 'ingreso'),
    ('4.2.01.002', 'Sobrantes de inventario', 'ingreso'),
    ('5', 'Costos', 'costo'),
    ('5.1', 'Costo de ventas', 'costo'),
    ('5.1.01', 'Costo de ventas', 'costo'),
    ('5.1.01.001', 'Costo de mercadería vendida', 'costo'),
    ('6', 'Gastos', 'gasto'),
    ('6.1', 'Gastos de personal', 'gasto'),
    ('6.1.01', 'Remuneraciones', 'gasto'),
    ('6.1.01.001', 'Salarios', 'gasto'),
    ('6.1.01.002', 'Cargas sociales patronales', 'gasto'),
    ('6.1.01.003', 'Aguinaldo', 'gasto'),
    ('6.1.01.004', 'Vacaciones', 'gasto'),
    ('6.2', 'Gastos generales y administrativos', 'gasto'),
    ('6.2.01', 'Gastos generales', 'gasto'),
    ('6.2.01.001', 'Alquileres', 'gasto'),
    ('6.2.01.002', 'Servicios públicos', 'gasto'),
    ('6.2.01.003', 'Consumo interno de inventario', 'gasto'),
    ('6.2.01.004', 'Faltantes de caja', 'gasto'),
    ('6.2.01.005', 'Pérdidas por ajustes de inventario', 'gasto'),
    ('6.2.01.006', 'Depreciación', 'gasto'),
    ('6.2.01.099', 'Otros gastos generales', 'gasto')
  ) AS x(codigo, nombre, tipo) ORDER BY codigo LOOP
    INSERT INTO cuentas_contables (empresa_id, codigo, nombre, tipo, naturaleza, padre_id, nivel, acepta_movimientos)
    SELECT p_empresa, r.codigo, r.nombre, r.tipo,
      CASE WHEN r.tipo IN ('activo', 'costo', 'gasto') <> (r.codigo IN ('1.2.01.900', '4.1.01.002')) THEN 'deudora' ELSE 'acreedora' END,
      (SELECT c.id FROM cuentas_contables c WHERE c.empresa_id = p_empresa AND NOT c.eliminado
        AND c.codigo = regexp_replace(r.codigo, '\.[0-9]+$', '') AND r.codigo LIKE '%.%'),
      array_length(string_to_array(r.codigo, '.'), 1),
      array_length(string_to_array(r.codigo, '.'), 1) = 4
    WHERE NOT EXISTS (SELECT 1 FROM cuentas_contables c WHERE c.empresa_id = p_empresa AND c.codigo = r.codigo AND NOT c.eliminado);
  END LOOP;
  INSERT INTO contabilidad_configuracion (empresa_id, cuenta_caja_id, cuenta_bancos_id, cuenta_cuentas_por_cobrar_id,
      cuenta_inventario_id, cuenta_iva_acreditable_id, cuenta_cuentas_por_pagar_id, cuenta_iva_por_pagar_id, cuenta_ventas_id,
      cuenta_devoluciones_ventas_id, cuenta_costo_ventas_id, cuenta_ajuste_inventario_ingreso_id, cuenta_ajuste_inventario_gasto_id,
      cuenta_consumo_interno_id, cuenta_sobrante_caja_id, cuenta_faltante_caja_id, cuenta_salarios_id, cuenta_cargas_sociales_id,
      cuenta_salarios_por_pagar_id, cuenta_ccss_por_pagar_id, cuenta_retenciones_id, cuenta_aguinaldo_gasto_id,
      cuenta_aguinaldo_provision_id, cuenta_vacaciones_gasto_id, cuenta_vacaciones_provision_id, cuenta_utilidades_retenidas_id,
      cuenta_resultado_periodo_id)
  SELECT p_empresa,
    contabilidad_cuenta(p_empresa, '1.1.01.001'),
    contabilidad_cuenta(p_empresa, '1.1.02.001'),
    contabilidad_cuenta(p_empresa, '1.1.03.001'),
    contabilidad_cuenta(p_empresa, '1.1.04.001'),
    contabilidad_cuenta(p_empresa, '1.1.05.001'),
    contabilidad_cuenta(p_empresa, '2.1.01.001'),
    contabilidad_cuenta(p_empresa, '2.1.02.001'),
    contabilidad_cuenta(p_empresa, '4.1.01.001'),
    contabilidad_cuenta(p_empresa, '4.1.01.002'),
    contabilidad_cuenta(p_empresa, '5.1.01.001'),
    contabilidad_cuenta(p_empresa, '4.2.01.002'),
    contabilidad_cuenta(p_empresa, '6.2.01.005'),
    contabilidad_cuenta(p_empresa, '6.2.01.003'),
    contabilidad_cuenta(p_empresa, '4.2.01.001'),
    contabilidad_cuenta(p_empresa, '6.2.01.004'),
    contabilidad_cuenta(p_empresa, '6.1.01.001'),
    contabilidad_cuenta(p_empresa, '6.1.01.002'),
    contabilidad_cuenta(p_empresa, '2.1.03.001'),
    contabilidad_cuenta(p_empresa, '2.1.03.002'),
    contabilidad_cuenta(p_empresa, '2.1.02.002'),
    contabilidad_cuenta(p_empresa, '6.1.01.003'),
    contabilidad_cuenta(p_empresa, '2.1.03.003'),
    contabilidad_cuenta(p_empresa, '6.1.01.004'),
    contabilidad_cuenta(p_empresa, '2.1.03.004'),
    contabilidad_cuenta(p_empresa, '3.2.01.001'),
    contabilidad_cuenta(p_empresa, '3.2.01.002')
  ON CONFLICT (empresa_id) DO NOTHING;
END $$;


-- ---- posting ---------------------------------------------------------------

-- contabilidad_error raises a rule a caller broke: the API answers 422 with
-- p_mensaje under the key p_campo (HINT 'erp:422' marks it).
CREATE FUNCTION contabilidad_error(p_campo text, p_mensaje text) RETURNS void
LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION USING MESSAGE = p_mensaje, DETAIL = p_campo, HINT = 'erp:422';
END $$;

-- contabilidad_hoy is today in Costa Rica (the books' calendar).
CREATE FUNCTION contabilidad_hoy() RETURNS date
LANGUAGE sql STABLE AS $$ SELECT (now() AT TIME ZONE 'America/Costa_Rica')::date $$;

-- contabilidad_verificar_periodo refuses a date in a closed month.
CREATE FUNCTION contabilidad_verificar_periodo(p_empresa bigint, p_fecha date, p_campo text) RETURNS void
LANGUAGE plpgsql STABLE AS $$
BEGIN
  IF EXISTS (SELECT 1 FROM periodos_contables WHERE empresa_id = p_empresa AND anio = extract(year FROM p_fecha)
      AND mes = extract(month FROM p_fecha) AND estado = 'cerrado') THEN
    PERFORM contabilidad_error(p_campo, format('El período contable %s está cerrado; no se puede contabilizar en él.',
      to_char(p_fecha, 'YYYY-MM')));
  END IF;
END $$;

-- contabilidad_contabilizar posts an entry: its lines must be at least two,
-- each a debit or a credit on an active leaf account of the company, and
-- balance; its month must be open. It gets the next number of its year
-- (the counter row is updated in this transaction: a rollback gives the
-- number back, so numbers have no gaps).
CREATE FUNCTION contabilidad_contabilizar(p_asiento bigint, p_campo_fecha text DEFAULT 'fecha') RETURNS void
LANGUAGE plpgsql AS $$
DECLARE
  a asientos_contables;
  l record;
  n integer := 0;
  debe numeric(18,2);
  haber numeric(18,2);
  k bigint;
BEGIN
  SELECT * INTO a FROM asientos_contables WHERE id = p_asiento FOR UPDATE;
  IF a.estado <> 'borrador' THEN
    PERFORM contabilidad_error('estado', 'Solo un asiento en borrador se puede contabilizar.');
  END IF;
  FOR l IN SELECT al.linea, c.id AS cuenta, c.activo, c.acepta_movimientos, c.eliminado
      FROM asiento_lineas al LEFT JOIN cuentas_contables c ON c.empresa_id = al.empresa_id AND c.id = al.cuenta_id
      WHERE al.empresa_id = a.empresa_id AND al.asiento_id = a.id ORDER BY al.linea LOOP
    n := n + 1;
    IF l.cuenta IS NULL OR l.eliminado OR NOT l.activo THEN
      PERFORM contabilidad_error(format('lineas.%s.cuenta_id', l.linea - 1), 'La cuenta contable no existe o está inactiva.');
    ELSIF NOT l.acepta_movimientos THEN
      PERFORM contabilidad_error(format('lineas.%s.cuenta_id', l.linea - 1),
        'La cuenta contable es de agrupación: solo las cuentas de detalle aceptan movimientos.');
    END IF;
  END LOOP;
  IF n < 2 THEN
    PERFORM contabilidad_error('lineas', 'Un asiento necesita al menos dos líneas.');
  END IF;
  SELECT sum(al.debe), sum(al.haber) INTO debe, haber FROM asiento_lineas al WHERE al.empresa_id = a.empresa_id AND al.asiento_id = a.id;
  IF debe <> haber THEN
    PERFORM contabilidad_error('lineas', format('El asiento no cuadra: el debe suma %s y el haber %s.', debe, haber));
  END IF;
  PERFORM contabilidad_verificar_periodo(a.empresa_id, a.fecha, p_campo_fecha);
  INSERT INTO contadores (empresa_id, clave, valor) VALUES (a.empresa_id, 'asientos:' || extract(year FROM a.fecha), 1)
    ON CONFLICT (empresa_id, clave) DO UPDATE SET valor = contadores.valor + 1, actualizado_en = now()
    RETURNING valor INTO k;
  UPDATE asientos_contables SET estado = 'contabilizado', contabilizado_en = now(), total_debe = debe, total_haber = haber,
      numero = format('AS-%s-%s', extract(year FROM a.fecha), lpad(k::text, 6, '0'))
    WHERE id = a.id;
END $$;

-- contabilidad_registrar creates and posts an entry of the company from
-- p_lineas, a JSON array of {cuenta_id, debe, haber, descripcion?,
-- sucursal_id?}; lines of zero are left out, and nothing is posted (null)
-- when no line is left.
CREATE FUNCTION contabilidad_registrar(p_empresa bigint, p_fecha date, p_descripcion text, p_origen text, p_origen_id bigint,
    p_lineas jsonb, p_moneda text DEFAULT 'CRC', p_tipo_cambio numeric DEFAULT 1, p_campo_fecha text DEFAULT 'fecha')
RETURNS bigint
LANGUAGE plpgsql AS $$
DECLARE
  v_id bigint;
BEGIN
  IF NOT EXISTS (SELECT 1 FROM jsonb_array_elements(p_lineas) x
      WHERE coalesce((x->>'debe')::numeric, 0) > 0 OR coalesce((x->>'haber')::numeric, 0) > 0) THEN
    RETURN NULL;
  END IF;
  INSERT INTO asientos_contables (empresa_id, fecha, descripcion, origen, origen_id, moneda, tipo_cambio, usuario_id)
    VALUES (p_empresa, p_fecha, left(p_descripcion, 1000), p_origen, p_origen_id, p_moneda, p_tipo_cambio, nullif(app_usuario_id(), 0))
    RETURNING asientos_contables.id INTO v_id;
  INSERT INTO asiento_lineas (empresa_id, asiento_id, linea, cuenta_id, debe, haber, descripcion, sucursal_id)
  SELECT p_empresa, v_id, row_number() OVER (ORDER BY x.n), (x.v->>'cuenta_id')::bigint,
      round(coalesce((x.v->>'debe')::numeric, 0), 2), round(coalesce((x.v->>'haber')::numeric, 0), 2),
      x.v->>'descripcion', (x.v->>'sucursal_id')::bigint
    FROM jsonb_array_elements(p_lineas) WITH ORDINALITY AS x(v, n)
    WHERE round(coalesce((x.v->>'debe')::numeric, 0), 2) > 0 OR round(coalesce((x.v->>'haber')::numeric, 0), 2) > 0;
  PERFORM contabilidad_contabilizar(v_id, p_campo_fecha);
  RETURN v_id;
END $$;

-- contabilidad_reversar posts the reversing entry of a posted one (each
-- debit a credit and back) on p_fecha, and marks the original anulado: a
-- posted entry is never edited or deleted.
CREATE FUNCTION contabilidad_reversar(p_asiento bigint, p_origen text, p_origen_id bigint, p_fecha date,
    p_campo_fecha text DEFAULT 'fecha') RETURNS bigint
LANGUAGE plpgsql AS $$
DECLARE
  a asientos_contables;
  v_id bigint;
BEGIN
  SELECT * INTO a FROM asientos_contables WHERE asientos_contables.id = p_asiento FOR UPDATE;
  IF a.estado <> 'contabilizado' OR a.reversado_por_id IS NOT NULL THEN
    PERFORM contabilidad_error('estado', 'Solo un asiento contabilizado y no anulado se puede anular.');
  END IF;
  v_id := contabilidad_registrar(a.empresa_id, p_fecha, 'Anulación de ' || a.numero || ': ' || a.descripcion, p_origen, p_origen_id,
    (SELECT jsonb_agg(jsonb_build_object('cuenta_id', l.cuenta_id, 'debe', l.haber, 'haber', l.debe,
        'descripcion', l.descripcion, 'sucursal_id', l.sucursal_id) ORDER BY l.linea)
      FROM asiento_lineas l WHERE l.empresa_id = a.empresa_id AND l.asiento_id = a.id),
    a.moneda, a.tipo_cambio, p_campo_fecha);
  UPDATE asientos_contables SET reversa_de_id = a.id WHERE asientos_contables.id = v_id;
  UPDATE asientos_contables SET estado = 'anulado', anulado_en = now(), reversado_por_id = v_id WHERE asientos_contables.id = a.id;
  RETURN v_id;
END $$;

-- contabilidad_posteado is the posted, not reversed entry of an origin.
CREATE FUNCTION contabilidad_posteado(p_empresa bigint, p_origen text, p_origen_id bigint) RETURNS bigint
LANGUAGE sql STABLE AS $$
  SELECT id FROM asientos_contables WHERE empresa_id = p_empresa AND origen = p_origen AND origen_id = p_origen_id
    AND NOT eliminado AND estado IN ('contabilizado', 'anulado') ORDER BY id DESC LIMIT 1
$$;

-- contabilidad_cuenta_cobro is where money comes in or goes out: cash for
-- cash payments (TipoMedioPago 01 or none), else the bank.
CREATE FUNCTION contabilidad_cuenta_cobro(cfg contabilidad_configuracion, p_forma_pago bigint) RETURNS bigint
LANGUAGE sql STABLE AS $$
  SELECT CASE WHEN p_forma_pago IS NULL OR (SELECT codigo FROM formas_pago WHERE id = p_forma_pago) = '01'
    THEN cfg.cuenta_caja_id ELSE cfg.cuenta_bancos_id END
$$;

-- contabilidad_sync_venta keeps a sale's books in step with its state: a
-- confirmed sale (pendiente, pagada) is posted once -- Dr receivable
-- (credit) or cash/bank (cash) for the total, Cr sales for subtotal less
-- discounts, Cr IVA por pagar for the taxes (a credit note the other way
-- round, against returns); an anulada one gets its entry reversed. Amounts
-- are in colones at the sale's exchange rate. The cost of goods is posted
-- by the sale's stock exit (contabilidad_sync_movimiento).
CREATE FUNCTION contabilidad_sync_venta(p_venta bigint) RETURNS void
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
      ELSE contabilidad_cuenta_cobro(cfg, v.forma_pago_id) END;
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

-- contabilidad_sync_movimiento posts a processed stock movement at its
-- cost: an exit at the FIFO batch cost it consumed (Dr cost of sales for a
-- sale, adjustment or internal-consumption expense, payables for a return
-- to the supplier; Cr inventory), an entry at its unit costs (Cr payables
-- plus Dr IVA acreditable for a purchase receipt, adjustment income, or
-- cost of sales for a customer return; Dr inventory). Transfers move stock
-- between warehouses of the same inventory account: no entry. A cancelled
-- movement's entry is reversed.
CREATE FUNCTION contabilidad_sync_movimiento(p_movimiento bigint) RETURNS void
LANGUAGE plpgsql AS $$
DECLARE
  m movimientos_inventario;
  cfg contabilidad_configuracion;
  existente bigint;
  origen text;
  valor numeric(18,2);
  iva numeric(18,2) := 0;
  contra bigint;
  lineas jsonb;
  sucursal bigint;
BEGIN
  SELECT * INTO m FROM movimientos_inventario WHERE id = p_movimiento;
  SELECT * INTO cfg FROM contabilidad_configuracion WHERE empresa_id = m.empresa_id;
  IF m.id IS NULL OR cfg.empresa_id IS NULL OR m.tipo = 'Transferencia' THEN
    RETURN;
  END IF;
  origen := CASE WHEN m.tipo = 'Compra' THEN 'compra' ELSE 'inventario' END;
  existente := contabilidad_posteado(m.empresa_id, origen, m.id);
  SELECT a.sucursal_id INTO sucursal FROM almacenes a WHERE a.empresa_id = m.empresa_id AND a.id = m.almacen_id;
  IF m.estado = 'Procesada' AND existente IS NULL THEN
    IF m.clase = 'salida' THEN
      SELECT coalesce(round(sum(cl.cantidad * cl.costo_unitario), 2), 0) INTO valor
        FROM detalles_movimiento d JOIN consumos_lote cl ON cl.empresa_id = d.empresa_id AND cl.detalle_id = d.id
        WHERE d.empresa_id = m.empresa_id AND d.movimiento_id = m.id;
      contra := CASE m.tipo WHEN 'Venta' THEN cfg.cuenta_costo_ventas_id
        WHEN 'Consumo Interno' THEN cfg.cuenta_consumo_interno_id
        WHEN 'Devolucion Proveedor' THEN cfg.cuenta_cuentas_por_pagar_id
        ELSE cfg.cuenta_ajuste_inventario_gasto_id END;
      lineas := jsonb_build_array(
        jsonb_build_object('cuenta_id', contra, 'debe', valor, 'sucursal_id', sucursal),
        jsonb_build_object('cuenta_id', cfg.cuenta_inventario_id, 'haber', valor, 'sucursal_id', sucursal));
    ELSE
      SELECT coalesce(round(sum(d.cantidad * d.costo_unitario), 2), 0) INTO valor
        FROM detalles_movimiento d WHERE d.empresa_id = m.empresa_id AND d.movimiento_id = m.id;
      IF m.tipo = 'Compra' THEN
        -- The IVA of what was received, at each order line's rate.
        SELECT coalesce(round(sum(d.cantidad * d.costo_unitario * coalesce((SELECT o.porcentaje_impuesto FROM detalles_orden_compra o
            WHERE o.empresa_id = d.empresa_id AND o.orden_compra_id = m.orden_compra_id AND o.producto_id = d.producto_id
            ORDER BY o.linea LIMIT 1), 0) / 100), 2), 0) INTO iva
          FROM detalles_movimiento d WHERE d.empresa_id = m.empresa_id AND d.movimiento_id = m.id;
        lineas := jsonb_build_array(
          jsonb_build_object('cuenta_id', cfg.cuenta_inventario_id, 'debe', valor, 'sucursal_id', sucursal),
          jsonb_build_object('cuenta_id', cfg.cuenta_iva_acreditable_id, 'debe', iva, 'sucursal_id', sucursal),
          jsonb_build_object('cuenta_id', cfg.cuenta_cuentas_por_pagar_id, 'haber', valor + iva, 'sucursal_id', sucursal));
      ELSE
        contra := CASE m.tipo WHEN 'Devolucion Cliente' THEN cfg.cuenta_costo_ventas_id ELSE cfg.cuenta_ajuste_inventario_ingreso_id END;
        lineas := jsonb_build_array(
          jsonb_build_object('cuenta_id', cfg.cuenta_inventario_id, 'debe', valor, 'sucursal_id', sucursal),
          jsonb_build_object('cuenta_id', contra, 'haber', valor, 'sucursal_id', sucursal));
      END IF;
    END IF;
    PERFORM contabilidad_registrar(m.empresa_id, m.fecha, m.tipo || ' ' || m.numero, origen, m.id, lineas);
  ELSIF m.estado = 'Cancelada' AND existente IS NOT NULL
      AND (SELECT estado FROM asientos_contables WHERE id = existente) = 'contabilizado' THEN
    PERFORM contabilidad_reversar(existente, 'anulacion', m.id, greatest(m.fecha, contabilidad_hoy()));
  END IF;
END $$;

-- contabilidad_sync_pago posts a payment: a customer's Dr cash/bank, Cr
-- receivable; a payment to a supplier Dr payables, Cr cash/bank.
CREATE FUNCTION contabilidad_sync_pago(p_pago bigint) RETURNS void
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
        jsonb_build_object('cuenta_id', contabilidad_cuenta_cobro(cfg, pg.forma_pago_id), 'debe', monto),
        jsonb_build_object('cuenta_id', cfg.cuenta_cuentas_por_cobrar_id, 'haber', monto)));
  ELSE
    IF contabilidad_posteado(pg.empresa_id, 'pago_proveedor', pg.id) IS NOT NULL THEN RETURN; END IF;
    SELECT o.numero_orden INTO doc FROM cuentas_por_pagar c JOIN ordenes_compra o ON o.empresa_id = c.empresa_id AND o.id = c.orden_compra_id
      WHERE c.empresa_id = pg.empresa_id AND c.id = pg.cuenta_por_pagar_id;
    PERFORM contabilidad_registrar(pg.empresa_id, pg.fecha, 'Pago de ' || coalesce(doc, 'cuenta por pagar'), 'pago_proveedor', pg.id,
      jsonb_build_array(
        jsonb_build_object('cuenta_id', cfg.cuenta_cuentas_por_pagar_id, 'debe', pg.monto),
        jsonb_build_object('cuenta_id', contabilidad_cuenta_cobro(cfg, pg.forma_pago_id), 'haber', pg.monto)));
  END IF;
END $$;

-- Deferred to COMMIT: by then the whole business write is in place (a
-- sale's lines and stock exit, a receipt's batches), and a state changed
-- twice in one transaction is posted once (the sync functions are
-- idempotent).
CREATE FUNCTION contabilidad_tg_venta() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN PERFORM contabilidad_sync_venta(NEW.id); RETURN NULL; END $$;
CREATE FUNCTION contabilidad_tg_movimiento() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN PERFORM contabilidad_sync_movimiento(NEW.id); RETURN NULL; END $$;
CREATE FUNCTION contabilidad_tg_pago() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN PERFORM contabilidad_sync_pago(NEW.id); RETURN NULL; END $$;
CREATE FUNCTION contabilidad_tg_empresa() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN PERFORM contabilidad_sembrar(NEW.id); RETURN NULL; END $$;

CREATE CONSTRAINT TRIGGER ventas_contabilidad AFTER INSERT OR UPDATE OF estado, eliminado ON ventas
  DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION contabilidad_tg_venta();
CREATE CONSTRAINT TRIGGER movimientos_inventario_contabilidad AFTER INSERT OR UPDATE OF estado ON movimientos_inventario
  DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION contabilidad_tg_movimiento();
CREATE CONSTRAINT TRIGGER pagos_contabilidad AFTER INSERT ON pagos
  DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION contabilidad_tg_pago();
-- A new company gets its chart and posting configuration with it.
CREATE TRIGGER empresas_contabilidad AFTER INSERT ON empresas FOR EACH ROW EXECUTE FUNCTION contabilidad_tg_empresa();

-- contabilidad_backfill posts, once, what a company recorded before its
-- books existed, in the order it happened. Idempotent: it is what the
-- migration runs for every company and what `make contabilizar-historico`
-- runs again.
CREATE FUNCTION contabilidad_backfill(p_empresa bigint) RETURNS integer
LANGUAGE plpgsql AS $$
DECLARE
  r record;
  antes integer;
BEGIN
  SELECT count(*) INTO antes FROM asientos_contables WHERE empresa_id = p_empresa;
  FOR r IN
    SELECT 'v' AS k, id, fecha_venta AS f, creado_en FROM ventas WHERE empresa_id = p_empresa
    UNION ALL SELECT 'm', id, fecha, creado_en FROM movimientos_inventario WHERE empresa_id = p_empresa AND estado = 'Procesada'
    UNION ALL SELECT 'p', id, fecha, creado_en FROM pagos WHERE empresa_id = p_empresa
    ORDER BY f, creado_en, k LOOP
    CASE r.k
      WHEN 'v' THEN PERFORM contabilidad_sync_venta(r.id);
      WHEN 'm' THEN PERFORM contabilidad_sync_movimiento(r.id);
      ELSE PERFORM contabilidad_sync_pago(r.id);
    END CASE;
  END LOOP;
  RETURN (SELECT count(*) FROM asientos_contables WHERE empresa_id = p_empresa) - antes;
END $$;

DO $$
DECLARE e bigint;
BEGIN
  FOR e IN SELECT id FROM empresas ORDER BY id LOOP
    PERFORM contabilidad_sembrar(e);
    PERFORM contabilidad_backfill(e);
  END LOOP;
END $$;

GRANT EXECUTE ON FUNCTION contabilidad_sembrar(bigint), contabilidad_backfill(bigint), contabilidad_contabilizar(bigint, text),
  contabilidad_registrar(bigint, date, text, text, bigint, jsonb, text, numeric, text),
  contabilidad_reversar(bigint, text, bigint, date, text) TO erp_app;
