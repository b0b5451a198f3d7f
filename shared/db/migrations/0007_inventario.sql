-- Inventory endpoints: the indexes their reads need and the link between the
-- two halves of a transfer.

-- A transfer's exit and entry point at each other, within the same company.
ALTER TABLE movimientos_inventario
  ADD CONSTRAINT movimientos_inventario_par_fkey
  FOREIGN KEY (empresa_id, movimiento_par_id) REFERENCES movimientos_inventario (empresa_id, id);

-- Lists filter by class and date (fecha_inicio / fecha_fin) and show newest first.
CREATE INDEX movimientos_inventario_fecha ON movimientos_inventario (empresa_id, clase, fecha, id) WHERE NOT eliminado;
CREATE INDEX movimientos_inventario_almacen ON movimientos_inventario (empresa_id, almacen_id, clase) WHERE NOT eliminado;

-- The show of an exit and Consumido read the batches consumed by its lines.
CREATE INDEX consumos_lote_detalle ON consumos_lote (empresa_id, detalle_id);

-- Movements containing a product (filter producto_id).
CREATE INDEX detalles_movimiento_producto ON detalles_movimiento (empresa_id, producto_id);
