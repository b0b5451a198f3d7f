-- A processed transfer moved the reports' cache version (0021) from a plain
-- AFTER trigger, that is when its exit was inserted: from then on it held
-- the company's reportes_cache_version row while it went on to take the
-- ENT counter for its entry. An entry (or a purchase receipt) holding that
-- counter reaches the same row at COMMIT, through the posting of its
-- accounting entry (asientos_contables' trigger of 0013), so the two
-- deadlocked. Deferred to COMMIT, the bump happens after every business
-- lock of the transfer, in the order every transaction takes the company's
-- rows there (books' counter, reports' version, dashboard's version).
DROP TRIGGER movimientos_inventario_reportes ON movimientos_inventario;
CREATE CONSTRAINT TRIGGER movimientos_inventario_reportes AFTER INSERT OR UPDATE OF estado ON movimientos_inventario
  DEFERRABLE INITIALLY DEFERRED
  FOR EACH ROW WHEN (NEW.tipo = 'Transferencia' AND NEW.estado = 'Procesada')
  EXECUTE FUNCTION reportes_tg_invalidar();
