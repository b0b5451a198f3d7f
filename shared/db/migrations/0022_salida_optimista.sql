-- A sale plans its stock exit from an unlocked read of the batches (one
-- round trip before it writes anything) and locks them only in its last
-- round trip, the one that ends in COMMIT, so that concurrent sales of a
-- company hold the contended rows (batches, then the counters of the sale's
-- and of the exit's series) for that one round trip only. This function is
-- the lock and the check of that plan: it locks the batches the plan takes
-- from in the order every exit locks them (product, then first-expiring,
-- oldest, id: QueueLotes in shared/inventario), then checks with a fresh
-- snapshot (READ COMMITTED: each statement of a volatile function takes
-- one, after the locks were granted) that each still exists, holds at
-- least what the plan takes from it and costs what the plan recorded.
-- Otherwise another transaction took from it meanwhile: SQLSTATE ZS001
-- (db.PlanVencido) aborts the transaction, which the API runs again on a
-- fresh read (where a real shortage is the usual 422).
CREATE FUNCTION inventario_tomar_lotes(p_empresa bigint, p_ids bigint[], p_tomar numeric[], p_costos numeric[]) RETURNS void
LANGUAGE plpgsql AS $$
BEGIN
  PERFORM 1 FROM inventarios WHERE empresa_id = p_empresa AND id = ANY (p_ids)
    ORDER BY producto_id, fecha_vencimiento NULLS LAST, creado_en, id
    FOR UPDATE;
  IF EXISTS (SELECT 1 FROM unnest(p_ids, p_tomar, p_costos) AS x(id, tomar, costo)
      LEFT JOIN inventarios i ON i.empresa_id = p_empresa AND i.id = x.id
      WHERE i.id IS NULL OR i.eliminado OR i.cantidad_disponible < x.tomar OR i.costo_unitario <> x.costo) THEN
    RAISE EXCEPTION 'inventario: los lotes cambiaron desde que se planeó la salida' USING ERRCODE = 'ZS001';
  END IF;
END $$;
REVOKE ALL ON FUNCTION inventario_tomar_lotes(bigint, bigint[], numeric[], numeric[]) FROM PUBLIC;
GRANT EXECUTE ON FUNCTION inventario_tomar_lotes(bigint, bigint[], numeric[], numeric[]) TO erp_app;
