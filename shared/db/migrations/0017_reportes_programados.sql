-- 0017: scheduled reports (issue 14, "Scheduled reports"; shared/programados):
-- a report type of the registry with its parameters, run daily, weekly or
-- monthly at an hour of Costa Rica, saved as a file and e-mailed as a link;
-- each run is a row of reporte_ejecuciones.

CREATE TABLE reportes_programados (
  id                bigserial PRIMARY KEY,
  empresa_id        bigint NOT NULL REFERENCES empresas(id),
  nombre            varchar(255) NOT NULL,
  -- A key of the report registry (shared/reportes); checked by the API.
  tipo              varchar(100) NOT NULL,
  -- The report's query parameters as given (strings), validated by the
  -- report's own parsing when written and again at every run.
  parametros        jsonb NOT NULL DEFAULT '{}' CHECK (jsonb_typeof(parametros) = 'object'),
  frecuencia        varchar(10) NOT NULL CHECK (frecuencia IN ('diaria', 'semanal', 'mensual')),
  -- ISO day of the week: 1 lunes .. 7 domingo.
  dia_semana        smallint CHECK (dia_semana BETWEEN 1 AND 7),
  -- Day of the month; 29-31 run on the month's last day in shorter months.
  dia_mes           smallint CHECK (dia_mes BETWEEN 1 AND 31),
  -- Local time of Costa Rica (UTC-6, no daylight saving), whole minutes.
  hora              time(0) NOT NULL,
  formato           varchar(10) NOT NULL CHECK (formato IN ('json', 'pdf', 'excel', 'csv')),
  destinatarios     text[] NOT NULL DEFAULT '{}' CHECK (cardinality(destinatarios) <= 10),
  activo            boolean NOT NULL DEFAULT true,
  -- The next due instant (UTC); null while inactive.
  proxima_ejecucion timestamptz,
  ultima_ejecucion  timestamptz,
  -- The runs generate the report as this user, with its permissions at
  -- the time of the run.
  usuario_id        bigint NOT NULL REFERENCES usuarios(id),
  eliminado         boolean NOT NULL DEFAULT false,
  creado_en         timestamptz NOT NULL DEFAULT now(),
  actualizado_en    timestamptz NOT NULL DEFAULT now(),
  UNIQUE (empresa_id, id),
  CHECK ((frecuencia = 'semanal') = (dia_semana IS NOT NULL)),
  CHECK ((frecuencia = 'mensual') = (dia_mes IS NOT NULL)),
  CHECK (NOT activo OR eliminado OR proxima_ejecucion IS NOT NULL)
);
CREATE INDEX reportes_programados_lista ON reportes_programados (empresa_id, id) WHERE NOT eliminado;
-- The scheduler's sweep: the due ones of every company.
CREATE INDEX reportes_programados_vencen ON reportes_programados (proxima_ejecucion) WHERE activo AND NOT eliminado;

CREATE TABLE reporte_ejecuciones (
  id                    bigserial PRIMARY KEY,
  empresa_id            bigint NOT NULL REFERENCES empresas(id),
  reporte_programado_id bigint NOT NULL,
  -- The due instant this run is for: one run per schedule and instant,
  -- whatever number of schedulers claim it.
  programada_para       timestamptz NOT NULL,
  estado                varchar(12) NOT NULL DEFAULT 'pendiente'
                        CHECK (estado IN ('pendiente', 'ejecutando', 'completada', 'fallida')),
  error                 text,
  -- The stored file: its key in the store (S3 or the local folder).
  archivo_key           varchar(500),
  archivo_nombre        varchar(255),
  archivo_tamano        bigint,
  content_type          varchar(120),
  creado_en             timestamptz NOT NULL DEFAULT now(),
  iniciado_en           timestamptz,
  terminado_en          timestamptz,
  UNIQUE (empresa_id, id),
  UNIQUE (reporte_programado_id, programada_para),
  FOREIGN KEY (empresa_id, reporte_programado_id) REFERENCES reportes_programados (empresa_id, id)
);
CREATE INDEX reporte_ejecuciones_programado ON reporte_ejecuciones (empresa_id, reporte_programado_id, id DESC);
CREATE INDEX reporte_ejecuciones_pendientes ON reporte_ejecuciones (creado_en) WHERE estado = 'pendiente';
CREATE INDEX reporte_ejecuciones_en_curso ON reporte_ejecuciones (iniciado_en) WHERE estado = 'ejecutando';

ALTER TABLE reportes_programados ENABLE ROW LEVEL SECURITY;
ALTER TABLE reporte_ejecuciones ENABLE ROW LEVEL SECURITY;
CREATE POLICY reportes_programados_tenant ON reportes_programados
  USING (empresa_id = app_empresa_id()) WITH CHECK (empresa_id = app_empresa_id());
CREATE POLICY reporte_ejecuciones_tenant ON reporte_ejecuciones
  USING (empresa_id = app_empresa_id()) WITH CHECK (empresa_id = app_empresa_id());

-- Deletion is logical (the runs keep their schedule).
GRANT SELECT, INSERT, UPDATE ON reportes_programados, reporte_ejecuciones TO erp_app;
GRANT USAGE ON SEQUENCE reportes_programados_id_seq, reporte_ejecuciones_id_seq TO erp_app;

-- The sweep sees every company's due work (a narrow cross-tenant read, as
-- webhooks_entregas_vencidas): schedules due at p_ahora (ejecucion_id
-- null), runs claimed but left pendiente since before p_huerfanas (the
-- process that claimed them died before starting them: run again), and runs
-- ejecutando since before p_huerfanas (the process died or timed out while
-- generating: recorded as failed). The claim itself happens in the
-- company's transaction (FOR UPDATE SKIP LOCKED).
CREATE FUNCTION reportes_programados_vencidos(p_ahora timestamptz, p_huerfanas timestamptz, p_limite integer)
RETURNS TABLE (empresa_id bigint, reporte_programado_id bigint, ejecucion_id bigint)
LANGUAGE sql STABLE SECURITY DEFINER SET search_path = public, pg_temp AS $$
  (SELECT r.empresa_id, r.id, NULL::bigint FROM reportes_programados r
   WHERE r.activo AND NOT r.eliminado AND r.proxima_ejecucion <= p_ahora
   ORDER BY r.proxima_ejecucion LIMIT p_limite)
  UNION ALL
  (SELECT x.empresa_id, x.reporte_programado_id, x.id FROM reporte_ejecuciones x
   WHERE (x.estado = 'pendiente' AND x.creado_en < p_huerfanas) OR (x.estado = 'ejecutando' AND x.iniciado_en < p_huerfanas)
   ORDER BY x.id LIMIT p_limite)
$$;
REVOKE ALL ON FUNCTION reportes_programados_vencidos(timestamptz, timestamptz, integer) FROM PUBLIC;
GRANT EXECUTE ON FUNCTION reportes_programados_vencidos(timestamptz, timestamptz, integer) TO erp_app;
