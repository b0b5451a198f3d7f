-- Units of measure (global catalog, written by the Administrador through the
-- API): two fixes to the master-data schema.

-- 1. Their official code and their abbreviation are unique among the units
-- not deleted, like every other unique rule, so that a deleted unit does not
-- hold its code or abbreviation forever (a soft-deleted row is invisible to
-- the API and cannot be brought back). The seed no longer upserts on the code.
ALTER TABLE unidades_medida DROP CONSTRAINT unidades_medida_codigo_key;
ALTER TABLE unidades_medida DROP CONSTRAINT unidades_medida_abreviatura_key;
CREATE UNIQUE INDEX unidades_medida_codigo_key ON unidades_medida (codigo) WHERE NOT eliminado;
CREATE UNIQUE INDEX unidades_medida_abreviatura_key ON unidades_medida (abreviatura) WHERE NOT eliminado;

-- 2. The products that use a unit belong to companies, and row-level security
-- shows the application role only the tenant's products. Deleting a unit
-- must be refused while any company's live product uses it, so this narrow
-- function answers just that, for one unit, without exposing the products.
CREATE FUNCTION unidad_medida_en_uso(p_unidad_id bigint) RETURNS boolean
LANGUAGE sql STABLE SECURITY DEFINER SET search_path = public, pg_temp AS $$
  SELECT EXISTS (SELECT 1 FROM productos p WHERE p.unidad_medida_id = p_unidad_id AND NOT p.eliminado)
$$;
REVOKE ALL ON FUNCTION unidad_medida_en_uso(bigint) FROM PUBLIC;
GRANT EXECUTE ON FUNCTION unidad_medida_en_uso(bigint) TO erp_app;
CREATE INDEX productos_unidad_medida ON productos (unidad_medida_id) WHERE NOT eliminado;
