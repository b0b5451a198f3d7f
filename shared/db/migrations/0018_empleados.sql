-- 0018: employees (issue 15, "Employees"; shared/empleados). The payroll
-- (nomina) builds on this table: one row per person the company employs,
-- with what the payroll needs (salary, pay period, working day, children and
-- spouse for the income-tax credits) and an optional link to a system user.
--
-- Soft delete and timestamps like the other master data (activo, eliminado,
-- creado_en, actualizado_en); estado is the employment status, independent
-- of activo (the record's own switch).

CREATE TABLE empleados (
  id                  bigserial PRIMARY KEY,
  empresa_id          bigint NOT NULL REFERENCES empresas(id),
  nombre              varchar(255) NOT NULL,
  apellidos           varchar(255) NOT NULL,
  tipo_identificacion varchar(20) NOT NULL REFERENCES tipos_identificacion(codigo),
  identificacion      varchar(50) NOT NULL,
  fecha_nacimiento    date NOT NULL,
  fecha_ingreso       date NOT NULL,
  fecha_salida        date,
  puesto              varchar(255) NOT NULL,
  departamento        varchar(255),
  sucursal_id         bigint,
  salario_base        numeric(18,2) NOT NULL CHECK (salario_base > 0),
  tipo_pago           varchar(10) NOT NULL DEFAULT 'mensual' CHECK (tipo_pago IN ('mensual', 'quincenal', 'semanal')),
  jornada             varchar(10) NOT NULL DEFAULT 'diurna' CHECK (jornada IN ('diurna', 'mixta', 'nocturna')),
  estado              varchar(15) NOT NULL DEFAULT 'activo'
                      CHECK (estado IN ('activo', 'vacaciones', 'incapacitado', 'suspendido', 'inactivo')),
  usuario_id          bigint,
  email               varchar(255),
  telefono            varchar(20),
  -- Costa Rican IBAN: CR, 2 check digits (ISO 13616 mod 97), 18 digits.
  cuenta_iban         varchar(22) CHECK (cuenta_iban ~ '^CR[0-9]{20}$'),
  hijos               integer NOT NULL DEFAULT 0 CHECK (hijos >= 0),
  conyuge             boolean NOT NULL DEFAULT false,
  activo              boolean NOT NULL DEFAULT true,
  eliminado           boolean NOT NULL DEFAULT false,
  creado_en           timestamptz NOT NULL DEFAULT now(),
  actualizado_en      timestamptz NOT NULL DEFAULT now(),
  busqueda            text GENERATED ALWAYS AS (busqueda(nombre, apellidos, identificacion, puesto, departamento, email)) STORED,
  UNIQUE (empresa_id, id),
  FOREIGN KEY (empresa_id, sucursal_id) REFERENCES sucursales (empresa_id, id),
  -- The linked user must be a member of the company.
  FOREIGN KEY (empresa_id, usuario_id) REFERENCES membresias (empresa_id, usuario_id),
  CHECK (fecha_salida IS NULL OR fecha_salida >= fecha_ingreso)
);
-- A deleted employee frees its identification and its user. The names
-- contain the column (recurso maps a unique violation to its field by it).
CREATE UNIQUE INDEX empleados_identificacion_key ON empleados (empresa_id, identificacion) WHERE NOT eliminado;
CREATE UNIQUE INDEX empleados_usuario_id_key ON empleados (empresa_id, usuario_id) WHERE NOT eliminado AND usuario_id IS NOT NULL;
CREATE INDEX empleados_sucursal ON empleados (empresa_id, sucursal_id) WHERE NOT eliminado;
CREATE INDEX empleados_busqueda ON empleados USING gin (busqueda gin_trgm_ops);

ALTER TABLE empleados ENABLE ROW LEVEL SECURITY;
CREATE POLICY empleados_tenant ON empleados
  USING (empresa_id = app_empresa_id()) WITH CHECK (empresa_id = app_empresa_id());
GRANT SELECT, INSERT, UPDATE ON empleados TO erp_app;
GRANT USAGE ON SEQUENCE empleados_id_seq TO erp_app;
CREATE TRIGGER empleados_actualizado_en BEFORE UPDATE ON empleados FOR EACH ROW EXECUTE FUNCTION tocar_actualizado_en();
