-- 0031: a posting holds the accounts it checked until it commits; a
-- reversal may use an account deactivated since (issue 13, from probing
-- the API as a client would).
--
-- 1. A posting (a business write's entry at COMMIT, a manual entry being
-- posted, a cash box closing, a payroll) read its accounts without a
-- lock, so an account deactivated or deleted right after that read still
-- got the posting's lines: deactivation/deletion (Go, contabilidad)
-- locked the row for no key update, which the foreign key's key share
-- of asiento_lineas does not wait for, and the deletion's "has no lines"
-- check could not see lines not yet committed. Now the statement that
-- checks the accounts locks them FOR KEY SHARE (the lock the lines'
-- foreign key takes anyway a moment later: no new lock and no extra
-- round trip or query on the sale's commit path), and deactivating,
-- deleting or making a grouping account of an account locks it FOR UPDATE
-- first. Whichever comes second waits for the other to commit: a posting
-- then sees the account inactive (422 under lineas.N.cuenta_id; READ
-- COMMITTED re-reads the locked row's newest version), a deletion sees its
-- lines (422). Renaming an account
-- still locks it for no key update and does not wait for postings.
--
-- 2. A reversal (POST /api/asientos-contables/{id}/anular, a cancelled
-- sale, stock movement or payment, an annulled payroll) may credit or
-- debit an account deactivated since the entry was posted: it only
-- takes back what the entry put there, so refusing it would leave the
-- wrong history standing because its account was later archived (and
-- answered under lineas.0.cuenta_id, a key the annul request does not
-- have). Inactive means "no new postings", as in the ERPs that block
-- archived accounts for new entries but not for reversals of existing
-- ones. A reversal's accounts still have to exist and take postings
-- (an account with lines can neither be deleted nor become a grouping
-- account).
--
-- contabilidad_asentar of 0023 with its accounts locked in the checking
-- query and p_reversion (new, last: inactive accounts accepted);
-- contabilidad_reversar of 0012 posting through it as a reversal (same
-- lines, description, origin, currency and updates; it went through
-- contabilidad_registrar's jsonb); contabilidad_contabilizar of 0012 with
-- the accounts locked in its lines' query. contabilidad_registrar (0023)
-- calls contabilidad_asentar with the first thirteen arguments, unchanged.

DROP FUNCTION contabilidad_asentar(bigint, date, text, text, bigint, bigint[], numeric[], numeric[], bigint[], text[], text, numeric, text);

CREATE FUNCTION contabilidad_asentar(p_empresa bigint, p_fecha date, p_descripcion text, p_origen text, p_origen_id bigint,
    p_cuentas bigint[], p_debe numeric[], p_haber numeric[], p_sucursales bigint[], p_descripciones text[],
    p_moneda text DEFAULT 'CRC', p_tipo_cambio numeric DEFAULT 1, p_campo_fecha text DEFAULT 'fecha',
    p_reversion boolean DEFAULT false)
RETURNS bigint
LANGUAGE plpgsql AS $$
DECLARE
  v_id bigint;
  n integer;
  debe numeric(18,2);
  haber numeric(18,2);
  mala integer;
  inactiva boolean;
  k bigint;
BEGIN
  IF NOT EXISTS (SELECT 1 FROM unnest(p_debe, p_haber) AS x(d, h) WHERE coalesce(d, 0) > 0 OR coalesce(h, 0) > 0) THEN
    RETURN NULL;
  END IF;
  -- One pass over the lines: how many, their sums, and the first line
  -- (in order) whose account cannot take the posting, with why. The
  -- accounts are locked for key share until commit as they are read (a
  -- deactivation or deletion in flight, which holds the row FOR UPDATE, is
  -- waited for and its result read; one that comes later waits for this
  -- transaction). An outer join cannot lock its nullable side, hence the
  -- materialized CTE.
  WITH c AS MATERIALIZED (
    SELECT c.id, c.eliminado, c.activo, c.acepta_movimientos FROM cuentas_contables c
    WHERE c.empresa_id = p_empresa AND c.id = ANY (p_cuentas)
    FOR KEY SHARE)
  SELECT count(*), sum(l.debe), sum(l.haber), min(l.linea) FILTER (WHERE l.mala),
      (array_agg(l.inactiva ORDER BY l.linea) FILTER (WHERE l.mala))[1]
    INTO n, debe, haber, mala, inactiva
    FROM (SELECT row_number() OVER (ORDER BY x.i) AS linea, round(coalesce(x.d, 0), 2) AS debe, round(coalesce(x.h, 0), 2) AS haber,
            (c.id IS NULL OR c.eliminado OR (NOT c.activo AND NOT p_reversion)) AS inactiva,
            (c.id IS NULL OR c.eliminado OR (NOT c.activo AND NOT p_reversion) OR NOT c.acepta_movimientos) AS mala
          FROM unnest(p_cuentas, p_debe, p_haber) WITH ORDINALITY AS x(cuenta, d, h, i)
          LEFT JOIN c ON c.id = x.cuenta
          WHERE round(coalesce(x.d, 0), 2) > 0 OR round(coalesce(x.h, 0), 2) > 0) l;
  IF mala IS NOT NULL THEN
    IF inactiva THEN
      PERFORM contabilidad_error(format('lineas.%s.cuenta_id', mala - 1), 'La cuenta contable no existe o está inactiva.');
    END IF;
    PERFORM contabilidad_error(format('lineas.%s.cuenta_id', mala - 1),
      'La cuenta contable es de agrupación: solo las cuentas de detalle aceptan movimientos.');
  END IF;
  IF n < 2 THEN
    PERFORM contabilidad_error('lineas', 'Un asiento necesita al menos dos líneas.');
  END IF;
  IF debe <> haber THEN
    PERFORM contabilidad_error('lineas', format('El asiento no cuadra: el debe suma %s y el haber %s.', debe, haber));
  END IF;
  PERFORM contabilidad_verificar_periodo(p_empresa, p_fecha, p_campo_fecha);
  INSERT INTO contadores (empresa_id, clave, valor) VALUES (p_empresa, 'asientos:' || extract(year FROM p_fecha), 1)
    ON CONFLICT (empresa_id, clave) DO UPDATE SET valor = contadores.valor + 1, actualizado_en = now()
    RETURNING valor INTO k;
  INSERT INTO asientos_contables (empresa_id, numero, fecha, descripcion, origen, origen_id, estado, moneda, tipo_cambio,
      total_debe, total_haber, usuario_id, contabilizado_en, actualizado_en)
    VALUES (p_empresa, format('AS-%s-%s', extract(year FROM p_fecha), lpad(k::text, 6, '0')), p_fecha, left(p_descripcion, 1000),
      p_origen, p_origen_id, 'contabilizado', p_moneda, p_tipo_cambio, debe, haber, nullif(app_usuario_id(), 0), now(), now())
    RETURNING asientos_contables.id INTO v_id;
  INSERT INTO asiento_lineas (empresa_id, asiento_id, linea, cuenta_id, debe, haber, descripcion, sucursal_id)
  SELECT p_empresa, v_id, row_number() OVER (ORDER BY x.i), x.cuenta, round(coalesce(x.d, 0), 2), round(coalesce(x.h, 0), 2), x.t, x.s
    FROM unnest(p_cuentas, p_debe, p_haber, p_sucursales, p_descripciones) WITH ORDINALITY AS x(cuenta, d, h, s, t, i)
    WHERE round(coalesce(x.d, 0), 2) > 0 OR round(coalesce(x.h, 0), 2) > 0;
  RETURN v_id;
END $$;
REVOKE ALL ON FUNCTION contabilidad_asentar(bigint, date, text, text, bigint, bigint[], numeric[], numeric[], bigint[], text[], text, numeric, text, boolean) FROM PUBLIC;
GRANT EXECUTE ON FUNCTION contabilidad_asentar(bigint, date, text, text, bigint, bigint[], numeric[], numeric[], bigint[], text[], text, numeric, text, boolean) TO erp_app;

-- contabilidad_reversar posts the reversing entry of a posted one (each
-- debit a credit and back) on p_fecha, and marks the original anulado: a
-- posted entry is never edited or deleted. Its lines go straight to
-- contabilidad_asentar as a reversal (an account deactivated since is
-- accepted), in the order of the original's lines.
CREATE OR REPLACE FUNCTION contabilidad_reversar(p_asiento bigint, p_origen text, p_origen_id bigint, p_fecha date,
    p_campo_fecha text DEFAULT 'fecha') RETURNS bigint
LANGUAGE plpgsql AS $$
DECLARE
  a asientos_contables;
  v_id bigint;
  cuentas bigint[];
  debes numeric[];
  haberes numeric[];
  sucursales bigint[];
  descripciones text[];
BEGIN
  SELECT * INTO a FROM asientos_contables WHERE asientos_contables.id = p_asiento FOR UPDATE;
  IF a.estado <> 'contabilizado' OR a.reversado_por_id IS NOT NULL THEN
    PERFORM contabilidad_error('estado', 'Solo un asiento contabilizado y no anulado se puede anular.');
  END IF;
  SELECT array_agg(l.cuenta_id ORDER BY l.linea), array_agg(l.haber ORDER BY l.linea), array_agg(l.debe ORDER BY l.linea),
      array_agg(l.sucursal_id ORDER BY l.linea), array_agg(l.descripcion ORDER BY l.linea)
    INTO cuentas, debes, haberes, sucursales, descripciones
    FROM asiento_lineas l WHERE l.empresa_id = a.empresa_id AND l.asiento_id = a.id;
  v_id := contabilidad_asentar(a.empresa_id, p_fecha, 'Anulación de ' || a.numero || ': ' || a.descripcion, p_origen, p_origen_id,
    cuentas, debes, haberes, sucursales, descripciones, a.moneda, a.tipo_cambio, p_campo_fecha, true);
  UPDATE asientos_contables SET reversa_de_id = a.id WHERE asientos_contables.id = v_id;
  UPDATE asientos_contables SET estado = 'anulado', anulado_en = now(), reversado_por_id = v_id WHERE asientos_contables.id = a.id;
  RETURN v_id;
END $$;

-- contabilidad_contabilizar posts an entry: its lines must be at least two,
-- each a debit or a credit on an active leaf account of the company, and
-- balance; its month must be open. It gets the next number of its year
-- (the counter row is updated in this transaction: a rollback gives the
-- number back, so numbers have no gaps). The lines' accounts are locked
-- for key share in the query that checks them (see 1. above).
CREATE OR REPLACE FUNCTION contabilidad_contabilizar(p_asiento bigint, p_campo_fecha text DEFAULT 'fecha') RETURNS void
LANGUAGE plpgsql AS $$
DECLARE
  a asientos_contables;
  l record;
  n integer := 0;
  debe numeric(18,2);
  haber numeric(18,2);
  k bigint;
BEGIN
  SELECT * INTO a FROM asientos_contables WHERE id = p_asiento FOR UPDATE;
  IF a.estado <> 'borrador' THEN
    PERFORM contabilidad_error('estado', 'Solo un asiento en borrador se puede contabilizar.');
  END IF;
  FOR l IN WITH c AS MATERIALIZED (
        SELECT c.id, c.activo, c.acepta_movimientos, c.eliminado FROM cuentas_contables c
        WHERE c.empresa_id = a.empresa_id AND c.id IN (SELECT al.cuenta_id FROM asiento_lineas al
          WHERE al.empresa_id = a.empresa_id AND al.asiento_id = a.id)
        FOR KEY SHARE)
      SELECT al.linea, c.id AS cuenta, c.activo, c.acepta_movimientos, c.eliminado
      FROM asiento_lineas al LEFT JOIN c ON c.id = al.cuenta_id
      WHERE al.empresa_id = a.empresa_id AND al.asiento_id = a.id ORDER BY al.linea LOOP
    n := n + 1;
    IF l.cuenta IS NULL OR l.eliminado OR NOT l.activo THEN
      PERFORM contabilidad_error(format('lineas.%s.cuenta_id', l.linea - 1), 'La cuenta contable no existe o está inactiva.');
    ELSIF NOT l.acepta_movimientos THEN
      PERFORM contabilidad_error(format('lineas.%s.cuenta_id', l.linea - 1),
        'La cuenta contable es de agrupación: solo las cuentas de detalle aceptan movimientos.');
    END IF;
  END LOOP;
  IF n < 2 THEN
    PERFORM contabilidad_error('lineas', 'Un asiento necesita al menos dos líneas.');
  END IF;
  SELECT sum(al.debe), sum(al.haber) INTO debe, haber FROM asiento_lineas al WHERE al.empresa_id = a.empresa_id AND al.asiento_id = a.id;
  IF debe <> haber THEN
    PERFORM contabilidad_error('lineas', format('El asiento no cuadra: el debe suma %s y el haber %s.', debe, haber));
  END IF;
  PERFORM contabilidad_verificar_periodo(a.empresa_id, a.fecha, p_campo_fecha);
  INSERT INTO contadores (empresa_id, clave, valor) VALUES (a.empresa_id, 'asientos:' || extract(year FROM a.fecha), 1)
    ON CONFLICT (empresa_id, clave) DO UPDATE SET valor = contadores.valor + 1, actualizado_en = now()
    RETURNING valor INTO k;
  UPDATE asientos_contables SET estado = 'contabilizado', contabilizado_en = now(), total_debe = debe, total_haber = haber,
      numero = format('AS-%s-%s', extract(year FROM a.fecha), lpad(k::text, 6, '0'))
    WHERE id = a.id;
END $$;
