-- 0019: transport (issue 15, "Transport"; shared/transporte): a company's
-- bus routes with their stops and departure times, and its buses with the
-- route they serve and their driver (an employee, 0018).

CREATE TABLE rutas (
  id                    bigserial PRIMARY KEY,
  empresa_id            bigint NOT NULL REFERENCES empresas(id),
  codigo                varchar(50) NOT NULL,
  nombre                varchar(255) NOT NULL,
  origen                varchar(255) NOT NULL,
  destino               varchar(255) NOT NULL,
  distancia_km          numeric(10,2) CHECK (distancia_km > 0),
  duracion_estimada_min integer CHECK (duracion_estimada_min > 0),
  -- The fare in colones.
  tarifa                numeric(18,2) NOT NULL DEFAULT 0 CHECK (tarifa >= 0),
  activo                boolean NOT NULL DEFAULT true,
  eliminado             boolean NOT NULL DEFAULT false,
  creado_en             timestamptz NOT NULL DEFAULT now(),
  actualizado_en        timestamptz NOT NULL DEFAULT now(),
  busqueda              text GENERATED ALWAYS AS (busqueda(codigo, nombre, origen, destino)) STORED,
  UNIQUE (empresa_id, id)
);
-- The index name contains the column: recurso maps a unique violation to its field by it.
CREATE UNIQUE INDEX rutas_codigo_key ON rutas (empresa_id, codigo) WHERE NOT eliminado;
CREATE INDEX rutas_busqueda ON rutas USING gin (busqueda gin_trgm_ops);

-- A route's stops in order (1, 2, 3 ...), replaced as a whole when the
-- route is written with paradas.
CREATE TABLE ruta_paradas (
  id         bigserial PRIMARY KEY,
  empresa_id bigint NOT NULL REFERENCES empresas(id),
  ruta_id    bigint NOT NULL,
  orden      integer NOT NULL CHECK (orden > 0),
  nombre     varchar(255) NOT NULL,
  latitud    numeric(9,6) NOT NULL CHECK (latitud BETWEEN -90 AND 90),
  longitud   numeric(9,6) NOT NULL CHECK (longitud BETWEEN -180 AND 180),
  creado_en  timestamptz NOT NULL DEFAULT now(),
  FOREIGN KEY (empresa_id, ruta_id) REFERENCES rutas (empresa_id, id),
  UNIQUE (ruta_id, orden)
);
CREATE INDEX ruta_paradas_ruta ON ruta_paradas (empresa_id, ruta_id, orden);

-- A route's departures per weekday, replaced as a whole like the stops.
CREATE TABLE ruta_horarios (
  id          bigserial PRIMARY KEY,
  empresa_id  bigint NOT NULL REFERENCES empresas(id),
  ruta_id     bigint NOT NULL,
  dia_semana  varchar(10) NOT NULL
              CHECK (dia_semana IN ('lunes', 'martes', 'miercoles', 'jueves', 'viernes', 'sabado', 'domingo')),
  hora_salida time NOT NULL,
  creado_en   timestamptz NOT NULL DEFAULT now(),
  FOREIGN KEY (empresa_id, ruta_id) REFERENCES rutas (empresa_id, id),
  UNIQUE (ruta_id, dia_semana, hora_salida)
);
CREATE INDEX ruta_horarios_ruta ON ruta_horarios (empresa_id, ruta_id);

CREATE TABLE buses (
  id                           bigserial PRIMARY KEY,
  empresa_id                   bigint NOT NULL REFERENCES empresas(id),
  -- Normalized: upper case, letters and digits separated by one space ("SJB 12345").
  placa                        varchar(20) NOT NULL,
  numero_unidad                varchar(50),
  marca                        varchar(100),
  modelo                       varchar(100),
  anio                         integer CHECK (anio >= 1980),
  capacidad_pasajeros          integer NOT NULL CHECK (capacidad_pasajeros > 0),
  estado                       varchar(20) NOT NULL DEFAULT 'disponible'
                               CHECK (estado IN ('disponible', 'en_servicio', 'mantenimiento', 'fuera_de_servicio')),
  ruta_id                      bigint,
  chofer_id                    bigint,
  vencimiento_revision_tecnica date,
  vencimiento_seguro           date,
  activo                       boolean NOT NULL DEFAULT true,
  eliminado                    boolean NOT NULL DEFAULT false,
  creado_en                    timestamptz NOT NULL DEFAULT now(),
  actualizado_en               timestamptz NOT NULL DEFAULT now(),
  busqueda                     text GENERATED ALWAYS AS (busqueda(placa, numero_unidad, marca, modelo)) STORED,
  UNIQUE (empresa_id, id),
  FOREIGN KEY (empresa_id, ruta_id) REFERENCES rutas (empresa_id, id),
  FOREIGN KEY (empresa_id, chofer_id) REFERENCES empleados (empresa_id, id)
);
CREATE UNIQUE INDEX buses_placa_key ON buses (empresa_id, placa) WHERE NOT eliminado;
CREATE INDEX buses_ruta ON buses (empresa_id, ruta_id) WHERE NOT eliminado;
CREATE INDEX buses_chofer ON buses (empresa_id, chofer_id) WHERE NOT eliminado;
CREATE INDEX buses_busqueda ON buses USING gin (busqueda gin_trgm_ops);

DO $$
DECLARE t text;
BEGIN
  FOREACH t IN ARRAY ARRAY['rutas', 'ruta_paradas', 'ruta_horarios', 'buses'] LOOP
    EXECUTE format('ALTER TABLE %I ENABLE ROW LEVEL SECURITY', t);
    EXECUTE format('CREATE POLICY %I ON %I USING (empresa_id = app_empresa_id()) WITH CHECK (empresa_id = app_empresa_id())', t || '_tenant', t);
    EXECUTE format('GRANT SELECT, INSERT, UPDATE ON %I TO erp_app', t);
    EXECUTE format('GRANT USAGE ON SEQUENCE %I TO erp_app', t || '_id_seq');
  END LOOP;
END $$;
-- Stops and departures are replaced (deleted and inserted) with their route.
GRANT DELETE ON ruta_paradas, ruta_horarios TO erp_app;
CREATE TRIGGER rutas_actualizado_en BEFORE UPDATE ON rutas FOR EACH ROW EXECUTE FUNCTION tocar_actualizado_en();
CREATE TRIGGER buses_actualizado_en BEFORE UPDATE ON buses FOR EACH ROW EXECUTE FUNCTION tocar_actualizado_en();
