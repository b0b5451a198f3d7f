-- Inventory reports (inventario-valorizado, kardex) are cached per company
-- version like the others, and the version moves when an accounting entry is
-- posted. A transfer between warehouses posts no entry (0012 skips it: the
-- company's inventory value does not change), yet it changes both reports per
-- warehouse, so a processed transfer moves the version itself.
CREATE TRIGGER movimientos_inventario_reportes AFTER INSERT OR UPDATE OF estado ON movimientos_inventario
  FOR EACH ROW WHEN (NEW.tipo = 'Transferencia' AND NEW.estado = 'Procesada')
  EXECUTE FUNCTION reportes_tg_invalidar();
