-- 0020: payroll (issue 15, "Payroll"; shared/nomina): the legal rates as
-- data with effective dates and their source (a global table every company
-- reads and only a platform administrator changes), the per-company
-- vacation provision, planillas with one line per employee, their number
-- per company, and the dashboard's pending-payroll figure kept current.
--
-- The calculation itself is Go (shared/nomina/calculo.go) over these rows;
-- posting the paid planilla goes through contabilidad_registrar (0012).

-- nomina_tarifas: every rate the calculation uses, in force from
-- vigente_desde to vigente_hasta (null: until replaced).
--   tipo obrero / patronal: porcentaje of gross salary, one row per item;
--   tipo renta_tramo: monthly bracket (desde, hasta] taxed at porcentaje
--     (hasta null: no upper bound), Ley 7092 art. 33;
--   tipo credito: monthly tax credit (monto) per child (hijo) or for the
--     spouse (conyuge), Ley 7092 art. 34;
--   tipo provision: porcentaje of gross provisioned by the employer
--     (aguinaldo, Ley 2412: one twelfth = 8.33 %).
CREATE TABLE nomina_tarifas (
  id             bigserial PRIMARY KEY,
  tipo           varchar(15) NOT NULL CHECK (tipo IN ('obrero', 'patronal', 'renta_tramo', 'credito', 'provision')),
  concepto       varchar(60) NOT NULL,
  descripcion    varchar(255),
  porcentaje     numeric(7,4) CHECK (porcentaje >= 0 AND porcentaje <= 100),
  monto          numeric(18,2) CHECK (monto >= 0),
  desde          numeric(18,2) CHECK (desde >= 0),
  hasta          numeric(18,2),
  vigente_desde  date NOT NULL,
  vigente_hasta  date,
  fuente         varchar(500) NOT NULL CHECK (length(btrim(fuente)) > 0),
  creado_en      timestamptz NOT NULL DEFAULT now(),
  actualizado_en timestamptz NOT NULL DEFAULT now(),
  CONSTRAINT nomina_tarifas_vigencia CHECK (vigente_hasta IS NULL OR vigente_hasta >= vigente_desde),
  CONSTRAINT nomina_tarifas_forma CHECK (CASE tipo
    WHEN 'credito' THEN monto IS NOT NULL AND porcentaje IS NULL
    WHEN 'renta_tramo' THEN porcentaje IS NOT NULL AND desde IS NOT NULL AND (hasta IS NULL OR hasta > desde)
    ELSE porcentaje IS NOT NULL AND monto IS NULL END)
);
CREATE UNIQUE INDEX nomina_tarifas_concepto ON nomina_tarifas (tipo, concepto, vigente_desde);
CREATE INDEX nomina_tarifas_vigencia ON nomina_tarifas (vigente_desde, vigente_hasta);
-- Global catalog, like tipos_impuesto and marcas: no row-level security,
-- because no company owns a rate and every company's payroll reads the same
-- legal rates. erp_app may write because platform administrators edit it
-- through the API; the route guard (Platform routes) refuses every other
-- user, and no tenant table references it.
GRANT SELECT, INSERT, UPDATE ON nomina_tarifas TO erp_app;
GRANT USAGE ON SEQUENCE nomina_tarifas_id_seq TO erp_app;
CREATE TRIGGER nomina_tarifas_actualizado_en BEFORE UPDATE ON nomina_tarifas FOR EACH ROW EXECUTE FUNCTION tocar_actualizado_en();

INSERT INTO nomina_tarifas (tipo, concepto, descripcion, porcentaje, monto, desde, hasta, vigente_desde, vigente_hasta, fuente) VALUES
  -- 2025 (until the IVM step of 2026-01-01)
  ('obrero', 'SEM', 'CCSS Seguro de Enfermedad y Maternidad (trabajador)', 5.50, NULL, NULL, NULL, '2025-01-01', '2025-12-31',
    'CCSS, Reglamento del Seguro de Salud, cuota obrera 5,50 %'),
  ('obrero', 'IVM', 'CCSS Invalidez, Vejez y Muerte (trabajador)', 4.17, NULL, NULL, NULL, '2025-01-01', '2025-12-31',
    'CCSS, Reglamento del Seguro de IVM, transitorio XI (escalón 2023-2025: 4,17 %); La Nación 2023-01 y 2025-12-13'),
  ('obrero', 'LPT', 'Banco Popular, aporte del trabajador (Ley de Protección al Trabajador)', 1.00, NULL, NULL, NULL, '2025-01-01', '2025-12-31',
    'Ley 7983 de Protección al Trabajador y Ley 4351 Orgánica del Banco Popular, 1 %'),
  ('patronal', 'SEM', 'CCSS Seguro de Enfermedad y Maternidad (patrono)', 9.25, NULL, NULL, NULL, '2025-01-01', '2025-12-31',
    'CCSS, Reglamento del Seguro de Salud, cuota patronal 9,25 %'),
  ('patronal', 'IVM', 'CCSS Invalidez, Vejez y Muerte (patrono)', 5.42, NULL, NULL, NULL, '2025-01-01', '2025-12-31',
    'CCSS, Reglamento del Seguro de IVM, transitorio XI (escalón 2023-2025: 5,42 %)'),
  ('patronal', 'BP', 'Banco Popular, cuota patronal', 0.25, NULL, NULL, NULL, '2025-01-01', '2025-12-31', 'Ley 4351 Orgánica del Banco Popular, art. 5'),
  ('patronal', 'BP_LPT', 'Banco Popular, aporte patronal (Ley de Protección al Trabajador)', 0.25, NULL, NULL, NULL, '2025-01-01', '2025-12-31',
    'Ley 7983 de Protección al Trabajador'),
  ('patronal', 'FODESAF', 'Asignaciones Familiares (FODESAF)', 5.00, NULL, NULL, NULL, '2025-01-01', '2025-12-31', 'Ley 5662 de Desarrollo Social y Asignaciones Familiares'),
  ('patronal', 'IMAS', 'Instituto Mixto de Ayuda Social', 0.50, NULL, NULL, NULL, '2025-01-01', '2025-12-31', 'Ley 4760 de creación del IMAS'),
  ('patronal', 'INA', 'Instituto Nacional de Aprendizaje', 1.50, NULL, NULL, NULL, '2025-01-01', '2025-12-31', 'Ley 6868 Orgánica del INA'),
  ('patronal', 'FCL', 'Fondo de Capitalización Laboral', 1.50, NULL, NULL, NULL, '2025-01-01', '2025-12-31', 'Ley 7983 de Protección al Trabajador, art. 3'),
  ('patronal', 'OPC', 'Régimen Obligatorio de Pensiones Complementarias', 2.00, NULL, NULL, NULL, '2025-01-01', '2025-12-31',
    'Ley 7983 de Protección al Trabajador, art. 13'),
  ('patronal', 'INS_RT', 'INS riesgos del trabajo (estimación; la prima real depende de la póliza)', 1.00, NULL, NULL, NULL, '2025-01-01', '2025-12-31',
    'Código de Trabajo art. 193 (seguro obligatorio de riesgos del trabajo); tasa de referencia, no oficial'),
  ('renta_tramo', 'T1', 'Exento', 0, NULL, 0, 922000, '2025-01-01', '2025-12-31',
    'Decreto Ejecutivo de actualización de tramos 2025 del impuesto al salario (Ley 7092 art. 33); exento 922.000 confirmado por El Financiero 2026-02-25'),
  ('renta_tramo', 'T2', '10 %', 10, NULL, 922000, 1352000, '2025-01-01', '2025-12-31',
    'Decreto Ejecutivo de actualización de tramos 2025 del impuesto al salario (Ley 7092 art. 33)'),
  ('renta_tramo', 'T3', '15 %', 15, NULL, 1352000, 2373000, '2025-01-01', '2025-12-31',
    'Decreto Ejecutivo de actualización de tramos 2025 del impuesto al salario (Ley 7092 art. 33)'),
  ('renta_tramo', 'T4', '20 %', 20, NULL, 2373000, 4745000, '2025-01-01', '2025-12-31',
    'Decreto Ejecutivo de actualización de tramos 2025 del impuesto al salario (Ley 7092 art. 33)'),
  ('renta_tramo', 'T5', '25 %', 25, NULL, 4745000, NULL, '2025-01-01', '2025-12-31',
    'Decreto Ejecutivo de actualización de tramos 2025 del impuesto al salario (Ley 7092 art. 33)'),
  ('credito', 'hijo', 'Crédito fiscal mensual por hijo', NULL, 1720, NULL, NULL, '2025-01-01', '2025-12-31',
    'Decreto Ejecutivo de actualización de créditos 2025 (Ley 7092 art. 34)'),
  ('credito', 'conyuge', 'Crédito fiscal mensual por cónyuge', NULL, 2600, NULL, NULL, '2025-01-01', '2025-12-31',
    'Decreto Ejecutivo de actualización de créditos 2025 (Ley 7092 art. 34)'),
  ('provision', 'aguinaldo', 'Provisión de aguinaldo (un doceavo)', 8.33, NULL, NULL, NULL, '2025-01-01', NULL,
    'Ley 2412 del Aguinaldo para la Empresa Privada, art. 1 (un doceavo de lo devengado)'),
  -- 2026
  ('obrero', 'SEM', 'CCSS Seguro de Enfermedad y Maternidad (trabajador)', 5.50, NULL, NULL, NULL, '2026-01-01', NULL,
    'CCSS, Reglamento del Seguro de Salud, cuota obrera 5,50 %; desglose 2026 publicado por La Nación 2026-01-06'),
  ('obrero', 'IVM', 'CCSS Invalidez, Vejez y Muerte (trabajador)', 4.33, NULL, NULL, NULL, '2026-01-01', NULL,
    'CCSS, Reglamento del Seguro de IVM, transitorio XI (escalón 2026-2028: 4,33 %); aviso CCSS 2025-12, La Nación 2025-12-13; desglose 2026 publicado por La Nación 2026-01-06'),
  ('obrero', 'LPT', 'Banco Popular, aporte del trabajador (Ley de Protección al Trabajador)', 1.00, NULL, NULL, NULL, '2026-01-01', NULL,
    'Ley 7983 de Protección al Trabajador y Ley 4351 Orgánica del Banco Popular, 1 %; desglose 2026 publicado por La Nación 2026-01-06'),
  ('patronal', 'SEM', 'CCSS Seguro de Enfermedad y Maternidad (patrono)', 9.25, NULL, NULL, NULL, '2026-01-01', NULL,
    'CCSS, Reglamento del Seguro de Salud, cuota patronal 9,25 %; desglose 2026 publicado por La Nación 2026-01-06'),
  ('patronal', 'IVM', 'CCSS Invalidez, Vejez y Muerte (patrono)', 5.58, NULL, NULL, NULL, '2026-01-01', NULL,
    'CCSS, Reglamento del Seguro de IVM, transitorio XI (escalón 2026-2028: 5,58 %); aviso CCSS 2025-12; desglose 2026 publicado por La Nación 2026-01-06'),
  ('patronal', 'BP', 'Banco Popular, cuota patronal', 0.25, NULL, NULL, NULL, '2026-01-01', NULL, 'Ley 4351 Orgánica del Banco Popular, art. 5; desglose 2026 publicado por La Nación 2026-01-06'),
  ('patronal', 'BP_LPT', 'Banco Popular, aporte patronal (Ley de Protección al Trabajador)', 0.25, NULL, NULL, NULL, '2026-01-01', NULL,
    'Ley 7983 de Protección al Trabajador; desglose 2026 publicado por La Nación 2026-01-06'),
  ('patronal', 'FODESAF', 'Asignaciones Familiares (FODESAF)', 5.00, NULL, NULL, NULL, '2026-01-01', NULL, 'Ley 5662 de Desarrollo Social y Asignaciones Familiares; desglose 2026 publicado por La Nación 2026-01-06'),
  ('patronal', 'IMAS', 'Instituto Mixto de Ayuda Social', 0.50, NULL, NULL, NULL, '2026-01-01', NULL, 'Ley 4760 de creación del IMAS; desglose 2026 publicado por La Nación 2026-01-06'),
  ('patronal', 'INA', 'Instituto Nacional de Aprendizaje', 1.50, NULL, NULL, NULL, '2026-01-01', NULL, 'Ley 6868 Orgánica del INA; desglose 2026 publicado por La Nación 2026-01-06'),
  ('patronal', 'FCL', 'Fondo de Capitalización Laboral', 1.50, NULL, NULL, NULL, '2026-01-01', NULL, 'Ley 7983 de Protección al Trabajador, art. 3; desglose 2026 publicado por La Nación 2026-01-06'),
  ('patronal', 'OPC', 'Régimen Obligatorio de Pensiones Complementarias', 2.00, NULL, NULL, NULL, '2026-01-01', NULL,
    'Ley 7983 de Protección al Trabajador, art. 13; desglose 2026 publicado por La Nación 2026-01-06'),
  ('patronal', 'INS_RT', 'INS riesgos del trabajo (estimación; la prima real depende de la póliza)', 1.00, NULL, NULL, NULL, '2026-01-01', NULL,
    'Código de Trabajo art. 193 (seguro obligatorio de riesgos del trabajo); tasa de referencia, no oficial; desglose 2026 publicado por La Nación 2026-01-06'),
  ('renta_tramo', 'T1', 'Exento', 0, NULL, 0, 918000, '2026-01-01', NULL,
    'Decreto Ejecutivo 45333-H, tramos del impuesto al salario 2026 (Ley 7092 art. 33); exento 918.000 confirmado por El Financiero 2026-02-25'),
  ('renta_tramo', 'T2', '10 %', 10, NULL, 918000, 1347000, '2026-01-01', NULL,
    'Decreto Ejecutivo 45333-H, tramos del impuesto al salario 2026 (Ley 7092 art. 33)'),
  ('renta_tramo', 'T3', '15 %', 15, NULL, 1347000, 2364000, '2026-01-01', NULL,
    'Decreto Ejecutivo 45333-H, tramos del impuesto al salario 2026 (Ley 7092 art. 33)'),
  ('renta_tramo', 'T4', '20 %', 20, NULL, 2364000, 4727000, '2026-01-01', NULL,
    'Decreto Ejecutivo 45333-H, tramos del impuesto al salario 2026 (Ley 7092 art. 33)'),
  ('renta_tramo', 'T5', '25 %', 25, NULL, 4727000, NULL, '2026-01-01', NULL,
    'Decreto Ejecutivo 45333-H, tramos del impuesto al salario 2026 (Ley 7092 art. 33)'),
  ('credito', 'hijo', 'Crédito fiscal mensual por hijo', NULL, 1710, NULL, NULL, '2026-01-01', NULL,
    'Decreto Ejecutivo 45333-H, créditos fiscales 2026 (Ley 7092 art. 34)'),
  ('credito', 'conyuge', 'Crédito fiscal mensual por cónyuge', NULL, 2590, NULL, NULL, '2026-01-01', NULL,
    'Decreto Ejecutivo 45333-H, créditos fiscales 2026 (Ley 7092 art. 34)');

-- A company's payroll settings; a company without a row uses the defaults.
-- porcentaje_vacaciones: the vacation provision on gross salary. Código de
-- Trabajo art. 153 grants two weeks of paid vacation per fifty weeks
-- worked; 4.17 % (one twenty-fourth: 15 days of a 360-day year) is the
-- usual provision, and a company with more generous vacations sets its own.
CREATE TABLE nomina_configuracion (
  empresa_id            bigint PRIMARY KEY REFERENCES empresas(id),
  porcentaje_vacaciones numeric(7,4) NOT NULL DEFAULT 4.17 CHECK (porcentaje_vacaciones >= 0 AND porcentaje_vacaciones <= 100),
  creado_en             timestamptz NOT NULL DEFAULT now(),
  actualizado_en        timestamptz NOT NULL DEFAULT now()
);

-- A payroll of one period. numero is PLA-<6 digits>, gapless per company
-- (contadores 'PLA', taken in the creating transaction). The totals are the
-- sums of its lines, written by the calculation.
CREATE TABLE planillas (
  id                   bigserial PRIMARY KEY,
  empresa_id           bigint NOT NULL REFERENCES empresas(id),
  numero               varchar(20) NOT NULL,
  tipo                 varchar(10) NOT NULL CHECK (tipo IN ('mensual', 'quincenal', 'semanal')),
  fecha_inicio         date NOT NULL,
  fecha_fin            date NOT NULL,
  estado               varchar(10) NOT NULL DEFAULT 'borrador' CHECK (estado IN ('borrador', 'calculada', 'aprobada', 'pagada', 'anulada')),
  descripcion          varchar(1000),
  cantidad_empleados   integer NOT NULL DEFAULT 0,
  salario_base         numeric(18,2) NOT NULL DEFAULT 0,
  salario_ordinario    numeric(18,2) NOT NULL DEFAULT 0,
  horas_extra_monto    numeric(18,2) NOT NULL DEFAULT 0,
  bonificaciones       numeric(18,2) NOT NULL DEFAULT 0,
  comisiones           numeric(18,2) NOT NULL DEFAULT 0,
  rebajo_incapacidad   numeric(18,2) NOT NULL DEFAULT 0,
  subsidio_incapacidad numeric(18,2) NOT NULL DEFAULT 0,
  salario_bruto        numeric(18,2) NOT NULL DEFAULT 0,
  ccss_obrero          numeric(18,2) NOT NULL DEFAULT 0,
  impuesto_renta       numeric(18,2) NOT NULL DEFAULT 0,
  otras_deducciones    numeric(18,2) NOT NULL DEFAULT 0,
  total_deducciones    numeric(18,2) NOT NULL DEFAULT 0,
  salario_neto         numeric(18,2) NOT NULL DEFAULT 0,
  cargas_patronales    numeric(18,2) NOT NULL DEFAULT 0,
  provision_aguinaldo  numeric(18,2) NOT NULL DEFAULT 0,
  provision_vacaciones numeric(18,2) NOT NULL DEFAULT 0,
  fecha_pago           date,
  asiento_id           bigint,
  usuario_id           bigint REFERENCES usuarios(id),
  calculada_en         timestamptz,
  aprobada_en          timestamptz,
  pagada_en            timestamptz,
  anulada_en           timestamptz,
  creado_en            timestamptz NOT NULL DEFAULT now(),
  actualizado_en       timestamptz NOT NULL DEFAULT now(),
  UNIQUE (empresa_id, id),
  UNIQUE (empresa_id, numero),
  FOREIGN KEY (empresa_id, asiento_id) REFERENCES asientos_contables (empresa_id, id),
  CHECK (fecha_fin >= fecha_inicio)
);
CREATE INDEX planillas_periodo ON planillas (empresa_id, fecha_fin DESC, id DESC);
-- The dashboard's approved-but-unpaid figure.
CREATE INDEX planillas_aprobadas ON planillas (empresa_id) INCLUDE (salario_neto) WHERE estado = 'aprobada';

-- One employee in one planilla: the inputs of the period (horas_extra ..
-- otras_deducciones), what the employee record said when the planilla was
-- created or recalculated (salario_base .. conyuge), and the results.
CREATE TABLE planilla_lineas (
  id                   bigserial PRIMARY KEY,
  empresa_id           bigint NOT NULL REFERENCES empresas(id),
  planilla_id          bigint NOT NULL,
  empleado_id          bigint NOT NULL,
  horas_extra          numeric(8,2) NOT NULL DEFAULT 0 CHECK (horas_extra >= 0),
  bonificaciones       numeric(18,2) NOT NULL DEFAULT 0 CHECK (bonificaciones >= 0),
  comisiones           numeric(18,2) NOT NULL DEFAULT 0 CHECK (comisiones >= 0),
  dias_incapacidad     integer NOT NULL DEFAULT 0 CHECK (dias_incapacidad >= 0),
  otras_deducciones    numeric(18,2) NOT NULL DEFAULT 0 CHECK (otras_deducciones >= 0),
  salario_base         numeric(18,2) NOT NULL,
  jornada              varchar(10) NOT NULL,
  hijos                integer NOT NULL DEFAULT 0,
  conyuge              boolean NOT NULL DEFAULT false,
  dias_laborados       integer NOT NULL DEFAULT 0,
  salario_ordinario    numeric(18,2) NOT NULL DEFAULT 0,
  valor_hora           numeric(18,4) NOT NULL DEFAULT 0,
  horas_extra_monto    numeric(18,2) NOT NULL DEFAULT 0,
  rebajo_incapacidad   numeric(18,2) NOT NULL DEFAULT 0,
  subsidio_incapacidad numeric(18,2) NOT NULL DEFAULT 0,
  salario_bruto        numeric(18,2) NOT NULL DEFAULT 0,
  ccss_obrero          numeric(18,2) NOT NULL DEFAULT 0,
  impuesto_renta       numeric(18,2) NOT NULL DEFAULT 0,
  creditos_fiscales    numeric(18,2) NOT NULL DEFAULT 0,
  total_deducciones    numeric(18,2) NOT NULL DEFAULT 0,
  salario_neto         numeric(18,2) NOT NULL DEFAULT 0,
  cargas_patronales    numeric(18,2) NOT NULL DEFAULT 0,
  provision_aguinaldo  numeric(18,2) NOT NULL DEFAULT 0,
  provision_vacaciones numeric(18,2) NOT NULL DEFAULT 0,
  creado_en            timestamptz NOT NULL DEFAULT now(),
  actualizado_en       timestamptz NOT NULL DEFAULT now(),
  UNIQUE (empresa_id, planilla_id, empleado_id),
  FOREIGN KEY (empresa_id, planilla_id) REFERENCES planillas (empresa_id, id),
  FOREIGN KEY (empresa_id, empleado_id) REFERENCES empleados (empresa_id, id)
);
-- The aguinaldo sums an employee's paid lines of a year.
CREATE INDEX planilla_lineas_empleado ON planilla_lineas (empresa_id, empleado_id);

DO $$
DECLARE t text;
BEGIN
  FOREACH t IN ARRAY ARRAY['nomina_configuracion', 'planillas', 'planilla_lineas'] LOOP
    EXECUTE format('ALTER TABLE %I ENABLE ROW LEVEL SECURITY', t);
    EXECUTE format('CREATE POLICY %I ON %I USING (empresa_id = app_empresa_id()) WITH CHECK (empresa_id = app_empresa_id())', t || '_tenant', t);
    EXECUTE format('GRANT SELECT, INSERT, UPDATE ON %I TO erp_app', t);
    EXECUTE format('CREATE TRIGGER %I BEFORE UPDATE ON %I FOR EACH ROW EXECUTE FUNCTION tocar_actualizado_en()', t || '_actualizado_en', t);
  END LOOP;
END $$;
GRANT USAGE ON SEQUENCE planillas_id_seq, planilla_lineas_id_seq TO erp_app;

-- The dashboard's planilla_pendiente counts approved planillas: a change
-- of a planilla bumps the company's figures version at commit (0015).
CREATE CONSTRAINT TRIGGER planillas_dashboard_version AFTER INSERT OR UPDATE ON planillas DEFERRABLE INITIALLY DEFERRED
  FOR EACH ROW EXECUTE FUNCTION dashboard_tocar();
