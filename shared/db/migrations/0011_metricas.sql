-- 0011: request metrics (issue 12). Lambda instances share no memory, so
-- each process aggregates its requests in memory and adds them here with
-- one statement at most every ~10 s (shared/metricas). GET /api/metrics
-- reads the totals, GET /api/tiempo-real the recent windows.
--
-- Both tables are per tenant: empresa_id is the company the request acted
-- in, NULL for requests without one (login, health, refusals before the
-- tenant is known). Row-level security shows a company only its own rows
-- (NULL rows are nobody's), so a company's administrator never sees another
-- company's traffic. The application role may only read them through RLS:
-- writing goes through metricas_registrar (one process's batch mixes
-- companies) and the service-wide view for platform operators through
-- metricas_http_servicio, both narrow SECURITY DEFINER functions, as the
-- cross-tenant work of auth_* and webhooks_entregas_vencidas.

-- Cumulative counters (never reset, never pruned: Prometheus counters must
-- only grow). cubetas[i] counts requests of at most the i-th bound of
-- metricas.Limites seconds (not cumulative; the last one is +Inf).
CREATE TABLE metricas_http (
  empresa_id     bigint,
  metodo         varchar(10) NOT NULL,
  ruta           varchar(200) NOT NULL,
  estado         integer NOT NULL,
  solicitudes    bigint NOT NULL DEFAULT 0,
  suma_segundos  double precision NOT NULL DEFAULT 0,
  cubetas        bigint[] NOT NULL,
  actualizado_en timestamptz NOT NULL DEFAULT now(),
  UNIQUE NULLS NOT DISTINCT (empresa_id, metodo, ruta, estado)
);

-- Ten-second windows for the real-time dashboard; kept one hour.
CREATE TABLE metricas_recientes (
  empresa_id      bigint,
  ventana         timestamptz NOT NULL,
  solicitudes     integer NOT NULL DEFAULT 0,
  errores         integer NOT NULL DEFAULT 0,
  errores_cliente integer NOT NULL DEFAULT 0,
  UNIQUE NULLS NOT DISTINCT (empresa_id, ventana)
);
CREATE INDEX metricas_recientes_ventana ON metricas_recientes (ventana);

DO $$
DECLARE t text;
BEGIN
  FOREACH t IN ARRAY ARRAY['metricas_http', 'metricas_recientes'] LOOP
    EXECUTE format('ALTER TABLE %I ENABLE ROW LEVEL SECURITY', t);
    EXECUTE format('CREATE POLICY %I ON %I USING (empresa_id = app_empresa_id())', t || '_tenant', t);
    EXECUTE format('GRANT SELECT ON %I TO erp_app', t);
  END LOOP;
END $$;

-- metricas_registrar adds one process's aggregates: p_http is a JSON array
-- of {empresa_id, metodo, ruta, estado, solicitudes, suma_segundos,
-- cubetas}, p_recientes of {empresa_id, ventana, solicitudes, errores,
-- errores_cliente}. Windows older than an hour are dropped on the way.
CREATE FUNCTION metricas_registrar(p_http jsonb, p_recientes jsonb) RETURNS void
LANGUAGE plpgsql VOLATILE SECURITY DEFINER SET search_path = public, pg_temp AS $$
BEGIN
  INSERT INTO metricas_http AS m (empresa_id, metodo, ruta, estado, solicitudes, suma_segundos, cubetas)
  SELECT x.empresa_id, x.metodo, x.ruta, x.estado, x.solicitudes, x.suma_segundos, x.cubetas
  FROM jsonb_to_recordset(p_http) AS x(empresa_id bigint, metodo text, ruta text, estado integer,
                                       solicitudes bigint, suma_segundos double precision, cubetas bigint[])
  ON CONFLICT (empresa_id, metodo, ruta, estado) DO UPDATE SET
    solicitudes = m.solicitudes + EXCLUDED.solicitudes,
    suma_segundos = m.suma_segundos + EXCLUDED.suma_segundos,
    cubetas = ARRAY(SELECT coalesce(a, 0) + coalesce(b, 0)
                    FROM unnest(m.cubetas, EXCLUDED.cubetas) WITH ORDINALITY AS u(a, b, i) ORDER BY i),
    actualizado_en = now();

  INSERT INTO metricas_recientes AS r (empresa_id, ventana, solicitudes, errores, errores_cliente)
  SELECT x.empresa_id, x.ventana, x.solicitudes, x.errores, x.errores_cliente
  FROM jsonb_to_recordset(p_recientes) AS x(empresa_id bigint, ventana timestamptz, solicitudes integer,
                                            errores integer, errores_cliente integer)
  ON CONFLICT (empresa_id, ventana) DO UPDATE SET
    solicitudes = r.solicitudes + EXCLUDED.solicitudes,
    errores = r.errores + EXCLUDED.errores,
    errores_cliente = r.errores_cliente + EXCLUDED.errores_cliente;

  DELETE FROM metricas_recientes WHERE ventana < now() - interval '1 hour';
END $$;

-- metricas_http_servicio is every company's counters (and those of no
-- company), for platform administrators; the route guard checks the flag.
CREATE FUNCTION metricas_http_servicio()
RETURNS TABLE (metodo text, ruta text, estado integer, solicitudes bigint, suma_segundos double precision, cubetas bigint[])
LANGUAGE sql STABLE SECURITY DEFINER SET search_path = public, pg_temp AS $$
  SELECT m.metodo, m.ruta, m.estado, m.solicitudes, m.suma_segundos, m.cubetas FROM metricas_http m
$$;

-- metricas_recientes_servicio is the service-wide twin for the dashboard.
CREATE FUNCTION metricas_recientes_servicio(p_desde timestamptz)
RETURNS TABLE (solicitudes bigint, errores bigint, errores_cliente bigint)
LANGUAGE sql STABLE SECURITY DEFINER SET search_path = public, pg_temp AS $$
  SELECT coalesce(sum(r.solicitudes), 0)::bigint, coalesce(sum(r.errores), 0)::bigint, coalesce(sum(r.errores_cliente), 0)::bigint
  FROM metricas_recientes r WHERE r.ventana >= p_desde
$$;

-- metricas_usuarios_activos counts the users of the active company whose
-- token was used since p_desde (the authorizer refreshes last_used_at at
-- most once a minute); the application role cannot read tokens itself.
CREATE FUNCTION metricas_usuarios_activos(p_desde timestamptz) RETURNS bigint
LANGUAGE sql STABLE SECURITY DEFINER SET search_path = public, pg_temp AS $$
  SELECT count(DISTINCT t.usuario_id)
  FROM tokens_acceso t
  JOIN membresias m ON m.usuario_id = t.usuario_id AND m.empresa_id = app_empresa_id() AND m.activo AND NOT m.eliminado
  WHERE t.last_used_at >= p_desde AND t.revocado_en IS NULL
$$;

REVOKE ALL ON FUNCTION metricas_registrar(jsonb, jsonb), metricas_http_servicio(),
  metricas_recientes_servicio(timestamptz), metricas_usuarios_activos(timestamptz) FROM PUBLIC;
GRANT EXECUTE ON FUNCTION metricas_registrar(jsonb, jsonb), metricas_http_servicio(),
  metricas_recientes_servicio(timestamptz), metricas_usuarios_activos(timestamptz) TO erp_app;
