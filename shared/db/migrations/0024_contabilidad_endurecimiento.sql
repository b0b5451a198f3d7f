-- 0024: accounting and treasury hardening (issue 13), from probing the API
-- as a client would.
--
-- 1. Closing a month and posting into it are serialised. A posting checked
--    the month's row without a lock, so a closing that committed while a
--    posting was in flight (a sale's commit-time entry, a manual entry, a
--    payment) left an entry dated in a month already closed. Now every
--    posting takes the month's advisory lock in shared mode before it
--    reads the month (postings of one month never wait for each other),
--    and closing takes it exclusively (periodos-contables/cerrar, Go): a
--    closing waits for the postings in flight to commit, and a posting
--    that arrives during a closing waits for it and then sees it closed
--    (422). contabilidad_verificar_periodo becomes VOLATILE: a STABLE
--    function reads with its caller's snapshot, which may predate the
--    closing it has just waited for.
--
-- 2. Sums are not cast to numeric(18,2). Every stored amount fits that type
--    (below 10^16), but a sum of them need not: tesoreria_saldo (a bank
--    account's balance in the books) raised "numeric field overflow", a
--    500 on every list and show of bank accounts. It now rounds to cents.
--    tesoreria_cerrar_caja adds up the session in unbounded numerics and
--    refuses with a 422 under monto_contado the closing whose expected
--    cash or difference does not fit the session's columns, instead of
--    the overflow's 500.
--
-- 3. The automatic postings of sales and stock movements compute their
--    amounts unbounded and refuse, with a 422 under detalles, those that
--    do not fit the books (see the section at the end).

-- contabilidad_llave_periodo is the advisory-lock key of a company's month.
CREATE FUNCTION contabilidad_llave_periodo(p_empresa bigint, p_anio integer, p_mes integer) RETURNS bigint
LANGUAGE sql IMMUTABLE AS $$
  SELECT hashtextextended(format('periodos_contables:%s:%s-%s', p_empresa, p_anio, p_mes), 0)
$$;
REVOKE ALL ON FUNCTION contabilidad_llave_periodo(bigint, integer, integer) FROM PUBLIC;
GRANT EXECUTE ON FUNCTION contabilidad_llave_periodo(bigint, integer, integer) TO erp_app;

-- contabilidad_verificar_periodo refuses a date in a closed month, holding
-- the month's lock in shared mode until the posting's transaction ends.
CREATE OR REPLACE FUNCTION contabilidad_verificar_periodo(p_empresa bigint, p_fecha date, p_campo text) RETURNS void
LANGUAGE plpgsql VOLATILE AS $$
BEGIN
  PERFORM pg_advisory_xact_lock_shared(contabilidad_llave_periodo(p_empresa, extract(year FROM p_fecha)::integer,
    extract(month FROM p_fecha)::integer));
  IF EXISTS (SELECT 1 FROM periodos_contables WHERE empresa_id = p_empresa AND anio = extract(year FROM p_fecha)
      AND mes = extract(month FROM p_fecha) AND estado = 'cerrado') THEN
    PERFORM contabilidad_error(p_campo, format('El período contable %s está cerrado; no se puede contabilizar en él.',
      to_char(p_fecha, 'YYYY-MM')));
  END IF;
END $$;

-- tesoreria_saldo of 0014, rounded to cents instead of cast to numeric(18,2).
CREATE OR REPLACE FUNCTION tesoreria_saldo(p_empresa bigint, p_cuenta bigint, p_hasta date) RETURNS numeric
LANGUAGE sql STABLE AS $$
  SELECT round(coalesce(sum(CASE WHEN c.naturaleza = 'deudora' THEN l.debe - l.haber ELSE l.haber - l.debe END), 0), 2)
  FROM cuentas_contables c
  JOIN cuentas_contables k ON k.empresa_id = c.empresa_id AND (k.id = c.id OR k.codigo LIKE c.codigo || '.%')
  JOIN asiento_lineas l ON l.empresa_id = k.empresa_id AND l.cuenta_id = k.id
  JOIN asientos_contables a ON a.empresa_id = l.empresa_id AND a.id = l.asiento_id
  WHERE c.empresa_id = p_empresa AND c.id = p_cuenta AND a.estado IN ('contabilizado', 'anulado') AND NOT a.eliminado
    AND (p_hasta IS NULL OR a.fecha <= p_hasta)
$$;

-- tesoreria_cerrar_caja of 0014 (same sums, posting and update), with the
-- session's figures added up unbounded and checked against what its
-- numeric(18,2) columns hold.
CREATE OR REPLACE FUNCTION tesoreria_cerrar_caja(p_empresa bigint, p_sesion bigint, p_contado numeric, p_usuario bigint, p_observaciones text)
RETURNS void LANGUAGE plpgsql AS $$
DECLARE
  s caja_sesiones;
  caja cajas;
  cfg contabilidad_configuracion;
  ventas_ef numeric;
  cobros_ef numeric;
  pagos_ef numeric;
  esperado numeric;
  dif numeric;
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
  IF greatest(abs(ventas_ef), abs(cobros_ef), abs(pagos_ef), abs(esperado), abs(dif)) >= 1e16 THEN
    PERFORM contabilidad_error('monto_contado', format(
      'La sesión de la caja suma montos que no se pueden registrar (efectivo esperado %s, diferencia %s): cada uno debe ser menor que 10000000000000000.00 en valor absoluto.',
      round(esperado, 2), round(dif, 2)));
  END IF;
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

-- 3. A posting's amounts are computed unbounded and refused with a 422
--    under detalles when they do not fit the books (numeric(18,2)): a sale
--    in dollars whose total in colones passes it, or a stock movement whose
--    lines are each within it but whose value is not, raised "numeric field
--    overflow" at COMMIT, a 500. contabilidad_sync_venta and
--    contabilidad_sync_movimiento of 0023, with that check and their
--    amount variables unbounded (nothing else changes).
CREATE OR REPLACE FUNCTION contabilidad_sync_venta(p_venta bigint) RETURNS void
LANGUAGE plpgsql AS $$
DECLARE
  v ventas;
  cfg contabilidad_configuracion;
  existente bigint;
  total numeric;
  iva numeric;
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
    IF abs(total) >= 1e16 THEN
      PERFORM contabilidad_error('detalles', format(
        'El total de la venta en colones (%s al tipo de cambio %s) no cabe en los libros: debe ser menor que 10000000000000000.00.',
        total, v.tipo_cambio));
    END IF;
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

CREATE OR REPLACE FUNCTION contabilidad_sync_movimiento(p_movimiento bigint) RETURNS void
LANGUAGE plpgsql AS $$
DECLARE
  m movimientos_inventario;
  cfg contabilidad_configuracion;
  existente bigint;
  origen text;
  valor numeric;
  iva numeric := 0;
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
    IF valor + iva >= 1e16 THEN
      PERFORM contabilidad_error('detalles', format(
        'El valor del movimiento (%s) no cabe en los libros: debe ser menor que 10000000000000000.00.', valor + iva));
    END IF;
    PERFORM contabilidad_asentar(m.empresa_id, m.fecha, m.tipo || ' ' || m.numero, origen, m.id, cuentas, debes, haberes,
      array_fill(sucursal, ARRAY[cardinality(cuentas)]), NULL);
  ELSIF m.estado = 'Cancelada' AND existente IS NOT NULL
      AND (SELECT estado FROM asientos_contables WHERE id = existente) = 'contabilizado' THEN
    PERFORM contabilidad_reversar(existente, 'anulacion', m.id, greatest(m.fecha, contabilidad_hoy()));
  END IF;
END $$;
