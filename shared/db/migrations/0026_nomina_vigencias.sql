-- 0026: payroll rates (nomina_tarifas, 0020) of one kind and concept may
-- not be in force twice on the same day. 0020 only refused two rows with
-- the same vigente_desde, so a new "obrero SEM" from 2026-06-01 beside the
-- open-ended one from 2026-01-01 was accepted, and a planilla of June
-- summed both rates (the worker's CCSS share counted twice); two child
-- credits in force made the calculation pick one at random. shared/nomina
-- closes the open-ended rate a new one supersedes (the day before it
-- starts); any other overlap, including one of two concurrent writes, is
-- refused here and mapped to a 422 under vigente_desde.
CREATE EXTENSION IF NOT EXISTS btree_gist;

ALTER TABLE nomina_tarifas ADD CONSTRAINT nomina_tarifas_sin_solape
  EXCLUDE USING gist (tipo WITH =, concepto WITH =, daterange(vigente_desde, vigente_hasta, '[]') WITH &&);

-- The calculation reads a credit only as concepto hijo or conyuge and a
-- provision only as aguinaldo (shared/nomina/tarifas.go, escanearTabla): a
-- "hijos" or "nieto" credit was accepted and silently never applied. The
-- other concepts are stored upper-cased (shared/nomina upper-cases them),
-- so "sem" is the same concept as "SEM" and supersedes it instead of
-- being summed beside it.
ALTER TABLE nomina_tarifas ADD CONSTRAINT nomina_tarifas_concepto_conocido CHECK (CASE tipo
  WHEN 'credito' THEN concepto IN ('hijo', 'conyuge')
  WHEN 'provision' THEN concepto = 'aguinaldo'
  ELSE concepto = upper(concepto) END);
