-- 0023: cheaper commit-time posting (issue 17).
--
-- The deferred triggers of 0012/0014/0015 run at COMMIT while the sale holds
-- its company's counters (the sale's series, SAL), so their time is the
-- company's serial section. Measured per 5-line sale (track_functions,
-- pg_stat_statements with track = all): two entries posted through
-- contabilidad_registrar -> contabilidad_contabilizar, each built as jsonb,
-- parsed back, inserted as a draft, read again row by row (FOR UPDATE, a
-- loop over its lines, a sum), numbered and updated to contabilizado (a
-- second, non-HOT version of the row with its four index entries). Here an
-- entry is checked from its lines in one query, numbered, and inserted
-- already posted; the results are the same rows (same number, same lines,
-- same totals and timestamps: now() is the transaction's) and the same 422
-- errors in the same order (first bad line, fewer than two lines, not
-- balanced, closed period). The sync functions look their entry up in
-- PL/pgSQL (contabilidad_posteado, a SQL function, was planned on every
-- call), and the cost of a stock exit is summed by its lines' ids. The
-- dashboard's version triggers queue one event per company and
-- transaction, and the summaries lock their rows in a fixed order.

-- contabilidad_asentar creates and posts an entry of the company from its
-- lines given as parallel arrays (account, debit, credit, branch,
-- description; the last two may be null). As contabilidad_registrar: lines
-- of zero (after rounding to cents) are left out and numbered in order, and
-- nothing is posted (null) when no amount is positive. As
-- contabilidad_contabilizar: each line on an active leaf account of the
-- company, at least two lines, debits equal credits, an open month; the
-- year's counter is the last thing taken, right before the inserts.
CREATE FUNCTION contabilidad_asentar(p_empresa bigint, p_fecha date, p_descripcion text, p_origen text, p_origen_id bigint,
    p_cuentas bigint[], p_debe numeric[], p_haber numeric[], p_sucursales bigint[], p_descripciones text[],
    p_moneda text DEFAULT 'CRC', p_tipo_cambio numeric DEFAULT 1, p_campo_fecha text DEFAULT 'fecha')
RETURNS bigint
LANGUAGE plpgsql AS $$
DECLARE
  v_id bigint;
  n integer;
  debe numeric(18,2);
  haber numeric(18,2);
  mala integer;
  inactiva boolean;
  k bigint;
BEGIN
  IF NOT EXISTS (SELECT 1 FROM unnest(p_debe, p_haber) AS x(d, h) WHERE coalesce(d, 0) > 0 OR coalesce(h, 0) > 0) THEN
    RETURN NULL;
  END IF;
  -- One pass over the lines: how many, their sums, and the first line
  -- (in order) whose account cannot take the posting, with why.
  SELECT count(*), sum(l.debe), sum(l.haber), min(l.linea) FILTER (WHERE l.mala),
      (array_agg(l.inactiva ORDER BY l.linea) FILTER (WHERE l.mala))[1]
    INTO n, debe, haber, mala, inactiva
    FROM (SELECT row_number() OVER (ORDER BY x.i) AS linea, round(coalesce(x.d, 0), 2) AS debe, round(coalesce(x.h, 0), 2) AS haber,
            (c.id IS NULL OR c.eliminado OR NOT c.activo) AS inactiva,
            (c.id IS NULL OR c.eliminado OR NOT c.activo OR NOT c.acepta_movimientos) AS mala
          FROM unnest(p_cuentas, p_debe, p_haber) WITH ORDINALITY AS x(cuenta, d, h, i)
          LEFT JOIN cuentas_contables c ON c.empresa_id = p_empresa AND c.id = x.cuenta
          WHERE round(coalesce(x.d, 0), 2) > 0 OR round(coalesce(x.h, 0), 2) > 0) l;
  IF mala IS NOT NULL THEN
    IF inactiva THEN
      PERFORM contabilidad_error(format('lineas.%s.cuenta_id', mala - 1), 'La cuenta contable no existe o está inactiva.');
    END IF;
    PERFORM contabilidad_error(format('lineas.%s.cuenta_id', mala - 1),
      'La cuenta contable es de agrupación: solo las cuentas de detalle aceptan movimientos.');
  END IF;
  IF n < 2 THEN
    PERFORM contabilidad_error('lineas', 'Un asiento necesita al menos dos líneas.');
  END IF;
  IF debe <> haber THEN
    PERFORM contabilidad_error('lineas', format('El asiento no cuadra: el debe suma %s y el haber %s.', debe, haber));
  END IF;
  PERFORM contabilidad_verificar_periodo(p_empresa, p_fecha, p_campo_fecha);
  INSERT INTO contadores (empresa_id, clave, valor) VALUES (p_empresa, 'asientos:' || extract(year FROM p_fecha), 1)
    ON CONFLICT (empresa_id, clave) DO UPDATE SET valor = contadores.valor + 1, actualizado_en = now()
    RETURNING valor INTO k;
  INSERT INTO asientos_contables (empresa_id, numero, fecha, descripcion, origen, origen_id, estado, moneda, tipo_cambio,
      total_debe, total_haber, usuario_id, contabilizado_en, actualizado_en)
    VALUES (p_empresa, format('AS-%s-%s', extract(year FROM p_fecha), lpad(k::text, 6, '0')), p_fecha, left(p_descripcion, 1000),
      p_origen, p_origen_id, 'contabilizado', p_moneda, p_tipo_cambio, debe, haber, nullif(app_usuario_id(), 0), now(), now())
    RETURNING asientos_contables.id INTO v_id;
  INSERT INTO asiento_lineas (empresa_id, asiento_id, linea, cuenta_id, debe, haber, descripcion, sucursal_id)
  SELECT p_empresa, v_id, row_number() OVER (ORDER BY x.i), x.cuenta, round(coalesce(x.d, 0), 2), round(coalesce(x.h, 0), 2), x.t, x.s
    FROM unnest(p_cuentas, p_debe, p_haber, p_sucursales, p_descripciones) WITH ORDINALITY AS x(cuenta, d, h, s, t, i)
    WHERE round(coalesce(x.d, 0), 2) > 0 OR round(coalesce(x.h, 0), 2) > 0;
  RETURN v_id;
END $$;
REVOKE ALL ON FUNCTION contabilidad_asentar(bigint, date, text, text, bigint, bigint[], numeric[], numeric[], bigint[], text[], text, numeric, text) FROM PUBLIC;
GRANT EXECUTE ON FUNCTION contabilidad_asentar(bigint, date, text, text, bigint, bigint[], numeric[], numeric[], bigint[], text[], text, numeric, text) TO erp_app;

-- contabilidad_registrar keeps its jsonb interface (payroll, cash box
-- closings, reversals) and posts through contabilidad_asentar.
CREATE OR REPLACE FUNCTION contabilidad_registrar(p_empresa bigint, p_fecha date, p_descripcion text, p_origen text, p_origen_id bigint,
    p_lineas jsonb, p_moneda text DEFAULT 'CRC', p_tipo_cambio numeric DEFAULT 1, p_campo_fecha text DEFAULT 'fecha')
RETURNS bigint
LANGUAGE plpgsql AS $$
DECLARE
  cuentas bigint[];
  debes numeric[];
  haberes numeric[];
  sucursales bigint[];
  descripciones text[];
BEGIN
  SELECT array_agg((x.v->>'cuenta_id')::bigint ORDER BY x.n), array_agg((x.v->>'debe')::numeric ORDER BY x.n),
      array_agg((x.v->>'haber')::numeric ORDER BY x.n), array_agg((x.v->>'sucursal_id')::bigint ORDER BY x.n),
      array_agg(x.v->>'descripcion' ORDER BY x.n)
    INTO cuentas, debes, haberes, sucursales, descripciones
    FROM jsonb_array_elements(p_lineas) WITH ORDINALITY AS x(v, n);
  RETURN contabilidad_asentar(p_empresa, p_fecha, p_descripcion, p_origen, p_origen_id, cuentas, debes, haberes, sucursales,
    descripciones, p_moneda, p_tipo_cambio, p_campo_fecha);
END $$;

-- The sale posting of 0014, its lines given straight to contabilidad_asentar.
CREATE OR REPLACE FUNCTION contabilidad_sync_venta(p_venta bigint) RETURNS void
LANGUAGE plpgsql AS $$
DECLARE
  v ventas;
  cfg contabilidad_configuracion;
  existente bigint;
  total numeric(18,2);
  iva numeric(18,2);
  cobro bigint;
BEGIN
  SELECT * INTO v FROM ventas WHERE id = p_venta;
  SELECT * INTO cfg FROM contabilidad_configuracion WHERE empresa_id = v.empresa_id;
  IF v.id IS NULL OR cfg.empresa_id IS NULL THEN
    RETURN; -- no books for this company
  END IF;
  -- contabilidad_posteado's query, written here: a SQL function called
  -- from PL/pgSQL is planned again on every call, a query of the function
  -- once per session.
  SELECT a.id INTO existente FROM asientos_contables a WHERE a.empresa_id = v.empresa_id AND a.origen = 'venta' AND a.origen_id = v.id
    AND NOT a.eliminado AND a.estado IN ('contabilizado', 'anulado') ORDER BY a.id DESC LIMIT 1;
  IF v.estado IN ('pendiente', 'pagada') AND NOT v.eliminado AND existente IS NULL THEN
    total := round(v.monto_total * v.tipo_cambio, 2);
    iva := round(v.monto_impuestos * v.tipo_cambio, 2);
    cobro := CASE WHEN v.condicion_venta = 'credito' THEN cfg.cuenta_cuentas_por_cobrar_id
      ELSE tesoreria_cuenta_medio(cfg, v.forma_pago_id, v.cuenta_bancaria_id, v.caja_id) END;
    IF v.tipo_comprobante = 'nota_credito' THEN
      PERFORM contabilidad_asentar(v.empresa_id, v.fecha_venta, 'Venta ' || v.numero_comprobante, 'venta', v.id,
        ARRAY[cfg.cuenta_devoluciones_ventas_id, cfg.cuenta_iva_por_pagar_id, cobro], ARRAY[total - iva, iva, 0], ARRAY[0, 0, total],
        ARRAY[v.sucursal_id, v.sucursal_id, v.sucursal_id], NULL, v.moneda, v.tipo_cambio, 'fecha_venta');
    ELSE
      PERFORM contabilidad_asentar(v.empresa_id, v.fecha_venta, 'Venta ' || v.numero_comprobante, 'venta', v.id,
        ARRAY[cobro, cfg.cuenta_ventas_id, cfg.cuenta_iva_por_pagar_id], ARRAY[total, 0, 0], ARRAY[0, total - iva, iva],
        ARRAY[v.sucursal_id, v.sucursal_id, v.sucursal_id], NULL, v.moneda, v.tipo_cambio, 'fecha_venta');
    END IF;
  ELSIF (v.estado = 'anulada' OR v.eliminado) AND existente IS NOT NULL
      AND (SELECT estado FROM asientos_contables WHERE id = existente) = 'contabilizado' THEN
    PERFORM contabilidad_reversar(existente, 'anulacion_venta', v.id, greatest(v.fecha_venta, contabilidad_hoy()));
  END IF;
END $$;

-- The stock movement posting of 0012, its lines given straight to
-- contabilidad_asentar.
CREATE OR REPLACE FUNCTION contabilidad_sync_movimiento(p_movimiento bigint) RETURNS void
LANGUAGE plpgsql AS $$
DECLARE
  m movimientos_inventario;
  cfg contabilidad_configuracion;
  existente bigint;
  origen text;
  valor numeric(18,2);
  iva numeric(18,2) := 0;
  contra bigint;
  cuentas bigint[];
  debes numeric[];
  haberes numeric[];
  sucursal bigint;
BEGIN
  SELECT * INTO m FROM movimientos_inventario WHERE id = p_movimiento;
  SELECT * INTO cfg FROM contabilidad_configuracion WHERE empresa_id = m.empresa_id;
  IF m.id IS NULL OR cfg.empresa_id IS NULL OR m.tipo = 'Transferencia' THEN
    RETURN;
  END IF;
  origen := CASE WHEN m.tipo = 'Compra' THEN 'compra' ELSE 'inventario' END;
  SELECT a.id INTO existente FROM asientos_contables a WHERE a.empresa_id = m.empresa_id AND a.origen = (CASE WHEN m.tipo = 'Compra' THEN 'compra' ELSE 'inventario' END)
    AND a.origen_id = m.id AND NOT a.eliminado AND a.estado IN ('contabilizado', 'anulado') ORDER BY a.id DESC LIMIT 1;
  SELECT a.sucursal_id INTO sucursal FROM almacenes a WHERE a.empresa_id = m.empresa_id AND a.id = m.almacen_id;
  IF m.estado = 'Procesada' AND existente IS NULL THEN
    IF m.clase = 'salida' THEN
      -- What the exit's lines consumed, looked up by their ids: the join
      -- of 0012 was planned as a hash join over every consumption of the
      -- company whenever the statistics predate the table's growth (the
      -- generic plan's estimate for empresa_id = $1), reading the whole
      -- table at each sale's commit; by detalle_id = ANY the only plan is
      -- the index on (empresa_id, detalle_id). Same rows, same sum.
      SELECT coalesce(round(sum(cl.cantidad * cl.costo_unitario), 2), 0) INTO valor
        FROM consumos_lote cl
        WHERE cl.empresa_id = m.empresa_id AND cl.detalle_id = ANY (ARRAY(SELECT d.id FROM detalles_movimiento d
          WHERE d.empresa_id = m.empresa_id AND d.movimiento_id = m.id));
      contra := CASE m.tipo WHEN 'Venta' THEN cfg.cuenta_costo_ventas_id
        WHEN 'Consumo Interno' THEN cfg.cuenta_consumo_interno_id
        WHEN 'Devolucion Proveedor' THEN cfg.cuenta_cuentas_por_pagar_id
        ELSE cfg.cuenta_ajuste_inventario_gasto_id END;
      cuentas := ARRAY[contra, cfg.cuenta_inventario_id];
      debes := ARRAY[valor, 0];
      haberes := ARRAY[0, valor];
    ELSE
      SELECT coalesce(round(sum(d.cantidad * d.costo_unitario), 2), 0) INTO valor
        FROM detalles_movimiento d WHERE d.empresa_id = m.empresa_id AND d.movimiento_id = m.id;
      IF m.tipo = 'Compra' THEN
        -- The IVA of what was received, at each order line's rate.
        SELECT coalesce(round(sum(d.cantidad * d.costo_unitario * coalesce((SELECT o.porcentaje_impuesto FROM detalles_orden_compra o
            WHERE o.empresa_id = d.empresa_id AND o.orden_compra_id = m.orden_compra_id AND o.producto_id = d.producto_id
            ORDER BY o.linea LIMIT 1), 0) / 100), 2), 0) INTO iva
          FROM detalles_movimiento d WHERE d.empresa_id = m.empresa_id AND d.movimiento_id = m.id;
        cuentas := ARRAY[cfg.cuenta_inventario_id, cfg.cuenta_iva_acreditable_id, cfg.cuenta_cuentas_por_pagar_id];
        debes := ARRAY[valor, iva, 0];
        haberes := ARRAY[0, 0, valor + iva];
      ELSE
        contra := CASE m.tipo WHEN 'Devolucion Cliente' THEN cfg.cuenta_costo_ventas_id ELSE cfg.cuenta_ajuste_inventario_ingreso_id END;
        cuentas := ARRAY[cfg.cuenta_inventario_id, contra];
        debes := ARRAY[valor, 0];
        haberes := ARRAY[0, valor];
      END IF;
    END IF;
    PERFORM contabilidad_asentar(m.empresa_id, m.fecha, m.tipo || ' ' || m.numero, origen, m.id, cuentas, debes, haberes,
      array_fill(sucursal, ARRAY[cardinality(cuentas)]), NULL);
  ELSIF m.estado = 'Cancelada' AND existente IS NOT NULL
      AND (SELECT estado FROM asientos_contables WHERE id = existente) = 'contabilizado' THEN
    PERFORM contabilidad_reversar(existente, 'anulacion', m.id, greatest(m.fecha, contabilidad_hoy()));
  END IF;
END $$;

-- The payment posting of 0014, its lines given straight to
-- contabilidad_asentar.
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
    IF EXISTS (SELECT 1 FROM asientos_contables a WHERE a.empresa_id = pg.empresa_id AND a.origen = 'pago_cliente' AND a.origen_id = pg.id
        AND NOT a.eliminado AND a.estado IN ('contabilizado', 'anulado')) THEN
      RETURN;
    END IF;
    SELECT v.tipo_cambio, v.numero_comprobante INTO tc, doc FROM cuentas_por_cobrar c JOIN ventas v ON v.empresa_id = c.empresa_id AND v.id = c.venta_id
      WHERE c.empresa_id = pg.empresa_id AND c.id = pg.cuenta_por_cobrar_id;
    monto := round(pg.monto * coalesce(tc, 1), 2);
    PERFORM contabilidad_asentar(pg.empresa_id, pg.fecha, 'Cobro de ' || coalesce(doc, 'cuenta por cobrar'), 'pago_cliente', pg.id,
      ARRAY[tesoreria_cuenta_medio(cfg, pg.forma_pago_id, pg.cuenta_bancaria_id, pg.caja_id), cfg.cuenta_cuentas_por_cobrar_id],
      ARRAY[monto, 0], ARRAY[0, monto], NULL, NULL);
  ELSE
    IF EXISTS (SELECT 1 FROM asientos_contables a WHERE a.empresa_id = pg.empresa_id AND a.origen = 'pago_proveedor' AND a.origen_id = pg.id
        AND NOT a.eliminado AND a.estado IN ('contabilizado', 'anulado')) THEN
      RETURN;
    END IF;
    SELECT o.numero_orden INTO doc FROM cuentas_por_pagar c JOIN ordenes_compra o ON o.empresa_id = c.empresa_id AND o.id = c.orden_compra_id
      WHERE c.empresa_id = pg.empresa_id AND c.id = pg.cuenta_por_pagar_id;
    PERFORM contabilidad_asentar(pg.empresa_id, pg.fecha, 'Pago de ' || coalesce(doc, 'cuenta por pagar'), 'pago_proveedor', pg.id,
      ARRAY[cfg.cuenta_cuentas_por_pagar_id, tesoreria_cuenta_medio(cfg, pg.forma_pago_id, pg.cuenta_bancaria_id, pg.caja_id)],
      ARRAY[pg.monto, 0], ARRAY[0, pg.monto], NULL, NULL);
  END IF;
END $$;

-- ---- dashboard ----------------------------------------------------------------

-- dashboard_sync_venta of 0015 with its locks in a fixed order: the
-- per-product rows in producto_id order (two sales sharing products lock
-- them in the same order), and the day's row of the company, the one every
-- sale of the day contends for, last.
CREATE OR REPLACE FUNCTION dashboard_sync_venta(p_venta bigint) RETURNS void
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
    PERFORM 1 FROM resumen_productos_dia r
      WHERE r.empresa_id = a.empresa_id AND r.fecha = a.fecha AND r.sucursal_id = a.sucursal_id
        AND r.producto_id IN (SELECT d.producto_id FROM detalles_venta d WHERE d.empresa_id = a.empresa_id AND d.venta_id = a.venta_id)
      ORDER BY r.producto_id FOR UPDATE;
    UPDATE resumen_productos_dia r SET cantidad = r.cantidad - a.signo * x.cantidad, monto = r.monto - a.signo * x.monto
      FROM (SELECT d.producto_id, sum(d.cantidad) AS cantidad, sum(d.subtotal - d.descuento) AS monto
            FROM detalles_venta d WHERE d.empresa_id = a.empresa_id AND d.venta_id = a.venta_id GROUP BY d.producto_id) x
      WHERE r.empresa_id = a.empresa_id AND r.fecha = a.fecha AND r.sucursal_id = a.sucursal_id AND r.producto_id = x.producto_id;
    DELETE FROM resumen_ventas_aportes WHERE empresa_id = a.empresa_id AND venta_id = a.venta_id;
    UPDATE resumen_ventas_dia SET cantidad = cantidad - a.signo, monto = monto - a.monto
      WHERE empresa_id = a.empresa_id AND fecha = a.fecha AND sucursal_id = a.sucursal_id;
    a.venta_id := NULL;
  END IF;
  IF signo <> 0 AND a.venta_id IS NULL THEN
    INSERT INTO resumen_productos_dia AS r (empresa_id, sucursal_id, fecha, producto_id, cantidad, monto)
      SELECT v.empresa_id, coalesce(v.sucursal_id, 0), v.fecha_venta, d.producto_id, signo * sum(d.cantidad), signo * sum(d.subtotal - d.descuento)
      FROM detalles_venta d WHERE d.empresa_id = v.empresa_id AND d.venta_id = v.id GROUP BY d.producto_id ORDER BY d.producto_id
      ON CONFLICT (empresa_id, fecha, sucursal_id, producto_id) DO UPDATE
        SET cantidad = r.cantidad + excluded.cantidad, monto = r.monto + excluded.monto;
    INSERT INTO resumen_ventas_aportes (empresa_id, venta_id, sucursal_id, fecha, signo, monto)
      VALUES (v.empresa_id, v.id, coalesce(v.sucursal_id, 0), v.fecha_venta, signo, signo * v.monto_total);
    INSERT INTO resumen_ventas_dia AS r (empresa_id, sucursal_id, fecha, cantidad, monto)
      VALUES (v.empresa_id, coalesce(v.sucursal_id, 0), v.fecha_venta, signo, signo * v.monto_total)
      ON CONFLICT (empresa_id, fecha, sucursal_id) DO UPDATE SET cantidad = r.cantidad + excluded.cantidad, monto = r.monto + excluded.monto;
  END IF;
END $$;

-- dashboard_pendiente is the WHEN of the version triggers: true for the
-- first row of a company a transaction changes, false after it, so one
-- deferred event per company and transaction is queued instead of one per
-- row (a 50-line sale changed 50 batches: 50 events, each a call of
-- dashboard_tocar at COMMIT that found the bump done). The mark is a
-- transaction-local setting: a rolled back savepoint takes it back with the
-- event it queued, so the next row queues one again. dashboard_tocar keeps
-- its own once-per-transaction mark.
CREATE FUNCTION dashboard_pendiente(p_empresa bigint) RETURNS boolean
LANGUAGE sql VOLATILE AS $$
  SELECT CASE WHEN current_setting('app.dashboard_cola_' || p_empresa, true) = '1' THEN false
    ELSE set_config('app.dashboard_cola_' || p_empresa, '1', true) = '1' END
$$;

DO $$
DECLARE t text;
BEGIN
  FOREACH t IN ARRAY ARRAY['ventas', 'cuentas_por_cobrar', 'cuentas_por_pagar', 'inventarios', 'comprobantes_electronicos',
      'clientes', 'productos', 'planillas'] LOOP
    EXECUTE format('DROP TRIGGER %I ON %I', t || '_dashboard_version', t);
    EXECUTE format('CREATE CONSTRAINT TRIGGER %I AFTER INSERT OR UPDATE ON %I DEFERRABLE INITIALLY DEFERRED '
      'FOR EACH ROW WHEN (dashboard_pendiente(NEW.empresa_id)) EXECUTE FUNCTION dashboard_tocar()', t || '_dashboard_version', t);
  END LOOP;
END $$;
