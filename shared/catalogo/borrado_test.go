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
			r := e.WhileLocked(t, `update `+c.table+` set activo = false, eliminado = true where id = $1`, []any{c.id}, "update "+c.table+"%",
				func() testenv.Resp { return e.Call(admin, http.MethodDelete, item(c.path, c.id), nil) })
			if r.Status != http.StatusNotFound || testenv.Str(r.JSON, "message") == "" {
				t.Errorf("DELETE racing a committed delete: %d %s, want 404", r.Status, r.Raw)
			}
		})
	}
}
