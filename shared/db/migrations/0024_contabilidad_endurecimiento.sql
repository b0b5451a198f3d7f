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
