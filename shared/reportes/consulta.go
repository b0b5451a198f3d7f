package reportes

import (
	"net/http"
	"strconv"
	"time"

	"github.com/erpcr/erp/shared/apperr"
	"github.com/erpcr/erp/shared/esquema"
	"github.com/erpcr/erp/shared/horacr"
	"github.com/erpcr/erp/shared/httpx"
)

// Currencies of a report.
const (
	CRC = "CRC"
	USD = "USD"
)

// PeriodoAnterior is the one comparison (?comparar=periodo_anterior).
const PeriodoAnterior = "periodo_anterior"

// MaxDias bounds a report's period (ten years): a larger range is a typo,
// and the comparison doubles it.
const MaxDias = 3660

// Consulta is a report's parameters, validated and normalized.
type Consulta struct {
	Tipo        string
	FechaInicio time.Time
	FechaFin    time.Time
	SucursalID  *int64
	Moneda      string
	Comparar    bool
	CuentaID    *int64
	// Nivel limits the depth of the account rows (0: every level).
	Nivel   int
	Pagina  httpx.PageRequest
	Formato string
	// FechaCorte is the date of the aging reports (default today in Costa
	// Rica); Agrupar the grouping of the sales report.
	FechaCorte time.Time
	Agrupar    string
	// Fecha is the date of the inventory valuation (default today in Costa
	// Rica); AlmacenID, ProductoID and CategoriaID filter the inventory
	// reports (the kardex requires ProductoID).
	Fecha       time.Time
	AlmacenID   *int64
	ProductoID  *int64
	CategoriaID *int64
}

// Parametros are the normalized parameters as the report shows them; they
// are also its cache key (with the type), so two spellings of one request
// share an entry. formato is not among them: every format is rendered from
// the same cached report.
func (c Consulta) Parametros(t Tipo) map[string]any {
	p := map[string]any{}
	if tiene(t, "fecha_fin") {
		p["fecha_fin"] = fecha(c.FechaFin)
	}
	if tiene(t, "moneda") {
		p["moneda"] = c.Moneda
	}
	if !c.FechaInicio.IsZero() {
		p["fecha_inicio"] = fecha(c.FechaInicio)
	}
	if tiene(t, "sucursal_id") {
		if c.SucursalID != nil {
			p["sucursal_id"] = *c.SucursalID
		} else {
			p["sucursal_id"] = nil
		}
	}
	if tiene(t, "fecha_corte") {
		p["fecha_corte"] = fecha(c.FechaCorte)
	}
	if tiene(t, "agrupar") {
		p["agrupar"] = c.Agrupar
	}
	if tiene(t, "fecha") {
		p["fecha"] = fecha(c.Fecha)
	}
	for _, id := range []struct {
		nombre string
		v      *int64
	}{{"almacen_id", c.AlmacenID}, {"producto_id", c.ProductoID}, {"categoria_id", c.CategoriaID}} {
		if tiene(t, id.nombre) {
			if id.v != nil {
				p[id.nombre] = *id.v
			} else {
				p[id.nombre] = nil
			}
		}
	}
	if tiene(t, "comparar") {
		if c.Comparar {
			p["comparar"] = PeriodoAnterior
		} else {
			p["comparar"] = nil
		}
	}
	if tiene(t, "nivel") {
		if c.Nivel > 0 {
			p["nivel"] = c.Nivel
		} else {
			p["nivel"] = nil
		}
	}
	if c.CuentaID != nil {
		p["cuenta_id"] = *c.CuentaID
	}
	if t.Paginado {
		p["page"], p["per_page"] = c.Pagina.Page, c.Pagina.PerPage
	}
	return p
}

func fecha(t time.Time) string { return t.Format(time.DateOnly) }

func tiene(t Tipo, nombre string) bool {
	for _, p := range t.Parametros {
		if p.Nombre == nombre {
			return true
		}
	}
	return false
}

// Parameters the report types declare (GET /api/reportes/tipos, OpenAPI).
var (
	pFechaInicio = esquema.Campo{Nombre: "fecha_inicio", Tipo: esquema.Fecha, Requerido: true, Ejemplo: "2026-03-01",
		Descripcion: "Primer día del período (AAAA-MM-DD)."}
	pFechaFin = esquema.Campo{Nombre: "fecha_fin", Tipo: esquema.Fecha, Requerido: true, Ejemplo: "2026-03-31",
		Descripcion: "Último día del período (AAAA-MM-DD), posterior o igual a fecha_inicio; a lo sumo 3660 días después."}
	pSucursal = esquema.Campo{Nombre: "sucursal_id", Tipo: esquema.Entero, Minimo: "1",
		Descripcion: "Solo las líneas de asiento de esa sucursal."}
	pMoneda = esquema.Campo{Nombre: "moneda", Tipo: esquema.Texto, Valores: []string{CRC, USD},
		Descripcion: "Por omisión CRC. USD convierte cada asiento al tipo de cambio de venta de su fecha (tipos_cambio); una fecha sin tipo de cambio es un 422."}
	pComparar = esquema.Campo{Nombre: "comparar", Tipo: esquema.Texto, Valores: []string{PeriodoAnterior},
		Descripcion: "Agrega el período anterior de la misma duración y la variación de cada total (monto y porcentaje)."}
	pNivel = esquema.Campo{Nombre: "nivel", Tipo: esquema.Entero, Minimo: "1", Maximo: "10",
		Descripcion: "Profundidad de las cuentas mostradas (1 = solo las de primer nivel); por omisión todas."}
	pCuenta = esquema.Campo{Nombre: "cuenta_id", Tipo: esquema.Entero, Requerido: true, Minimo: "1",
		Descripcion: "Cuenta contable; una cuenta de agrupación incluye sus subcuentas."}
	pTipo = esquema.Campo{Nombre: "tipo", Tipo: esquema.Texto, Requerido: true,
		Valores: []string{EstadoResultados, BalanceGeneral, FlujoEfectivo}}
)

// leerConsulta reads the parameters t declares from the query string; every
// bad one is a 422 on its name, all of them at once.
func leerConsulta(r *http.Request, t Tipo) (Consulta, error) {
	f := httpx.NewFilters(r)
	c := Consulta{Tipo: t.Clave, Moneda: CRC, Formato: FormatoJSON}
	if v := f.OneOf("formato", t.Formatos); v != nil {
		c.Formato = *v
	}
	var inicio *time.Time
	for _, p := range t.Parametros {
		switch p.Nombre {
		case "fecha_inicio":
			inicio = f.Date("fecha_inicio")
			if inicio == nil && p.Requerido && f.Value("fecha_inicio") == "" {
				f.Fail("fecha_inicio", "El campo fecha_inicio es obligatorio.")
			}
		case "fecha_fin":
			if v := f.Date("fecha_fin"); v != nil {
				c.FechaFin = *v
			} else if f.Value("fecha_fin") == "" && p.Requerido {
				f.Fail("fecha_fin", "El campo fecha_fin es obligatorio.")
			} else if f.Value("fecha_fin") == "" {
				c.FechaFin = horacr.Hoy() // the kardex: up to today
			}
		case "sucursal_id":
			c.SucursalID = f.ID("sucursal_id")
		case "fecha_corte":
			if v := f.Date("fecha_corte"); v != nil {
				c.FechaCorte = *v
			} else if f.Value("fecha_corte") == "" {
				c.FechaCorte = horacr.Hoy()
			}
		case "fecha":
			if v := f.Date("fecha"); v != nil {
				c.Fecha = *v
			} else if f.Value("fecha") == "" {
				c.Fecha = horacr.Hoy()
			}
		case "almacen_id":
			c.AlmacenID = f.ID("almacen_id")
		case "categoria_id":
			c.CategoriaID = f.ID("categoria_id")
		case "producto_id":
			c.ProductoID = f.ID("producto_id")
			if c.ProductoID == nil && p.Requerido && f.Value("producto_id") == "" {
				f.Fail("producto_id", "El campo producto_id es obligatorio.")
			}
		case "agrupar":
			c.Agrupar = p.Valores[0]
			if v := f.OneOf("agrupar", p.Valores); v != nil {
				c.Agrupar = *v
			}
		case "moneda":
			if v := f.OneOf("moneda", p.Valores); v != nil {
				c.Moneda = *v
			}
		case "comparar":
			c.Comparar = f.OneOf("comparar", p.Valores) != nil
		case "cuenta_id":
			c.CuentaID = f.ID("cuenta_id")
			if c.CuentaID == nil && f.Value("cuenta_id") == "" {
				f.Fail("cuenta_id", "El campo cuenta_id es obligatorio.")
			}
		case "nivel":
			if v := f.Value("nivel"); v != "" {
				n, err := strconv.Atoi(v)
				if err != nil || n < 1 || n > 10 {
					f.Fail("nivel", "El campo nivel debe ser un número entero entre 1 y 10.")
				} else {
					c.Nivel = n
				}
			}
		}
	}
	if inicio != nil {
		c.FechaInicio = *inicio
	} else if p := campo(t, "fecha_inicio"); p != nil && !p.Requerido && f.Value("fecha_inicio") == "" && !c.FechaFin.IsZero() {
		// A report at a date (the balance sheet): its period, for the
		// result of the period and the comparison, starts on January 1st.
		c.FechaInicio = time.Date(c.FechaFin.Year(), 1, 1, 0, 0, 0, 0, time.UTC)
	}
	if !c.FechaInicio.IsZero() && !c.FechaFin.IsZero() {
		switch {
		case c.FechaFin.Before(c.FechaInicio):
			f.Fail("fecha_fin", "El campo fecha_fin debe ser una fecha posterior o igual a fecha_inicio.")
		case c.FechaFin.Sub(c.FechaInicio) > MaxDias*24*time.Hour:
			f.Fail("fecha_fin", "El período del reporte no puede superar 3660 días.")
		}
	}
	if t.Paginado {
		pg, err := httpx.ParsePage(r)
		if e, ok := apperr.As(err); ok {
			for k, msgs := range e.Fields {
				for _, m := range msgs {
					f.Fail(k, m)
				}
			}
		}
		c.Pagina = pg
	}
	if err := f.Err(); err != nil {
		return c, err
	}
	return c, nil
}

func campo(t Tipo, nombre string) *esquema.Campo {
	for i := range t.Parametros {
		if t.Parametros[i].Nombre == nombre {
			return &t.Parametros[i]
		}
	}
	return nil
}

// paginacion is the page of n rows (sections) out of total, numbered as
// httpx numbers the pages of a list: one arithmetic for both.
func (c Consulta) paginacion(n, total int) *httpx.Paginacion {
	pg := httpx.NewPage(c.Pagina, make([]struct{}, n), total)
	return &pg.Paginacion
}

// anterior is the previous period of the same length: it ends the day
// before fecha_inicio.
func (c Consulta) anterior() Consulta {
	p := c
	dias := int(c.FechaFin.Sub(c.FechaInicio).Hours()/24 + 0.5)
	p.FechaFin = c.FechaInicio.AddDate(0, 0, -1)
	p.FechaInicio = p.FechaFin.AddDate(0, 0, -dias)
	p.Comparar = false
	return p
}
