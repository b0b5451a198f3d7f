-- Sales: the payment condition of a sale (contado or credito; a credit sale
-- opens a receivable), when it was cancelled, and the indexes of the sales
-- and receivables lists and of the customer detail view.

ALTER TABLE ventas ADD COLUMN condicion_venta varchar(10) NOT NULL DEFAULT 'contado'
  CHECK (condicion_venta IN ('contado', 'credito'));
ALTER TABLE ventas ADD COLUMN anulado_en timestamptz;

-- ?search= on numero_comprobante (contains, case-insensitive).
CREATE INDEX ventas_numero_busqueda ON ventas USING gin (numero_comprobante gin_trgm_ops);
CREATE INDEX ventas_recientes ON ventas (empresa_id, id DESC) WHERE NOT eliminado;

-- Receivables of a customer (detail view, ?cliente_id=) and the overdue ones.
CREATE INDEX cuentas_por_cobrar_cliente ON cuentas_por_cobrar (empresa_id, cliente_id, estado) WHERE NOT eliminado;
CREATE INDEX cuentas_por_cobrar_vencidas ON cuentas_por_cobrar (empresa_id, fecha_vencimiento)
  WHERE estado = 'pendiente' AND NOT eliminado;

-- Rules the database keeps by itself, whatever code path writes: a line's
-- discount never exceeds its subtotal, a balance never exceeds its amount.
ALTER TABLE detalles_venta ADD CONSTRAINT detalles_venta_descuento_max CHECK (descuento <= subtotal);
ALTER TABLE cuentas_por_cobrar ADD CONSTRAINT cuentas_por_cobrar_saldo_max CHECK (saldo <= monto);
