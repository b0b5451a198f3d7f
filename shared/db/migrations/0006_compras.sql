-- Purchases: guards and indexes for purchase orders, their receipts and the
-- payables they leave. The tables themselves come from 0004; this adds the
-- rules the database can keep by itself, so that no code path (or a future
-- one) can store an over-received line, a discount above its line, or a
-- payable paid beyond its amount.

ALTER TABLE detalles_orden_compra
  ADD CONSTRAINT detalles_orden_compra_recibida_max CHECK (cantidad_recibida <= cantidad),
  ADD CONSTRAINT detalles_orden_compra_descuento_max CHECK (descuento <= subtotal);

ALTER TABLE cuentas_por_pagar
  ADD CONSTRAINT cuentas_por_pagar_saldo_max CHECK (saldo <= monto);

-- List filters: estado / pendientes / activas, and the search on numero_orden.
CREATE INDEX ordenes_compra_estado ON ordenes_compra (empresa_id, estado) WHERE NOT eliminado;
CREATE INDEX ordenes_compra_numero_trgm ON ordenes_compra USING gin (numero_orden gin_trgm_ops);

-- Payables by supplier, and the overdue ones (pendiente and past due).
CREATE INDEX cuentas_por_pagar_proveedor ON cuentas_por_pagar (empresa_id, proveedor_id) WHERE NOT eliminado;
CREATE INDEX cuentas_por_pagar_vencimiento ON cuentas_por_pagar (empresa_id, estado, fecha_vencimiento) WHERE NOT eliminado;
