package organizacion_test

import (
	"fmt"
	"net/http"
	"testing"

	"github.com/erpcr/erp/shared/testenv"
)

// A branch or warehouse that becomes the principal while its DELETE is in
// flight is not deleted: the delete read it unlocked, as not principal, and
// then deleted it once the switch committed, leaving the company with a
// deleted principal (200 instead of 422). Made deterministic by an owner
// transaction that makes the row principal and holds the company's rows.
func TestARecordBecomingPrincipalDuringItsDeleteIsNotDeleted(t *testing.T) {
	s := newStack(t)
	suc := s.principalID(t, "/api/sucursales", s.admin1)
	for _, c := range []struct {
		table, path string
		body        map[string]any
	}{
		{"sucursales", "/api/sucursales", map[string]any{"nombre": "Sucursal Oeste"}},
		{"almacenes", "/api/almacenes", map[string]any{"nombre": "Bodega Oeste", "sucursal_id": suc}},
	} {
		t.Run(c.table, func(t *testing.T) {
			id := s.create(t, c.path, s.admin1, c.body)
			r := s.WhileLocked(t, `update `+c.table+` set es_principal = (id = $1) where empresa_id = 1`, []any{id}, "%"+c.table+"%",
				func() testenv.Resp { return s.req(http.MethodDelete, fmt.Sprintf("%s/%d", c.path, id), s.admin1, nil) })
			testenv.Expect422(t, r, "es_principal")
			if got := testenv.Scalar[bool](t, s.Env, `select es_principal and not eliminado from `+c.table+` where id = $1`, id); !got {
				t.Errorf("the principal was deleted")
			}
		})
	}
}
