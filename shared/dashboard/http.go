package dashboard

import (
	"context"
	"net/http"
	"strings"
	"time"

	"github.com/erpcr/erp/shared/apperr"
	"github.com/erpcr/erp/shared/auth"
	"github.com/erpcr/erp/shared/db"
	"github.com/erpcr/erp/shared/handler"
	"github.com/erpcr/erp/shared/horacr"
	"github.com/erpcr/erp/shared/httpx"
	"github.com/erpcr/erp/shared/lambdahttp"
	"github.com/erpcr/erp/shared/plataforma"
	"github.com/erpcr/erp/shared/valid"
)

// Grupo is the "dashboard" function group (functions/dashboard/main.go).
func Grupo(d *plataforma.Deps) lambdahttp.Handlers {
	return lambdahttp.Handlers{
		"dashboard.show":            handler.Get(d.DB, leerFiltros, Leer),
		"dashboard.invalidar-cache": handler.Put(d.DB, "Indicadores descartados; se recalcularán en la próxima consulta.", handler.NoBody, invalidar),
	}
}

// leerFiltros reads sucursal_id and fecha (default: today in Costa Rica).
func leerFiltros(r *http.Request) (Filtros, error) {
	q := httpx.NewFilters(r)
	f := Filtros{SucursalID: q.ID("sucursal_id"), Fecha: time.Now().In(horacr.Zona)}
	if v := strings.TrimSpace(r.URL.Query().Get("fecha")); v != "" {
		d, ok := valid.ParseDate(v, horacr.Zona)
		if !ok {
			return f, apperr.InvalidField("fecha", valid.DateMessage("fecha"))
		}
		f.Fecha = d
	}
	return f, q.Err()
}

func invalidar(ctx context.Context, tx *db.Tx, _ auth.Principal, _ struct{}) (*struct{}, error) {
	return nil, Invalidar(ctx, tx)
}
