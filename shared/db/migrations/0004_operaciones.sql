-- Operations: sales, purchase orders, inventory movements, receivables and
-- payables with their payments, per-company document counters, the domain
-- event outbox and idempotency keys.
--
-- Money is numeric(18,2), quantities numeric(16,3) (Hacienda's CantidadType
-- allows 3 decimals), unit costs numeric(18,4). Every table is a tenant
-- table under row-level security; tenant keys (empresa_id, id) let children
-- reference parents of the same company only.

-- Per-company counters for document numbers (FAC-00000001, OC-000001, ...).
-- Incremented with an upsert in the document's own transaction: concurrent
-- documents never collide, and a rolled-back document gives its number back.
CREATE TABLE contadores (
  empresa_id     bigint NOT NULL REFERENCES empresas(id),
  clave          varchar(60) NOT NULL,
  valor          bigint NOT NULL DEFAULT 0,
  actualizado_en timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (empresa_id, clave)
);

CREATE TABLE ventas (
  id                 bigserial PRIMARY KEY,
  empresa_id         bigint NOT NULL REFERENCES empresas(id),
  sucursal_id        bigint,
  cliente_id         bigint,
  usuario_id         bigint NOT NULL REFERENCES usuarios(id),
  forma_pago_id      bigint REFERENCES formas_pago(id),
  almacen_id         bigint,
  numero_comprobante varchar(20) NOT NULL,
  tipo_comprobante   varchar(20) NOT NULL CHECK (tipo_comprobante IN ('factura', 'tiquete', 'nota_credito', 'nota_debito')),
  fecha_venta        date NOT NULL,
  estado             varchar(20) NOT NULL CHECK (estado IN ('borrador', 'pendiente', 'pagada', 'anulada')),
  observaciones      varchar(2000),
  moneda             varchar(3) NOT NULL DEFAULT 'CRC',
  tipo_cambio        numeric(18,5) NOT NULL DEFAULT 1,
  monto_subtotal     numeric(18,2) NOT NULL DEFAULT 0,
  monto_descuentos   numeric(18,2) NOT NULL DEFAULT 0,
  monto_impuestos    numeric(18,2) NOT NULL DEFAULT 0,
  monto_total        numeric(18,2) NOT NULL DEFAULT 0,
  activo             boolean NOT NULL DEFAULT true,
  eliminado          boolean NOT NULL DEFAULT false,
  creado_en          timestamptz NOT NULL DEFAULT now(),
  actualizado_en     timestamptz NOT NULL DEFAULT now(),
  UNIQUE (empresa_id, id),
  UNIQUE (empresa_id, numero_comprobante),
  FOREIGN KEY (empresa_id, sucursal_id) REFERENCES sucursales (empresa_id, id),
  FOREIGN KEY (empresa_id, cliente_id) REFERENCES clientes (empresa_id, id),
  FOREIGN KEY (empresa_id, almacen_id) REFERENCES almacenes (empresa_id, id)
);
CREATE INDEX ventas_fecha ON ventas (empresa_id, fecha_venta) WHERE NOT eliminado;
CREATE INDEX ventas_cliente ON ventas (empresa_id, cliente_id) WHERE NOT eliminado;

CREATE TABLE detalles_venta (
  id                  bigserial PRIMARY KEY,
  empresa_id          bigint NOT NULL REFERENCES empresas(id),
  venta_id            bigint NOT NULL,
  linea               integer NOT NULL,
  producto_id         bigint NOT NULL,
  descripcion         varchar(1000),
  cantidad            numeric(16,3) NOT NULL CHECK (cantidad >= 0.01),
  precio_unitario     numeric(18,2) NOT NULL CHECK (precio_unitario >= 0),
  descuento           numeric(18,2) NOT NULL DEFAULT 0 CHECK (descuento >= 0),
  porcentaje_impuesto numeric(5,2) NOT NULL DEFAULT 0 CHECK (porcentaje_impuesto BETWEEN 0 AND 100),
  subtotal            numeric(18,2) NOT NULL,
  monto_impuesto      numeric(18,2) NOT NULL,
  total               numeric(18,2) NOT NULL,
  creado_en           timestamptz NOT NULL DEFAULT now(),
  actualizado_en      timestamptz NOT NULL DEFAULT now(),
  UNIQUE (empresa_id, venta_id, linea),
  FOREIGN KEY (empresa_id, venta_id) REFERENCES ventas (empresa_id, id),
  FOREIGN KEY (empresa_id, producto_id) REFERENCES productos (empresa_id, id)
);

CREATE TABLE ordenes_compra (
  id                     bigserial PRIMARY KEY,
  empresa_id             bigint NOT NULL REFERENCES empresas(id),
  proveedor_id           bigint NOT NULL,
  usuario_id             bigint NOT NULL REFERENCES usuarios(id),
  almacen_id             bigint,
  numero_orden           varchar(20) NOT NULL,
  fecha_orden            date NOT NULL,
  fecha_entrega_estimada date,
  estado                 varchar(20) NOT NULL CHECK (estado IN ('borrador', 'pendiente', 'aprobada', 'recibida', 'cancelada')),
  observaciones          varchar(2000),
  monto_subtotal         numeric(18,2) NOT NULL DEFAULT 0,
  monto_descuentos       numeric(18,2) NOT NULL DEFAULT 0,
  monto_impuestos        numeric(18,2) NOT NULL DEFAULT 0,
  monto_total            numeric(18,2) NOT NULL DEFAULT 0,
  aprobado_en            timestamptz,
  recibido_en            timestamptz,
  cancelado_en           timestamptz,
  activo                 boolean NOT NULL DEFAULT true,
  eliminado              boolean NOT NULL DEFAULT false,
  creado_en              timestamptz NOT NULL DEFAULT now(),
  actualizado_en         timestamptz NOT NULL DEFAULT now(),
  UNIQUE (empresa_id, id),
  UNIQUE (empresa_id, numero_orden),
  CHECK (fecha_entrega_estimada IS NULL OR fecha_entrega_estimada >= fecha_orden),
  FOREIGN KEY (empresa_id, proveedor_id) REFERENCES proveedores (empresa_id, id),
  FOREIGN KEY (empresa_id, almacen_id) REFERENCES almacenes (empresa_id, id)
);
CREATE INDEX ordenes_compra_proveedor ON ordenes_compra (empresa_id, proveedor_id) WHERE NOT eliminado;

CREATE TABLE detalles_orden_compra (
  id                  bigserial PRIMARY KEY,
  empresa_id          bigint NOT NULL REFERENCES empresas(id),
  orden_compra_id     bigint NOT NULL,
  linea               integer NOT NULL,
  producto_id         bigint NOT NULL,
  descripcion         varchar(1000),
  cantidad            numeric(16,3) NOT NULL CHECK (cantidad > 0),
  cantidad_recibida   numeric(16,3) NOT NULL DEFAULT 0 CHECK (cantidad_recibida >= 0),
  precio_unitario     numeric(18,2) NOT NULL CHECK (precio_unitario >= 0),
  descuento           numeric(18,2) NOT NULL DEFAULT 0 CHECK (descuento >= 0),
  porcentaje_impuesto numeric(5,2) NOT NULL DEFAULT 0 CHECK (porcentaje_impuesto BETWEEN 0 AND 100),
  subtotal            numeric(18,2) NOT NULL,
  monto_impuesto      numeric(18,2) NOT NULL,
  total               numeric(18,2) NOT NULL,
  creado_en           timestamptz NOT NULL DEFAULT now(),
  actualizado_en      timestamptz NOT NULL DEFAULT now(),
  UNIQUE (empresa_id, orden_compra_id, linea),
  FOREIGN KEY (empresa_id, orden_compra_id) REFERENCES ordenes_compra (empresa_id, id),
  FOREIGN KEY (empresa_id, producto_id) REFERENCES productos (empresa_id, id)
);

-- Inventory movements: entries (clase entrada) and exits (clase salida).
CREATE TABLE movimientos_inventario (
  id                 bigserial PRIMARY KEY,
  empresa_id         bigint NOT NULL REFERENCES empresas(id),
  clase              varchar(10) NOT NULL CHECK (clase IN ('entrada', 'salida')),
  tipo               varchar(30) NOT NULL,
  estado             varchar(20) NOT NULL DEFAULT 'Pendiente' CHECK (estado IN ('Pendiente', 'Procesada', 'Cancelada')),
  numero             varchar(20) NOT NULL,
  almacen_id         bigint NOT NULL,
  fecha              date NOT NULL DEFAULT current_date,
  usuario_id         bigint REFERENCES usuarios(id),
  orden_compra_id    bigint,
  venta_id           bigint,
  proveedor_id       bigint,
  cliente_id         bigint,
  -- A transfer is an exit and an entry that point at each other.
  movimiento_par_id  bigint,
  observaciones      varchar(2000),
  procesado_en       timestamptz,
  cancelado_en       timestamptz,
  activo             boolean NOT NULL DEFAULT true,
  eliminado          boolean NOT NULL DEFAULT false,
  creado_en          timestamptz NOT NULL DEFAULT now(),
  actualizado_en     timestamptz NOT NULL DEFAULT now(),
  UNIQUE (empresa_id, id),
  UNIQUE (empresa_id, numero),
  CHECK ((clase = 'entrada' AND tipo IN ('Compra', 'Ajuste Positivo', 'Devolucion Cliente', 'Transferencia', 'Produccion'))
      OR (clase = 'salida' AND tipo IN ('Venta', 'Ajuste Negativo', 'Devolucion Proveedor', 'Transferencia', 'Consumo Interno'))),
  FOREIGN KEY (empresa_id, almacen_id) REFERENCES almacenes (empresa_id, id),
  FOREIGN KEY (empresa_id, orden_compra_id) REFERENCES ordenes_compra (empresa_id, id),
  FOREIGN KEY (empresa_id, venta_id) REFERENCES ventas (empresa_id, id),
  FOREIGN KEY (empresa_id, proveedor_id) REFERENCES proveedores (empresa_id, id),
  FOREIGN KEY (empresa_id, cliente_id) REFERENCES clientes (empresa_id, id)
);
CREATE INDEX movimientos_inventario_clase ON movimientos_inventario (empresa_id, clase, estado) WHERE NOT eliminado;
CREATE INDEX movimientos_inventario_venta ON movimientos_inventario (empresa_id, venta_id) WHERE venta_id IS NOT NULL;
CREATE INDEX movimientos_inventario_orden ON movimientos_inventario (empresa_id, orden_compra_id) WHERE orden_compra_id IS NOT NULL;

CREATE TABLE detalles_movimiento (
  id                bigserial PRIMARY KEY,
  empresa_id        bigint NOT NULL REFERENCES empresas(id),
  movimiento_id     bigint NOT NULL,
  linea             integer NOT NULL,
  producto_id       bigint NOT NULL,
  cantidad          numeric(16,3) NOT NULL CHECK (cantidad > 0),
  costo_unitario    numeric(18,4) NOT NULL DEFAULT 0 CHECK (costo_unitario >= 0),
  lote              varchar(100),
  fecha_vencimiento date,
  creado_en         timestamptz NOT NULL DEFAULT now(),
  actualizado_en    timestamptz NOT NULL DEFAULT now(),
  UNIQUE (empresa_id, id),
  UNIQUE (empresa_id, movimiento_id, linea),
  FOREIGN KEY (empresa_id, movimiento_id) REFERENCES movimientos_inventario (empresa_id, id),
  FOREIGN KEY (empresa_id, producto_id) REFERENCES productos (empresa_id, id)
);

-- What each exit line consumed, batch by batch (FIFO), at which cost.
CREATE TABLE consumos_lote (
  id             bigserial PRIMARY KEY,
  empresa_id     bigint NOT NULL REFERENCES empresas(id),
  detalle_id     bigint NOT NULL,
  inventario_id  bigint NOT NULL,
  cantidad       numeric(16,3) NOT NULL CHECK (cantidad > 0),
  costo_unitario numeric(18,4) NOT NULL,
  creado_en      timestamptz NOT NULL DEFAULT now(),
  actualizado_en timestamptz NOT NULL DEFAULT now(),
  FOREIGN KEY (empresa_id, detalle_id) REFERENCES detalles_movimiento (empresa_id, id),
  FOREIGN KEY (empresa_id, inventario_id) REFERENCES inventarios (empresa_id, id)
);
CREATE INDEX inventarios_fifo ON inventarios (empresa_id, almacen_id, producto_id, fecha_vencimiento, id) WHERE NOT eliminado;

CREATE TABLE cuentas_por_cobrar (
  id                bigserial PRIMARY KEY,
  empresa_id        bigint NOT NULL REFERENCES empresas(id),
  cliente_id        bigint,
  venta_id          bigint NOT NULL,
  monto             numeric(18,2) NOT NULL CHECK (monto >= 0),
  saldo             numeric(18,2) NOT NULL CHECK (saldo >= 0),
  fecha_emision     date NOT NULL,
  fecha_vencimiento date NOT NULL,
  estado            varchar(20) NOT NULL DEFAULT 'pendiente' CHECK (estado IN ('pendiente', 'pagada', 'anulada')),
  activo            boolean NOT NULL DEFAULT true,
  eliminado         boolean NOT NULL DEFAULT false,
  creado_en         timestamptz NOT NULL DEFAULT now(),
  actualizado_en    timestamptz NOT NULL DEFAULT now(),
  UNIQUE (empresa_id, id),
  UNIQUE (empresa_id, venta_id),
  FOREIGN KEY (empresa_id, cliente_id) REFERENCES clientes (empresa_id, id),
  FOREIGN KEY (empresa_id, venta_id) REFERENCES ventas (empresa_id, id)
);

CREATE TABLE cuentas_por_pagar (
  id                bigserial PRIMARY KEY,
  empresa_id        bigint NOT NULL REFERENCES empresas(id),
  proveedor_id      bigint NOT NULL,
  orden_compra_id   bigint NOT NULL,
  monto             numeric(18,2) NOT NULL CHECK (monto >= 0),
  saldo             numeric(18,2) NOT NULL CHECK (saldo >= 0),
  fecha_emision     date NOT NULL,
  fecha_vencimiento date NOT NULL,
  estado            varchar(20) NOT NULL DEFAULT 'pendiente' CHECK (estado IN ('pendiente', 'pagada', 'anulada')),
  activo            boolean NOT NULL DEFAULT true,
  eliminado         boolean NOT NULL DEFAULT false,
  creado_en         timestamptz NOT NULL DEFAULT now(),
  actualizado_en    timestamptz NOT NULL DEFAULT now(),
  UNIQUE (empresa_id, id),
  UNIQUE (empresa_id, orden_compra_id),
  FOREIGN KEY (empresa_id, proveedor_id) REFERENCES proveedores (empresa_id, id),
  FOREIGN KEY (empresa_id, orden_compra_id) REFERENCES ordenes_compra (empresa_id, id)
);

CREATE TABLE pagos (
  id                   bigserial PRIMARY KEY,
  empresa_id           bigint NOT NULL REFERENCES empresas(id),
  cuenta_por_cobrar_id bigint,
  cuenta_por_pagar_id  bigint,
  monto                numeric(18,2) NOT NULL CHECK (monto > 0),
  fecha                date NOT NULL,
  forma_pago_id        bigint REFERENCES formas_pago(id),
  referencia           varchar(100),
  usuario_id           bigint REFERENCES usuarios(id),
  activo               boolean NOT NULL DEFAULT true,
  eliminado            boolean NOT NULL DEFAULT false,
  creado_en            timestamptz NOT NULL DEFAULT now(),
  actualizado_en       timestamptz NOT NULL DEFAULT now(),
  CHECK ((cuenta_por_cobrar_id IS NULL) <> (cuenta_por_pagar_id IS NULL)),
  FOREIGN KEY (empresa_id, cuenta_por_cobrar_id) REFERENCES cuentas_por_cobrar (empresa_id, id),
  FOREIGN KEY (empresa_id, cuenta_por_pagar_id) REFERENCES cuentas_por_pagar (empresa_id, id)
);
CREATE INDEX pagos_cxc ON pagos (empresa_id, cuenta_por_cobrar_id) WHERE cuenta_por_cobrar_id IS NOT NULL;
CREATE INDEX pagos_cxp ON pagos (empresa_id, cuenta_por_pagar_id) WHERE cuenta_por_pagar_id IS NOT NULL;

-- The domain-event outbox, written in the transaction of the change.
CREATE TABLE eventos (
  id             uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  secuencia      bigserial NOT NULL,
  empresa_id     bigint NOT NULL REFERENCES empresas(id),
  tipo           varchar(60) NOT NULL,
  ocurrido_en    timestamptz NOT NULL DEFAULT now(),
  payload        jsonb NOT NULL,
  publicado_en   timestamptz,
  UNIQUE (empresa_id, secuencia)
);
CREATE INDEX eventos_pendientes ON eventos (secuencia) WHERE publicado_en IS NULL;
CREATE INDEX eventos_empresa ON eventos (empresa_id, tipo, secuencia);

-- Idempotency-Key records (kept at least 24 hours).
CREATE TABLE claves_idempotencia (
  empresa_id  bigint NOT NULL REFERENCES empresas(id),
  clave       varchar(255) NOT NULL,
  ruta        varchar(255) NOT NULL,
  huella      bytea NOT NULL,
  estado_http integer NOT NULL,
  respuesta   bytea NOT NULL,
  creado_en   timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (empresa_id, clave)
);
CREATE INDEX claves_idempotencia_creado ON claves_idempotencia (creado_en);

DO $$
DECLARE t text;
BEGIN
  FOREACH t IN ARRAY ARRAY['contadores', 'ventas', 'detalles_venta', 'ordenes_compra', 'detalles_orden_compra',
                           'movimientos_inventario', 'detalles_movimiento', 'consumos_lote', 'cuentas_por_cobrar',
                           'cuentas_por_pagar', 'pagos', 'eventos', 'claves_idempotencia'] LOOP
    EXECUTE format('ALTER TABLE %I ENABLE ROW LEVEL SECURITY', t);
    EXECUTE format('CREATE POLICY %I ON %I USING (empresa_id = app_empresa_id()) WITH CHECK (empresa_id = app_empresa_id())', t || '_tenant', t);
    EXECUTE format('GRANT SELECT, INSERT, UPDATE ON %I TO erp_app', t);
    IF t NOT IN ('contadores', 'claves_idempotencia') THEN
      IF t <> 'eventos' THEN
        EXECUTE format('CREATE TRIGGER %I BEFORE UPDATE ON %I FOR EACH ROW EXECUTE FUNCTION tocar_actualizado_en()', t || '_actualizado_en', t);
        EXECUTE format('GRANT USAGE ON SEQUENCE %I TO erp_app', t || '_id_seq');
      END IF;
    END IF;
  END LOOP;
END $$;
GRANT USAGE ON SEQUENCE eventos_secuencia_seq TO erp_app;
GRANT DELETE ON detalles_venta, detalles_orden_compra, claves_idempotencia TO erp_app;

-- One stock row per warehouse, product and batch (lote + expiry), so entries
-- of the same batch accumulate and FIFO exits consume whole batches in order.
CREATE UNIQUE INDEX inventarios_lote_key ON inventarios
  (empresa_id, almacen_id, producto_id, coalesce(lote, ''), coalesce(fecha_vencimiento, 'infinity'::date))
  WHERE NOT eliminado;
