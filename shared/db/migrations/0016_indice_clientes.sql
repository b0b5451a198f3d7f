-- 0016: the dashboard's index of new customers starts with the date.
--
-- (empresa_id, creado_en) from 0015 also served "empresa_id = $1" alone, so
-- for a company without statistics yet (a new company importing its
-- customers) the planner took it for the uniqueness check of each imported
-- row instead of the unique index (empresa_id, identificacion), filtering
-- row by row: an import got slower with every row. Starting with creado_en
-- it serves only date ranges (clientes_nuevos_mes).
DROP INDEX IF EXISTS clientes_creado_en;
CREATE INDEX clientes_creado_en ON clientes (creado_en, empresa_id) WHERE NOT eliminado;
