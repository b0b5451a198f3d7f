package gateway_test

import (
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"testing"

	"github.com/erpcr/erp/shared/docs/fuentes"
	"github.com/erpcr/erp/shared/esquema"
	"github.com/erpcr/erp/shared/routes"
	"github.com/erpcr/erp/shared/testenv"
)

// consulta is one query string sent to a list and the parameter its 422
// must name ("" when the list must accept it).
type consulta struct{ query, campo string }

// comunes are the parameters every list shares (README "HTTP conventions":
// page, per_page, sort/order on a whitelist, activos, formato), each sent
// wrong. A pair Go's query parser drops (a semicolon, a bad % escape) must
// not pass for an absent parameter.
var comunes = []consulta{
	{"sort=no_existe", "sort"}, {"sort=id%3Bdrop", "sort"}, {"sort=id;drop", "sort"}, {"sort=-id", "sort"},
	{"order=de_lado", "order"}, {"order=asc;drop", "order"},
	{"page=0", "page"}, {"page=-1", "page"}, {"page=abc", "page"}, {"page=99999999999", "page"},
	{"per_page=0", "per_page"}, {"per_page=1000000", "per_page"}, {"per_page=abc", "per_page"},
	{"activos=tal-vez", "activos"}, {"formato=zzz", "formato"}, {"search=%zz", "search"},
}

// propias are a documented list parameter sent wrong (by its declared
// type), and sent right.
func propias(c esquema.Campo) (malas []consulta, buena string) {
	q := url.QueryEscape(c.Nombre) + "="
	switch {
	case c.Nombre == "formato": // a good one downloads a file: the exports' tests
		return nil, ""
	case c.Tipo == esquema.Booleano:
		return []consulta{{q + "tal-vez", c.Nombre}}, q + "true"
	case c.Tipo == esquema.Entero:
		bien := "1"
		if c.Minimo != "" {
			bien = c.Minimo
		}
		malas = []consulta{{q + "abc", c.Nombre}, {q + "1.5", c.Nombre}, {q + "99999999999999999999", c.Nombre}}
		if min, err := strconv.Atoi(c.Minimo); err == nil && min > -1 {
			malas = append(malas, consulta{q + "-1", c.Nombre})
		}
		return malas, q + bien
	case c.Tipo == esquema.Fecha:
		return []consulta{{q + "2026-02-30", c.Nombre}, {q + "abc", c.Nombre}}, q + "2026-01-15"
	case len(c.Valores) > 0:
		return []consulta{{q + "no-es-un-valor", c.Nombre}}, q + url.QueryEscape(c.Valores[0])
	}
	return nil, q + "x"
}

// TestEveryListRefusesBadListParametersAlike walks every list of the route
// table (the operations the OpenAPI document marks as pages, with the
// parameters it documents for them), so a new list is covered as soon as it
// is declared: each bad parameter is a 422 with a Spanish message under its
// own name, several at once are all reported, every list documents its
// sort values, and every documented parameter sent right is accepted.
func TestEveryListRefusesBadListParametersAlike(t *testing.T) {
	e, tok := testenv.NewAdmin(t)
	f := fuentes.Todas()
	listas := 0
	for _, rt := range routes.All() {
		if rt.Method != http.MethodGet || !f.Listas[rt.Name] {
			continue
		}
		listas++
		path := strings.ReplaceAll(rt.Path, "{id}", "1")
		casos := append([]consulta(nil), comunes...)
		buenas := []string{"page=2", "per_page=1", "order=desc", "activos=1", "activos=false", "search=%00x"}
		documentaOrden := false
		juntas := []consulta{{"page=0", "page"}, {"per_page=abc", "per_page"}, {"activos=x", "activos"}, {"sort=no_existe", "sort"}}
		for _, c := range f.Consultas[rt.Name] {
			documentaOrden = documentaOrden || c.Nombre == "sort" && len(c.Valores) > 0
			malas, buena := propias(c)
			if len(malas) > 0 && c.Nombre != "sort" && c.Nombre != "activos" {
				juntas = append(juntas, malas[0])
			}
			casos = append(casos, malas...)
			if buena != "" {
				buenas = append(buenas, buena)
			}
		}
		t.Run(rt.Name, func(t *testing.T) {
			if !documentaOrden {
				t.Errorf("GET %s does not document its sort values", rt.Path)
			}
			for _, c := range casos {
				// Spanish: "El campo page debe ser...", "El tipo seleccionado...".
				r := e.Get(path+"?"+c.query, tok)
				msgs := r.FieldErrors(c.campo)
				if r.Status != http.StatusUnprocessableEntity || len(msgs) == 0 || !strings.HasPrefix(msgs[0], "El ") {
					t.Errorf("?%s: %d, want 422 under %s: %.300s", c.query, r.Status, c.campo, r.Raw)
				}
			}
			// Every bad parameter is reported at once.
			var qs []string
			for _, c := range juntas {
				qs = append(qs, c.query)
			}
			r := e.Get(path+"?"+strings.Join(qs, "&"), tok)
			for _, c := range juntas {
				if len(r.FieldErrors(c.campo)) == 0 {
					t.Errorf("all at once: no errors[%s]: %d %.300s", c.campo, r.Status, r.Raw)
				}
			}
			// A list under a record (/{id}/...) may not find record 1: a
			// 404, never a refusal of the parameter.
			for _, q := range buenas {
				r := e.Get(path+"?"+q, tok)
				if r.Status != http.StatusOK && (r.Status != http.StatusNotFound || path == rt.Path) {
					t.Errorf("?%s: %d, want 200: %.300s", q, r.Status, r.Raw)
				}
			}
		})
	}
	if listas < 40 {
		t.Errorf("only %d lists walked", listas)
	}
}
