-- 0032: the dashboard's sales figures in colones.
--
-- dashboard_sync_venta (0015, 0023) and dashboard_reconstruir (0015) added
-- a sale's monto_total and its lines' subtotal - descuento as written, in
-- the sale's currency: a sale of USD 32.41 at 512.34567 counted 32.41 in
-- ventas_hoy, ventas_mes, the last 30 days and the top products, while the
-- books (round(monto_total * tipo_cambio, 2), 0012/0023) and the sales
-- report (each line times tipo_cambio) count 16,605.12 colones. Both now
-- convert at the sale's tipo_cambio, rounded to céntimos as the posting
-- rounds; the take-back of a cancelled sale subtracts what it added (the
-- stored contribution, and for products the same expression of the same
-- lines). The summaries of companies with sales in another currency are
-- rebuilt once.

CREATE OR REPLACE FUNCTION dashboard_sync_venta(p_venta bigint) RETURNS void
LANGUAGE plpgsql AS $$
DECLARE
  v ventas;
  a resumen_ventas_aportes;
  signo integer;
  tc numeric;
BEGIN
  SELECT * INTO v FROM ventas WHERE id = p_venta;
  IF v.id IS NULL THEN RETURN; END IF;
  SELECT * INTO a FROM resumen_ventas_aportes WHERE empresa_id = v.empresa_id AND venta_id = v.id;
  signo := CASE WHEN v.estado IN ('pendiente', 'pagada') AND NOT v.eliminado
    THEN CASE WHEN v.tipo_comprobante = 'nota_credito' THEN -1 ELSE 1 END ELSE 0 END;
  tc := coalesce(v.tipo_cambio, 1);
  IF a.venta_id IS NOT NULL AND (signo = 0 OR a.signo <> signo OR a.fecha <> v.fecha_venta
      OR a.sucursal_id <> coalesce(v.sucursal_id, 0)) THEN
    -- take the old contribution back
    PERFORM 1 FROM resumen_productos_dia r
      WHERE r.empresa_id = a.empresa_id AND r.fecha = a.fecha AND r.sucursal_id = a.sucursal_id
        AND r.producto_id IN (SELECT d.producto_id FROM detalles_venta d WHERE d.empresa_id = a.empresa_id AND d.venta_id = a.venta_id)
      ORDER BY r.producto_id FOR UPDATE;
    UPDATE resumen_productos_dia r SET cantidad = r.cantidad - a.signo * x.cantidad, monto = r.monto - a.signo * x.monto
      FROM (SELECT d.producto_id, sum(d.cantidad) AS cantidad, round(sum(d.subtotal - d.descuento) * tc, 2) AS monto
            FROM detalles_venta d WHERE d.empresa_id = a.empresa_id AND d.venta_id = a.venta_id GROUP BY d.producto_id) x
      WHERE r.empresa_id = a.empresa_id AND r.fecha = a.fecha AND r.sucursal_id = a.sucursal_id AND r.producto_id = x.producto_id;
    DELETE FROM resumen_ventas_aportes WHERE empresa_id = a.empresa_id AND venta_id = a.venta_id;
    UPDATE resumen_ventas_dia SET cantidad = cantidad - a.signo, monto = monto - a.monto
      WHERE empresa_id = a.empresa_id AND fecha = a.fecha AND sucursal_id = a.sucursal_id;
    a.venta_id := NULL;
  END IF;
  IF signo <> 0 AND a.venta_id IS NULL THEN
    INSERT INTO resumen_productos_dia AS r (empresa_id, sucursal_id, fecha, producto_id, cantidad, monto)
      SELECT v.empresa_id, coalesce(v.sucursal_id, 0), v.fecha_venta, d.producto_id, signo * sum(d.cantidad),
        signo * round(sum(d.subtotal - d.descuento) * tc, 2)
      FROM detalles_venta d WHERE d.empresa_id = v.empresa_id AND d.venta_id = v.id GROUP BY d.producto_id ORDER BY d.producto_id
      ON CONFLICT (empresa_id, fecha, sucursal_id, producto_id) DO UPDATE
        SET cantidad = r.cantidad + excluded.cantidad, monto = r.monto + excluded.monto;
    INSERT INTO resumen_ventas_aportes (empresa_id, venta_id, sucursal_id, fecha, signo, monto)
      VALUES (v.empresa_id, v.id, coalesce(v.sucursal_id, 0), v.fecha_venta, signo, signo * round(v.monto_total * tc, 2));
    INSERT INTO resumen_ventas_dia AS r (empresa_id, sucursal_id, fecha, cantidad, monto)
      VALUES (v.empresa_id, coalesce(v.sucursal_id, 0), v.fecha_venta, signo, signo * round(v.monto_total * tc, 2))
      ON CONFLICT (empresa_id, fecha, sucursal_id) DO UPDATE SET cantidad = r.cantidad + excluded.cantidad, monto = r.monto + excluded.monto;
  END IF;
END $$;

CREATE OR REPLACE FUNCTION dashboard_reconstruir(p_empresa bigint) RETURNS void
LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM resumen_ventas_dia WHERE empresa_id = p_empresa;
  DELETE FROM resumen_productos_dia WHERE empresa_id = p_empresa;
  DELETE FROM resumen_ventas_aportes WHERE empresa_id = p_empresa;
  INSERT INTO resumen_ventas_aportes (empresa_id, venta_id, sucursal_id, fecha, signo, monto)
    SELECT empresa_id, id, coalesce(sucursal_id, 0), fecha_venta, s, s * round(monto_total * tipo_cambio, 2)
    FROM (SELECT *, CASE WHEN tipo_comprobante = 'nota_credito' THEN -1 ELSE 1 END AS s FROM ventas
          WHERE empresa_id = p_empresa AND estado IN ('pendiente', 'pagada') AND NOT eliminado) v;
  INSERT INTO resumen_ventas_dia (empresa_id, sucursal_id, fecha, cantidad, monto)
    SELECT empresa_id, sucursal_id, fecha, sum(signo), sum(monto) FROM resumen_ventas_aportes WHERE empresa_id = p_empresa
    GROUP BY 1, 2, 3;
  INSERT INTO resumen_productos_dia (empresa_id, sucursal_id, fecha, producto_id, cantidad, monto)
    SELECT empresa_id, sucursal_id, fecha, producto_id, sum(cantidad), sum(monto)
    FROM (SELECT a.empresa_id, a.sucursal_id, a.fecha, d.producto_id, a.signo * sum(d.cantidad) AS cantidad,
            a.signo * round(sum(d.subtotal - d.descuento) * v.tipo_cambio, 2) AS monto
          FROM resumen_ventas_aportes a
          JOIN ventas v ON v.empresa_id = a.empresa_id AND v.id = a.venta_id
          JOIN detalles_venta d ON d.empresa_id = a.empresa_id AND d.venta_id = a.venta_id
          WHERE a.empresa_id = p_empresa GROUP BY a.empresa_id, a.sucursal_id, a.fecha, d.producto_id, a.venta_id, a.signo, v.tipo_cambio) x
    GROUP BY 1, 2, 3, 4;
  INSERT INTO dashboard_versiones AS d (empresa_id, version) VALUES (p_empresa, 1)
    ON CONFLICT (empresa_id) DO UPDATE SET version = d.version + 1;
END $$;

DO $$
DECLARE e bigint;
BEGIN
  FOR e IN SELECT DISTINCT empresa_id FROM ventas WHERE tipo_cambio <> 1 LOOP
    PERFORM dashboard_reconstruir(e);
  END LOOP;
END $$;
