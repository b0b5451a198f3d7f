-- 0036: a sale of total 0 takes the books' counter before the dashboard's
-- rows at COMMIT, as every other sale does.
--
-- A sale's deferred triggers fire at COMMIT in the order its rows were
-- written: the sale's posting (contabilidad_sync_venta: the year's entry
-- counter, then the reports' version through the entry's insert), its
-- dashboard rows and version, then its stock exit's posting (the cost of
-- sales; the counter already held). A sale of total 0 posts no entry of its
-- own (contabilidad_asentar returns before the counter), so it took the
-- dashboard's rows first and the counter only with its exit's cost: the
-- reverse of every other sale, and the two deadlocked at COMMIT (1-2 per 80
-- mixed concurrent requests, absorbed by the retry). Its cancellation did
-- the same: no entry to reverse, so the dashboard's take-back came before
-- the posting of the goods' return. Now, when the sale's posting step
-- posts nothing (a sale or credit note of total 0, confirmed or
-- cancelled), its movements (the exit, a credit note's return, a
-- cancellation's return) are posted right there; a movement with no cost
-- posts nothing and takes no lock. Their own triggers, later in the same
-- COMMIT, find their entries (the same entries, numbers and lines as
-- before). A sale with an entry of its own is untouched.
--
-- contabilidad_sync_venta of 0024 (the newest), with that step added;
-- nothing else changes.

CREATE OR REPLACE FUNCTION contabilidad_sync_venta(p_venta bigint) RETURNS void
LANGUAGE plpgsql AS $$
DECLARE
  v ventas;
  cfg contabilidad_configuracion;
  existente bigint;
  total numeric;
  iva numeric;
  cobro bigint;
  asiento bigint;
  vacia boolean := false;
  mov bigint;
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
      asiento := contabilidad_asentar(v.empresa_id, v.fecha_venta, 'Venta ' || v.numero_comprobante, 'venta', v.id,
        ARRAY[cfg.cuenta_devoluciones_ventas_id, cfg.cuenta_iva_por_pagar_id, cobro], ARRAY[total - iva, iva, 0], ARRAY[0, 0, total],
        ARRAY[v.sucursal_id, v.sucursal_id, v.sucursal_id], NULL, v.moneda, v.tipo_cambio, 'fecha_venta');
    ELSE
      asiento := contabilidad_asentar(v.empresa_id, v.fecha_venta, 'Venta ' || v.numero_comprobante, 'venta', v.id,
        ARRAY[cobro, cfg.cuenta_ventas_id, cfg.cuenta_iva_por_pagar_id], ARRAY[total, 0, 0], ARRAY[0, total - iva, iva],
        ARRAY[v.sucursal_id, v.sucursal_id, v.sucursal_id], NULL, v.moneda, v.tipo_cambio, 'fecha_venta');
    END IF;
    vacia := asiento IS NULL;
  ELSIF (v.estado = 'anulada' OR v.eliminado) AND existente IS NOT NULL
      AND (SELECT estado FROM asientos_contables WHERE id = existente) = 'contabilizado' THEN
    PERFORM contabilidad_reversar(existente, 'anulacion_venta', v.id, greatest(v.fecha_venta, contabilidad_hoy()));
  ELSIF (v.estado = 'anulada' OR v.eliminado) AND existente IS NULL THEN
    vacia := true; -- cancelled with no entry to reverse (total 0, or a draft)
  END IF;
  IF vacia THEN
    -- The sale's own posting took no lock: its stock movements (the exit,
    -- a credit note's return, a cancellation's return) post their entries
    -- now, where its own would have taken the books' counter, before the
    -- dashboard's rows: the order every sale keeps. Their own deferred
    -- triggers, later in this COMMIT, find them posted; a movement with no
    -- cost posts nothing and takes nothing.
    FOR mov IN SELECT m.id FROM movimientos_inventario m WHERE m.empresa_id = v.empresa_id AND m.venta_id = v.id ORDER BY m.id LOOP
      PERFORM contabilidad_sync_movimiento(mov);
    END LOOP;
  END IF;
END $$;
