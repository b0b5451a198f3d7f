-- 0013: the cache of the financial reports (issue 13, shared/reportes).
--
-- A report is computed from the books (asiento_lineas of posted entries)
-- and its JSON is kept in reportes_cache under a key made of its type and
-- its normalized parameters, tagged with the company's cache version at
-- the time it was computed. Anything that can change a report bumps the
-- company's version in the same transaction (the triggers below): an
-- entry posted or reversed, an account created or changed, an exchange
-- rate entered or changed. A cached row is used only while its version is
-- the company's current one and it has not expired (TTL, set by the
-- application: shared/reportes/cache.go); POST /api/reportes/invalidar-cache
-- deletes the company's rows and bumps the version.
--
-- Contention: the version row is updated by every posting transaction of a
-- company and held until COMMIT; postings of one company already serialize
-- on their gapless numbering counter (contadores), so this adds none.

CREATE TABLE reportes_cache_version (
  empresa_id     bigint PRIMARY KEY REFERENCES empresas(id),
  version        bigint NOT NULL DEFAULT 0,
  actualizado_en timestamptz NOT NULL DEFAULT now()
);

CREATE TABLE reportes_cache (
  empresa_id  bigint NOT NULL REFERENCES empresas(id),
  clave       text NOT NULL,
  version     bigint NOT NULL,
  datos       bytea NOT NULL,
  creado_en   timestamptz NOT NULL DEFAULT now(),
  expira_en   timestamptz NOT NULL,
  PRIMARY KEY (empresa_id, clave)
);
CREATE INDEX reportes_cache_expira ON reportes_cache (empresa_id, expira_en);

ALTER TABLE reportes_cache_version ENABLE ROW LEVEL SECURITY;
ALTER TABLE reportes_cache ENABLE ROW LEVEL SECURITY;
CREATE POLICY reportes_cache_version_tenant ON reportes_cache_version
  USING (empresa_id = app_empresa_id()) WITH CHECK (empresa_id = app_empresa_id());
CREATE POLICY reportes_cache_tenant ON reportes_cache
  USING (empresa_id = app_empresa_id()) WITH CHECK (empresa_id = app_empresa_id());
GRANT SELECT, INSERT, UPDATE ON reportes_cache_version TO erp_app;
GRANT SELECT, INSERT, UPDATE, DELETE ON reportes_cache TO erp_app;

-- reportes_invalidar bumps a company's cache version. SECURITY DEFINER: it
-- runs from triggers of rows that already passed their own row-level
-- security (and from the owner's backfills, where no tenant is set), and
-- touches only the version row of that row's company.
CREATE FUNCTION reportes_invalidar(p_empresa bigint) RETURNS void
LANGUAGE sql SECURITY DEFINER SET search_path = public, pg_temp AS $$
  INSERT INTO reportes_cache_version (empresa_id, version) VALUES (p_empresa, 1)
  ON CONFLICT (empresa_id) DO UPDATE SET version = reportes_cache_version.version + 1, actualizado_en = now()
$$;
REVOKE ALL ON FUNCTION reportes_invalidar(bigint) FROM PUBLIC;

CREATE FUNCTION reportes_tg_invalidar() RETURNS trigger
LANGUAGE plpgsql SECURITY DEFINER SET search_path = public, pg_temp AS $$
BEGIN
  PERFORM reportes_invalidar(NEW.empresa_id);
  RETURN NULL;
END $$;

-- A posting: an entry leaving borrador (contabilizado), or a posted one
-- reversed (anulado), or a posted one inserted as such. Drafts change no
-- report.
CREATE TRIGGER asientos_contables_reportes_insert AFTER INSERT ON asientos_contables
  FOR EACH ROW WHEN (NEW.estado <> 'borrador') EXECUTE FUNCTION reportes_tg_invalidar();
CREATE TRIGGER asientos_contables_reportes_update AFTER UPDATE OF estado, fecha, eliminado ON asientos_contables
  FOR EACH ROW WHEN (NEW.estado <> 'borrador' OR OLD.estado <> 'borrador') EXECUTE FUNCTION reportes_tg_invalidar();
-- Account names, codes and the hierarchy show in every report.
CREATE TRIGGER cuentas_contables_reportes AFTER INSERT OR UPDATE ON cuentas_contables
  FOR EACH ROW EXECUTE FUNCTION reportes_tg_invalidar();
-- Reports in USD use the rate of each entry's date.
CREATE TRIGGER tipos_cambio_reportes AFTER INSERT OR UPDATE ON tipos_cambio
  FOR EACH ROW EXECUTE FUNCTION reportes_tg_invalidar();
-- The cash flow reads which accounts are cash and banks.
CREATE TRIGGER contabilidad_configuracion_reportes AFTER UPDATE ON contabilidad_configuracion
  FOR EACH ROW EXECUTE FUNCTION reportes_tg_invalidar();
