package reportes

import (
	"bytes"
	"context"
	"fmt"
	"net/http"
	"strconv"

	"github.com/erpcr/erp/shared/apperr"
	"github.com/erpcr/erp/shared/auth"
	"github.com/erpcr/erp/shared/db"
	"github.com/erpcr/erp/shared/handler"
	"github.com/erpcr/erp/shared/httpx"
	"github.com/erpcr/erp/shared/lambdahttp"
	"github.com/erpcr/erp/shared/plataforma"
	"github.com/erpcr/erp/shared/ratelimit"
	"github.com/erpcr/erp/shared/routes"
)

// Service serves the reportes group.
type Service struct {
	DB      *db.DB
	Limites *ratelimit.Clases
}

// Grupo is the "reportes" function group (functions/reportes/main.go).
func Grupo(d *plataforma.Deps) lambdahttp.Handlers {
	return (&Service{DB: d.DB, Limites: &ratelimit.Clases{DB: d.DB, Limites: d.Cfg.Limites}}).Handlers()
}

// Handlers returns the group's handlers keyed by route name.
func (s *Service) Handlers() lambdahttp.Handlers {
	return lambdahttp.Handlers{
		"reportes.financiero":            s.exportable(handler.Get(s.DB, leerFinanciero, generar)),
		"reportes.balanza_comprobacion":  s.Servir(BalanzaComprobacion),
		"reportes.libro_mayor":           s.Servir(LibroMayor),
		"reportes.libro_diario":          s.Servir(LibroDiario),
		"reportes.antiguedad_cobrar":     s.Servir(AntiguedadCobrar),
		"reportes.antiguedad_pagar":      s.Servir(AntiguedadPagar),
		"reportes.ventas":                s.Servir(Ventas),
		"reportes.impuestos":             s.Servir(Impuestos),
		"reportes.inventario_valorizado": s.Servir(InventarioValorizado),
		"reportes.kardex":                s.Servir(Kardex),
		"reportes.compras":               s.Servir(Compras),
		"reportes.tipos": handler.Get(s.DB, handler.NoQuery, func(context.Context, *db.Tx, auth.Principal, struct{}) ([]TipoDoc, error) {
			return Documentar(), nil
		}),
		"reportes.invalidar_cache": handler.Put(s.DB, "Caché de reportes invalidada.", handler.NoBody, invalidar),
	}
}

// Servir is the handler of a registered report type on its own route
// (GET /api/reportes/<clave>): its parameters read and validated, the
// report from the cache or computed, answered in the asked format, and a
// PDF or Excel export counted against the reports class when the type's
// route is not of that class already. Reports registered later (the
// operational reports of issue 14) are served by it as they are.
func (s *Service) Servir(clave string) httpx.HandlerFunc {
	h := handler.Get(s.DB, leerTipo(clave), generar)
	if t, ok := Buscar(clave); ok && t.Limite == string(routes.RateReports) {
		return h
	}
	return s.exportable(h)
}

// Invalidacion is the answer of POST /api/reportes/invalidar-cache.
type Invalidacion struct {
	Eliminados int64 `json:"eliminados"`
}

func invalidar(ctx context.Context, tx *db.Tx, _ auth.Principal, _ struct{}) (Invalidacion, error) {
	n, err := Invalidar(ctx, tx)
	return Invalidacion{Eliminados: n}, err
}

// exportable counts a PDF or Excel export of a route whose own class is
// general against the reports class (SPEC.md "Limits": PDF reports are
// limited like the ledger and the trial balance), with the same key the
// route guard uses (user and company), so the budget is one.
func (s *Service) exportable(h httpx.HandlerFunc) httpx.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) error {
		f := r.URL.Query().Get("formato")
		if s.Limites != nil && (f == FormatoPDF || f == FormatoExcel) {
			p := auth.FromRequest(r)
			key := "u" + strconv.FormatInt(p.UsuarioID, 10) + ":e" + strconv.FormatInt(p.EmpresaID, 10)
			res, err := s.Limites.Contar(r.Context(), string(routes.RateReports), key)
			if err != nil {
				httpx.Logger(r.Context()).Warn("rate limit: not counted", "class", routes.RateReports, "error", err.Error())
			} else if err := lambdahttp.Encabezados(w, res, lambdahttp.MensajeLimite(routes.RateReports, res)); err != nil {
				return err
			}
		}
		return h(w, r)
	}
}

// peticion is a parsed report request.
type peticion struct {
	tipo Tipo
	c    Consulta
}

// leerFinanciero reads ?tipo= first: it says which parameters apply.
func leerFinanciero(r *http.Request) (peticion, error) {
	v := r.URL.Query().Get("tipo")
	switch v {
	case EstadoResultados, BalanceGeneral, FlujoEfectivo:
		return leerTipo(v)(r)
	case "":
		return peticion{}, apperr.InvalidField("tipo", "El campo tipo es obligatorio.")
	}
	return peticion{}, apperr.InvalidField("tipo", "El campo tipo debe ser uno de: "+EstadoResultados+", "+BalanceGeneral+", "+FlujoEfectivo+".")
}

// leerTipo reads the parameters of a registered type.
func leerTipo(clave string) func(r *http.Request) (peticion, error) {
	return func(r *http.Request) (peticion, error) {
		t, ok := Buscar(clave)
		if !ok {
			return peticion{}, fmt.Errorf("reportes: tipo no registrado %q", clave)
		}
		c, err := leerConsulta(r, t)
		if err != nil {
			return peticion{}, err
		}
		if t.Paginado && c.Formato != FormatoJSON {
			// A download is the whole report, not one page.
			c.Pagina = httpx.PageRequest{Page: 1, PerPage: 0}
		}
		return peticion{tipo: t, c: c}, nil
	}
}

// generar answers a report from the cache or computes, stores and
// answers it (cache.go).
func generar(ctx context.Context, tx *db.Tx, _ auth.Principal, q peticion) (handler.Escritor, error) {
	params := q.c.Parametros(q.tipo)
	key, err := clave(q.tipo, params)
	if err != nil {
		return nil, err
	}
	cc, err := leerCache(ctx, tx, key, q.c.SucursalID)
	if err != nil {
		return nil, err
	}
	if !cc.sucursalOK {
		return nil, apperr.InvalidField("sucursal_id", msgSucursal)
	}
	res := &respuesta{tipo: q.tipo, c: q.c, empresa: cc.empresa, cedula: cc.cedula, raw: cc.datos, hit: cc.datos != nil}
	if res.hit {
		return res, nil
	}
	rep, err := q.tipo.Generar(ctx, tx, q.c)
	if err != nil {
		return nil, err
	}
	rep.Parametros = params
	if rep.Secciones == nil {
		rep.Secciones = []Seccion{}
	}
	if res.raw, err = httpx.EncodeJSON(rep); err != nil {
		return nil, fmt.Errorf("reportes: codificar: %w", err)
	}
	res.raw = bytes.TrimSpace(res.raw)
	if err := guardarCache(ctx, tx, key, cc.version, res.raw); err != nil {
		return nil, err
	}
	return res, nil
}

// respuesta is a report ready to be written in its format.
type respuesta struct {
	tipo            Tipo
	c               Consulta
	empresa, cedula string
	raw             []byte
	hit             bool
}

// CacheHeader tells whether a report came from the cache (HIT) or was
// computed (MISS).
const CacheHeader = "X-Reporte-Cache"

// Escribir writes the JSON envelope around the stored report, or the file.
func (s *respuesta) Escribir(w http.ResponseWriter) error {
	if s.hit {
		w.Header().Set(CacheHeader, "HIT")
	} else {
		w.Header().Set(CacheHeader, "MISS")
	}
	if s.c.Formato == FormatoJSON || s.c.Formato == "" {
		var buf bytes.Buffer
		buf.Grow(len(s.raw) + 32)
		buf.WriteString(`{"success":true,"data":`)
		buf.Write(s.raw)
		buf.WriteString("}\n")
		httpx.WriteBody(w, http.StatusOK, buf.Bytes())
		return nil
	}
	rep, err := decodificar(s.raw)
	if err != nil {
		return err
	}
	a, err := Exportar(rep, s.tipo, Encabezado{Empresa: s.empresa, Cedula: s.cedula}, s.c.Formato)
	if err != nil {
		return err
	}
	return a.Escribir(w)
}
