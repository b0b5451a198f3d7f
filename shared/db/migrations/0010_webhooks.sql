-- 0010: webhooks (issue 11): subscriptions, deliveries and their attempts.

CREATE TABLE webhooks (
  id                  bigserial PRIMARY KEY,
  empresa_id          bigint NOT NULL REFERENCES empresas(id),
  nombre              varchar(255) NOT NULL,
  url                 varchar(2048) NOT NULL,
  eventos             text[] NOT NULL CHECK (cardinality(eventos) > 0),
  descripcion         varchar(1000),
  timeout_segundos    integer NOT NULL DEFAULT 10 CHECK (timeout_segundos BETWEEN 5 AND 60),
  max_reintentos      integer NOT NULL DEFAULT 5 CHECK (max_reintentos BETWEEN 1 AND 10),
  -- AES-256-GCM with the company and webhook as associated data (shared/secrets key);
  -- the secret is shown only when created or regenerated.
  secreto_cifrado     bytea NOT NULL,
  secreto_pista       varchar(16) NOT NULL,
  fallos_consecutivos integer NOT NULL DEFAULT 0,
  desactivado_en      timestamptz,
  activo              boolean NOT NULL DEFAULT true,
  eliminado           boolean NOT NULL DEFAULT false,
  creado_en           timestamptz NOT NULL DEFAULT now(),
  actualizado_en      timestamptz NOT NULL DEFAULT now(),
  UNIQUE (empresa_id, id)
);
CREATE INDEX webhooks_empresa ON webhooks (empresa_id) WHERE NOT eliminado;

-- One delivery per (event, subscription); its attempts are logged below.
-- payload is the exact body sent: {id, evento, creado_en, empresa_id, data}.
CREATE TABLE webhook_entregas (
  id                 bigserial PRIMARY KEY,
  empresa_id         bigint NOT NULL,
  webhook_id         bigint NOT NULL,
  evento_id          uuid,
  evento             varchar(60) NOT NULL,
  payload            jsonb NOT NULL,
  estado             varchar(20) NOT NULL DEFAULT 'pendiente' CHECK (estado IN ('pendiente', 'entregada', 'fallida')),
  intentos           integer NOT NULL DEFAULT 0,
  proximo_intento_en timestamptz,
  -- a worker holding the delivery (lease), so a duplicate message sends nothing
  tomada_hasta       timestamptz,
  creado_en          timestamptz NOT NULL DEFAULT now(),
  actualizado_en     timestamptz NOT NULL DEFAULT now(),
  UNIQUE (empresa_id, id),
  FOREIGN KEY (empresa_id, webhook_id) REFERENCES webhooks (empresa_id, id)
);
CREATE INDEX webhook_entregas_webhook ON webhook_entregas (empresa_id, webhook_id, id DESC);
CREATE INDEX webhook_entregas_vencidas ON webhook_entregas (proximo_intento_en) WHERE estado = 'pendiente';

CREATE TABLE webhook_intentos (
  id                 bigserial PRIMARY KEY,
  empresa_id         bigint NOT NULL,
  entrega_id         bigint NOT NULL,
  numero             integer NOT NULL,
  solicitud_headers  jsonb NOT NULL,
  estado_http        integer,
  duracion_ms        integer NOT NULL,
  respuesta          varchar(2048),
  error              varchar(2000),
  proximo_intento_en timestamptz,
  creado_en          timestamptz NOT NULL DEFAULT now(),
  FOREIGN KEY (empresa_id, entrega_id) REFERENCES webhook_entregas (empresa_id, id),
  UNIQUE (entrega_id, numero)
);
CREATE INDEX webhook_intentos_entrega ON webhook_intentos (empresa_id, entrega_id, numero);

DO $$
DECLARE t text;
BEGIN
  FOREACH t IN ARRAY ARRAY['webhooks', 'webhook_entregas', 'webhook_intentos'] LOOP
    EXECUTE format('ALTER TABLE %I ENABLE ROW LEVEL SECURITY', t);
    EXECUTE format('CREATE POLICY %I ON %I USING (empresa_id = app_empresa_id()) WITH CHECK (empresa_id = app_empresa_id())', t || '_tenant', t);
    EXECUTE format('GRANT SELECT, INSERT, UPDATE ON %I TO erp_app', t);
    EXECUTE format('GRANT USAGE ON SEQUENCE %I TO erp_app', t || '_id_seq');
  END LOOP;
END $$;
CREATE TRIGGER webhooks_actualizado_en BEFORE UPDATE ON webhooks FOR EACH ROW EXECUTE FUNCTION tocar_actualizado_en();
CREATE TRIGGER webhook_entregas_actualizado_en BEFORE UPDATE ON webhook_entregas FOR EACH ROW EXECUTE FUNCTION tocar_actualizado_en();

-- Fan-out in the event's own transaction: an outbox event and its
-- deliveries commit together, so no event is ever lost between the write
-- and the queue (the worker is woken after commit; the scheduler's sweep
-- finds any delivery whose wake-up was lost). Runs as the caller, under the
-- same tenant's row-level security.
CREATE FUNCTION webhooks_repartir() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE n integer;
BEGIN
  INSERT INTO webhook_entregas (empresa_id, webhook_id, evento_id, evento, payload, proximo_intento_en)
  SELECT NEW.empresa_id, w.id, NEW.id, NEW.tipo,
         jsonb_build_object('id', NEW.id, 'evento', NEW.tipo,
                            'creado_en', to_char(NEW.ocurrido_en AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"'),
                            'empresa_id', NEW.empresa_id, 'data', NEW.payload),
         now()
  FROM webhooks w
  WHERE w.empresa_id = NEW.empresa_id AND w.activo AND NOT w.eliminado
    AND (NEW.tipo = ANY (w.eventos) OR '*' = ANY (w.eventos));
  GET DIAGNOSTICS n = ROW_COUNT;
  IF n > 0 THEN
    -- Read by db.WithTx with its COMMIT (same round trip): wake the worker.
    PERFORM set_config('app.despertar', 'webhooks', true);
  END IF;
  RETURN NULL;
END $$;
CREATE TRIGGER eventos_webhooks AFTER INSERT ON eventos FOR EACH ROW EXECUTE FUNCTION webhooks_repartir();

-- The sweep sees every company's due deliveries (a narrow cross-tenant read).
CREATE FUNCTION webhooks_entregas_vencidas(p_hasta timestamptz, p_limite integer)
RETURNS TABLE (empresa_id bigint, id bigint)
LANGUAGE sql STABLE SECURITY DEFINER SET search_path = public, pg_temp AS $$
  SELECT e.empresa_id, e.id FROM webhook_entregas e
  WHERE e.estado = 'pendiente' AND e.proximo_intento_en <= p_hasta
    AND (e.tomada_hasta IS NULL OR e.tomada_hasta < p_hasta)
  ORDER BY e.proximo_intento_en LIMIT p_limite
$$;
REVOKE ALL ON FUNCTION webhooks_entregas_vencidas(timestamptz, integer) FROM PUBLIC;
GRANT EXECUTE ON FUNCTION webhooks_entregas_vencidas(timestamptz, integer) TO erp_app;
