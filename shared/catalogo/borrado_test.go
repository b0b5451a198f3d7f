package catalogo_test

import (
	"net/http"
	"testing"

	"github.com/erpcr/erp/shared/testenv"
)

// Of two deletes of one record racing, the first to commit answers 200 and
// the other 404, as a later delete does; both answered 200 (the second one
// found the row before the first committed and updated it again). Made
// deterministic by an owner transaction that soft-deletes the row and holds
// its lock while the API's DELETE waits for it. The engine is recurso's, so
// this covers every declared resource; two of them are tried.
func TestADeleteRacingAnotherDeleteOfTheSameRecordAnswers404(t *testing.T) {
	e, admin := testenv.NewAdmin(t)
	cat := e.Create(t, admin, categorias, obj{"nombre": "Efímera"})
	prod := e.Create(t, admin, productos, producto(1, 1, "Efímero"))
	for _, c := range []struct {
		table, path string
		id          int
	}{{"categorias_producto", categorias, cat}, {"productos", productos, prod}} {
		t.Run(c.table, func(t *testing.T) {
			r := e.WhileLocked(t, `update `+c.table+` set activo = false, eliminado = true where id = $1`, []any{c.id}, "%"+c.table+"%",
				func() testenv.Resp { return e.Call(admin, http.MethodDelete, item(c.path, c.id), nil) })
			if r.Status != http.StatusNotFound || testenv.Str(r.JSON, "message") == "" {
				t.Errorf("DELETE racing a committed delete: %d %s, want 404", r.Status, r.Raw)
			}
		})
	}
}

// A category is never deleted under a product written at the same time: a
// DELETE arriving while a product of the category is being created waits
// for it (the product's foreign key holds the row the delete locks first)
// and is refused as in use; a product arriving while the category is being
// deleted waits for the delete (its reference check takes a key-share lock)
// and is refused under categoria_id. Both used to succeed, leaving a live
// product in a deleted category.
func TestACategoryAndAProductOfItWrittenAtOnceNeverLeaveTheProductInADeletedCategory(t *testing.T) {
	e, admin := testenv.NewAdmin(t)
	t.Run("delete during the product's creation", func(t *testing.T) {
		cat := e.Create(t, admin, categorias, obj{"nombre": "Ocupada"})
		r := e.WhileLocked(t, `insert into productos (empresa_id, categoria_id, unidad_medida_id, nombre, tipo, precio_venta)
			values (1, $1, 1, 'Recién llegado', 'producto', 1)`, []any{cat}, "select 1 from categorias_producto%",
			func() testenv.Resp { return e.Call(admin, http.MethodDelete, item(categorias, cat), nil) })
		testenv.Expect422(t, r, "categoria")
	})
	t.Run("product during the category's deletion", func(t *testing.T) {
		cat := e.Create(t, admin, categorias, obj{"nombre": "Saliente"})
		// As recurso deletes: the row locked for update, then flagged.
		r := e.WhileLocked(t, `with l as (select id from categorias_producto where id = $1 for update)
			update categorias_producto set activo = false, eliminado = true where id in (select id from l)`, []any{cat}, "%for key share%",
			func() testenv.Resp { return e.Call(admin, http.MethodPost, productos, producto(cat, 1, "Tardío")) })
		testenv.Expect422(t, r, "categoria_id")
	})
}
