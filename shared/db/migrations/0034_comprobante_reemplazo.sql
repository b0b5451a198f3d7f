-- A comprobante that Hacienda rejected (or answered ind-estado "error") is
-- final, and in Costa Rica it is replaced by a NEW comprobante with its own
-- consecutivo and clave (the rejected number is never reused). The table's
-- "one comprobante per sale and document type" rule made that impossible:
-- generar returned the rejected document while every step on it said to
-- issue a new one. The rule now holds among the documents still alive: at
-- most one per sale and type that is not deleted and not finally refused.
-- The predicate must match facturacion's reemplazable (generar.go).

DO $$
DECLARE c text;
BEGIN
  SELECT con.conname INTO c FROM pg_constraint con
   WHERE con.conrelid = 'comprobantes_electronicos'::regclass AND con.contype = 'u'
     AND con.conkey = ARRAY(SELECT a.attnum FROM unnest(ARRAY['empresa_id', 'venta_id', 'tipo_documento']) WITH ORDINALITY AS n(col, i)
                             JOIN pg_attribute a ON a.attrelid = con.conrelid AND a.attname = n.col ORDER BY n.i)::int2[];
  EXECUTE format('ALTER TABLE comprobantes_electronicos DROP CONSTRAINT %I', c);
END $$;

CREATE UNIQUE INDEX comprobantes_electronicos_vigente ON comprobantes_electronicos (empresa_id, venta_id, tipo_documento)
  WHERE NOT eliminado AND estado <> 'rejected' AND NOT (estado = 'error' AND respondido_en IS NOT NULL);
