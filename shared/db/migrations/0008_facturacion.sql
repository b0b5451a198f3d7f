-- Electronic invoicing (comprobantes electrónicos v4.4, 2026 revision):
-- per-company settings with their secrets encrypted by the application
-- (AES-256-GCM; the database only ever sees ciphertext), the establishment
-- and terminal of each branch, the comprobantes with their XML documents and
-- the state of their submission, and the references of credit/debit notes
-- on sales.
--
-- The submission state lives here, not in the queue: a queue message only
-- says "look at comprobante N" (trabajo + proximo_intento_en say what is due
-- and when), so a lost or duplicated message changes nothing but timing and
-- the scheduler's sweep (hacienda_trabajos_vencidos) finds what was missed.

CREATE TABLE hacienda_configuraciones (
  empresa_id                  bigint PRIMARY KEY REFERENCES empresas(id),
  ambiente                    varchar(20) NOT NULL DEFAULT 'staging' CHECK (ambiente IN ('staging', 'production')),
  -- nonce || ciphertext || tag, bound to (empresa, field) as associated data.
  usuario_cifrado             bytea,
  clave_cifrada               bytea,
  certificado_cifrado         bytea,
  pin_cifrado                 bytea,
  -- What GET shows of the certificate (never the certificate itself).
  certificado_sujeto          varchar(500),
  certificado_emisor          varchar(500),
  certificado_serie           varchar(100),
  certificado_valido_desde    timestamptz,
  certificado_valido_hasta    timestamptz,
  codigo_actividad            varchar(6),
  proveedor_sistemas          varchar(20),
  emisor_tipo_identificacion  varchar(2) CHECK (emisor_tipo_identificacion IN ('01', '02', '03', '04')),
  emisor_numero_identificacion varchar(12),
  emisor_nombre               varchar(100),
  emisor_nombre_comercial     varchar(80),
  provincia                   varchar(1),
  canton                      varchar(2),
  distrito                    varchar(2),
  barrio                      varchar(50),
  otras_senas                 varchar(250),
  telefono                    varchar(20),
  correo_electronico          varchar(160),
  activo                      boolean NOT NULL DEFAULT true,
  eliminado                   boolean NOT NULL DEFAULT false,
  creado_en                   timestamptz NOT NULL DEFAULT now(),
  actualizado_en              timestamptz NOT NULL DEFAULT now()
);

-- Establishment (001-999) and terminal (00001-99999) of a branch: the first
-- 8 digits of the NumeroConsecutivo. A branch without a row uses 001/00001.
CREATE TABLE hacienda_terminales (
  empresa_id      bigint NOT NULL REFERENCES empresas(id),
  sucursal_id     bigint NOT NULL,
  establecimiento integer NOT NULL CHECK (establecimiento BETWEEN 1 AND 999),
  terminal        integer NOT NULL CHECK (terminal BETWEEN 1 AND 99999),
  creado_en       timestamptz NOT NULL DEFAULT now(),
  actualizado_en  timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (empresa_id, sucursal_id),
  FOREIGN KEY (empresa_id, sucursal_id) REFERENCES sucursales (empresa_id, id)
);

CREATE TABLE comprobantes_electronicos (
  id                 bigserial PRIMARY KEY,
  empresa_id         bigint NOT NULL REFERENCES empresas(id),
  venta_id           bigint NOT NULL,
  sucursal_id        bigint,
  usuario_id         bigint REFERENCES usuarios(id),
  -- 01 FE, 02 ND, 03 NC, 04 TE.
  tipo_documento     varchar(2) NOT NULL CHECK (tipo_documento IN ('01', '02', '03', '04')),
  clave              varchar(50) NOT NULL CHECK (clave ~ '^506[0-9]{6}[A-Za-z0-9]{12}[0-9]{20}[123][0-9]{8}$'),
  numero_consecutivo varchar(20) NOT NULL CHECK (numero_consecutivo ~ '^[0-9]{20}$'),
  situacion          varchar(1) NOT NULL DEFAULT '1' CHECK (situacion IN ('1', '2', '3')),
  fecha_emision      timestamptz NOT NULL,
  estado             varchar(20) NOT NULL DEFAULT 'pending'
                     CHECK (estado IN ('pending', 'signed', 'sent', 'accepted', 'rejected', 'error')),
  total_comprobante  numeric(18,5),
  xml_original       text,
  xml_firmado        text,
  xml_respuesta      text,
  -- Hacienda's answer: ind-estado of GET /recepcion/{clave}, and the
  -- Mensaje (1 aceptado, 3 rechazado) and DetalleMensaje of MensajeHacienda.
  ind_estado         varchar(20),
  mensaje_hacienda   varchar(1),
  detalle_mensaje    varchar(2000),
  ultimo_error       varchar(2000),
  -- The worker's bookkeeping: what is due (enviar or consultar) and when;
  -- en_proceso_hasta is the lease of the worker holding it.
  trabajo            varchar(20) CHECK (trabajo IN ('enviar', 'consultar')),
  proximo_intento_en timestamptz,
  en_proceso_hasta   timestamptz,
  intentos_envio     integer NOT NULL DEFAULT 0,
  consultas          integer NOT NULL DEFAULT 0,
  envio_solicitado_en timestamptz,
  enviado_en         timestamptz,
  respondido_en      timestamptz,
  activo             boolean NOT NULL DEFAULT true,
  eliminado          boolean NOT NULL DEFAULT false,
  creado_en          timestamptz NOT NULL DEFAULT now(),
  actualizado_en     timestamptz NOT NULL DEFAULT now(),
  UNIQUE (empresa_id, id),
  UNIQUE (empresa_id, clave),
  UNIQUE (empresa_id, numero_consecutivo),
  -- One comprobante per sale and document type.
  UNIQUE (empresa_id, venta_id, tipo_documento),
  CHECK ((trabajo IS NULL) = (proximo_intento_en IS NULL)),
  FOREIGN KEY (empresa_id, venta_id) REFERENCES ventas (empresa_id, id),
  FOREIGN KEY (empresa_id, sucursal_id) REFERENCES sucursales (empresa_id, id)
);
CREATE INDEX comprobantes_electronicos_recientes ON comprobantes_electronicos (empresa_id, id DESC) WHERE NOT eliminado;
CREATE INDEX comprobantes_electronicos_estado ON comprobantes_electronicos (empresa_id, estado, tipo_documento) WHERE NOT eliminado;
CREATE INDEX comprobantes_electronicos_fecha ON comprobantes_electronicos (empresa_id, fecha_emision) WHERE NOT eliminado;
-- The sweep's search: due work across companies.
CREATE INDEX comprobantes_electronicos_trabajo ON comprobantes_electronicos (proximo_intento_en) WHERE trabajo IS NOT NULL;

DO $$
DECLARE t text;
BEGIN
  FOREACH t IN ARRAY ARRAY['hacienda_configuraciones', 'hacienda_terminales', 'comprobantes_electronicos'] LOOP
    EXECUTE format('ALTER TABLE %I ENABLE ROW LEVEL SECURITY', t);
    EXECUTE format('CREATE POLICY %I ON %I USING (empresa_id = app_empresa_id()) WITH CHECK (empresa_id = app_empresa_id())', t || '_tenant', t);
    EXECUTE format('GRANT SELECT, INSERT, UPDATE ON %I TO erp_app', t);
    EXECUTE format('CREATE TRIGGER %I BEFORE UPDATE ON %I FOR EACH ROW EXECUTE FUNCTION tocar_actualizado_en()', t || '_actualizado_en', t);
  END LOOP;
END $$;
GRANT DELETE ON hacienda_terminales TO erp_app;
GRANT USAGE ON SEQUENCE comprobantes_electronicos_id_seq TO erp_app;

-- The scheduler's sweep runs without a tenant: this narrow function lists
-- (empresa, comprobante) pairs whose work was due by p_hasta and that no
-- worker holds at p_ahora, and nothing else of any row.
CREATE FUNCTION hacienda_trabajos_vencidos(p_hasta timestamptz, p_ahora timestamptz, p_limite integer)
RETURNS TABLE (empresa_id bigint, id bigint)
LANGUAGE sql STABLE SECURITY DEFINER SET search_path = public, pg_temp AS $$
  SELECT c.empresa_id, c.id FROM comprobantes_electronicos c
  WHERE c.trabajo IS NOT NULL AND c.proximo_intento_en <= p_hasta
    AND (c.en_proceso_hasta IS NULL OR c.en_proceso_hasta <= p_ahora) AND NOT c.eliminado
  ORDER BY c.proximo_intento_en, c.id
  LIMIT p_limite
$$;
REVOKE ALL ON FUNCTION hacienda_trabajos_vencidos(timestamptz, timestamptz, integer) FROM PUBLIC;
GRANT EXECUTE ON FUNCTION hacienda_trabajos_vencidos(timestamptz, timestamptz, integer) TO erp_app;

-- Credit and debit notes reference the sale they correct: the referenced
-- sale of the same company, the 2026 InformacionReferencia/Codigo (Nota 9;
-- 17 is for receipts only) and the reason (Razon, up to 180 characters).
-- Required for nota_credito / nota_debito by the API (not by a CHECK, so
-- notes recorded before this migration stay updatable).
ALTER TABLE ventas ADD COLUMN venta_referencia_id bigint;
ALTER TABLE ventas ADD COLUMN codigo_referencia varchar(2)
  CHECK (codigo_referencia IN ('01', '02', '04', '05', '06', '07', '08', '09', '10', '11', '12', '13', '14', '15', '16', '99'));
ALTER TABLE ventas ADD COLUMN razon_referencia varchar(180);
ALTER TABLE ventas ADD CONSTRAINT ventas_referencia_fkey
  FOREIGN KEY (empresa_id, venta_referencia_id) REFERENCES ventas (empresa_id, id);
CREATE INDEX ventas_referencia ON ventas (empresa_id, venta_referencia_id) WHERE venta_referencia_id IS NOT NULL;
