package dashboard

import (
	"bytes"
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
		"dashboard.show":            etiquetaDeCifras(handler.Get(d.DB, leerFiltros, Leer)),
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

// etiquetaDeCifras tags the board by its figures: the same figures (one
// generado_en) read from the cache or just computed get the same weak ETag,
// so If-None-Match answers 304 until a write changes them; desde_cache only
// says where this reading came from. The path and Accept (v1 or v2) are
// part of the tag, as each representation has its own.
func etiquetaDeCifras(h httpx.HandlerFunc) httpx.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) error {
		b := &httpx.BufferWriter{HeaderMap: w.Header()}
		if err := h(b, r); err != nil {
			return err
		}
		if b.Status == http.StatusOK {
			cifras := bytes.Replace(b.Body.Bytes(), []byte(`"desde_cache":true`), []byte(`"desde_cache":false`), 1)
			base := append([]byte(r.URL.Path+"\n"+r.Header.Get("Accept")+"\n"), cifras...)
			w.Header().Set("ETag", "W/"+httpx.ETagOf(base))
		}
		if b.Status != 0 {
			w.WriteHeader(b.Status)
		}
		_, err := w.Write(b.Body.Bytes())
		return err
	}
}
