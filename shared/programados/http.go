package programados

import (
	"bytes"
	"context"
	"encoding/json"
	"net/http"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"github.com/erpcr/erp/shared/apperr"
	"github.com/erpcr/erp/shared/auth"
	"github.com/erpcr/erp/shared/db"
	"github.com/erpcr/erp/shared/exportar"
	"github.com/erpcr/erp/shared/handler"
	"github.com/erpcr/erp/shared/httpx"
	"github.com/erpcr/erp/shared/lambdahttp"
	"github.com/erpcr/erp/shared/valid"
)

// Handlers returns the programados group's handlers keyed by route name.
func (s *Servicio) Handlers() lambdahttp.Handlers {
	update := handler.Action(s.DB, "Reporte programado actualizado correctamente.", decodeCambio, s.Actualizar)
	return lambdahttp.Handlers{
		"reportes-programados.index":               handler.List(s.DB, lista),
		"reportes-programados.store":               handler.Create(s.DB, "Reporte programado creado correctamente.", decodeNuevo, s.Crear),
		"reportes-programados.show":                handler.Show(s.DB, s.Buscar),
		"reportes-programados.update":              update,
		"reportes-programados.patch":               update,
		"reportes-programados.destroy":             handler.Action(s.DB, "Reporte programado eliminado correctamente.", handler.NoBody, s.Eliminar),
		"reportes-programados.ejecuciones.index":   handler.List(s.DB, listaEjecuciones),
		"reportes-programados.ejecuciones.archivo": handler.Get(s.DB, parseArchivo, s.descargar),
	}
}

// ---- decoders ---------------------------------------------------------------

var horaRe = regexp.MustCompile(`^([01][0-9]|2[0-3]):[0-5][0-9]$`)

// texto reads a required text field: always when creating; on an update
// only when the body names it, and then null, "" or blanks are refused
// like a missing value (not ignored as if absent).
func texto(in *valid.Input, key string, creando bool, rule valid.Str) *string {
	rule.Required = creando || in.Has(key)
	if v, ok := in.String(key, rule); ok {
		return &v
	}
	return nil
}

func leer(in *valid.Input, creando bool) Datos {
	var d Datos
	d.Nombre = texto(in, "nombre", creando, valid.Str{Max: 255})
	d.Tipo = texto(in, "tipo", creando, valid.Str{Max: 100})
	if v := texto(in, "frecuencia", creando, valid.Str{Max: 20}); v != nil {
		if slices.Contains(Frecuencias, *v) {
			d.Frecuencia = v
		} else {
			in.Fail("frecuencia", "El campo frecuencia debe ser uno de: "+strings.Join(Frecuencias, ", ")+".")
		}
	}
	if v := texto(in, "hora", creando, valid.Str{Max: 5}); v != nil {
		if horaRe.MatchString(*v) {
			d.Hora = v
		} else {
			in.Fail("hora", "El campo hora debe tener el formato HH:MM de 24 horas (00:00 a 23:59), hora de Costa Rica.")
		}
	}
	d.Formato = texto(in, "formato", creando, valid.Str{Max: 10})
	if in.Has("dia_semana") {
		d.ConDiaSemana = true
		if n, ok := in.Int("dia_semana", valid.Int{Min: valid.Min(1), Max: valid.Min(7)}); ok {
			v := int(n)
			d.DiaSemana = &v
		}
	}
	if in.Has("dia_mes") {
		d.ConDiaMes = true
		if n, ok := in.Int("dia_mes", valid.Int{Min: valid.Min(1), Max: valid.Min(31)}); ok {
			v := int(n)
			d.DiaMes = &v
		}
	}
	if in.Has("parametros") {
		d.ConParametros = true
		d.Parametros = parametros(in)
	}
	if in.Has("destinatarios") {
		d.ConDestinatarios = true
		d.Destinatarios = destinatarios(in)
	}
	d.Activo = in.OptionalBool("activo")
	return d
}

// parametros reads an object of report parameters: each value a string,
// a number or a boolean (as a query string would carry it); null drops
// the key.
func parametros(in *valid.Input) map[string]string {
	out := map[string]string{}
	if in.IsNull("parametros") {
		return out
	}
	var raw map[string]json.RawMessage
	if err := json.Unmarshal(in.Raw()["parametros"], &raw); err != nil || raw == nil {
		in.Fail("parametros", "El campo parametros debe ser un objeto con los parámetros del reporte (GET /api/reportes/tipos).")
		return nil
	}
	for k, v := range raw {
		v = bytes.TrimSpace(v)
		var s string
		switch {
		case string(v) == "null":
			continue
		case json.Unmarshal(v, &s) == nil:
			s = strings.TrimSpace(s)
		case len(v) > 0 && (v[0] == '-' || (v[0] >= '0' && v[0] <= '9')) || string(v) == "true" || string(v) == "false":
			s = string(v)
		default:
			in.Fail("parametros."+k, "El parámetro "+k+" debe ser texto, número o booleano.")
			continue
		}
		if strings.ContainsRune(s, 0) || len(s) > 200 {
			in.Fail("parametros."+k, "El parámetro "+k+" no es válido.")
			continue
		}
		if s != "" {
			out[k] = s
		}
	}
	return out
}

// destinatarios reads up to MaxDestinatarios e-mail addresses (repeats
// dropped, case-insensitively).
func destinatarios(in *valid.Input) []string {
	out := []string{}
	if in.IsNull("destinatarios") {
		return out
	}
	items, ok := in.List("destinatarios", false)
	if !ok {
		return nil
	}
	if len(items) > MaxDestinatarios {
		in.Fail("destinatarios", "El campo destinatarios no debe tener más de "+strconv.Itoa(MaxDestinatarios)+" direcciones.")
		return nil
	}
	for i, raw := range items {
		key := "destinatarios." + strconv.Itoa(i)
		one := valid.NewInput(map[string]json.RawMessage{key: raw})
		v, ok := one.String(key, valid.Str{Required: true, Max: 254, Email: true})
		if !ok {
			var e *apperr.Error
			if err := one.Err(); err != nil {
				if x, isApp := apperr.As(err); isApp {
					e = x
				}
			}
			if e != nil {
				for _, m := range e.Fields[key] {
					in.Fail(key, m)
				}
			}
			continue
		}
		v = strings.ToLower(v)
		if !slices.Contains(out, v) {
			out = append(out, v)
		}
	}
	return out
}

func decodeNuevo(in *valid.Input) (Datos, error)  { return leer(in, true), in.Err() }
func decodeCambio(in *valid.Input) (Datos, error) { return leer(in, false), in.Err() }

// ---- lists ------------------------------------------------------------------

var sorts = map[string]string{"id": "r.id", "nombre": "r.nombre", "tipo": "r.tipo", "proxima_ejecucion": "r.proxima_ejecucion",
	"creado_en": "r.creado_en", "actualizado_en": "r.actualizado_en"}

// lista lists the company's schedules of the report types the caller may
// read: search (nombre), tipo, frecuencia, activos (or activo).
func lista(r *http.Request, p auth.Principal) (handler.Query[Programado], error) {
	f := httpx.NewFilters(r)
	frecuencia := f.OneOf("frecuencia", Frecuencias)
	activo := f.Bool("activo")
	if a := f.Bool("activos"); a != nil { // the lists' common name (README)
		activo = a
	}
	tipo := f.Text("tipo")
	order, err := f.Sort(sorts, "r.id")
	if err != nil {
		return handler.Query[Programado]{}, err
	}
	legibles := TiposLegibles(p)
	if legibles == nil {
		legibles = []string{}
	}
	return handler.Query[Programado]{Cols: columnas, From: `from reportes_programados r where r.empresa_id = $1 and not r.eliminado
		and r.tipo = any($2) and ($3::text is null or r.nombre ilike $3) and ($4::text is null or r.tipo = $4)
		and ($5::text is null or r.frecuencia = $5) and ($6::boolean is null or r.activo = $6)`,
		Order: order + ", r.id", Args: []any{legibles, httpx.SearchQuery(r), tipo, frecuencia, activo}, Scan: escanear}, nil
}

var ejecucionSorts = map[string]string{"id": "x.id", "programada_para": "x.programada_para", "estado": "x.estado", "creado_en": "x.creado_en"}

// listaEjecuciones lists a schedule's runs, newest first (estado filters);
// 404 for another company's schedule, 403 for a report the caller may not
// read.
func listaEjecuciones(r *http.Request, p auth.Principal) (handler.Query[Ejecucion], error) {
	id, err := httpx.PathID(r)
	if err != nil {
		return handler.Query[Ejecucion]{}, err
	}
	f := httpx.NewFilters(r)
	estado := f.OneOf("estado", []string{Pendiente, Ejecutando, Completada, Fallida})
	order, err := f.SortNewest(ejecucionSorts, "x.id")
	if err != nil {
		return handler.Query[Ejecucion]{}, err
	}
	return handler.Query[Ejecucion]{Cols: ColumnasEjecucion,
		From:  `from reporte_ejecuciones x where x.empresa_id = $1 and x.reporte_programado_id = $2 and ($3::text is null or x.estado = $3)`,
		Order: order + ", x.id desc", Args: []any{id, estado}, Scan: EscanearEjecucion,
		Check: func(ctx context.Context, tx *db.Tx) error { return Visible(ctx, tx, p, id) }}, nil
}

// ---- the file ---------------------------------------------------------------

type pedidoArchivo struct{ id, eid int64 }

func parseArchivo(r *http.Request) (pedidoArchivo, error) {
	id, err := httpx.PathID(r)
	if err != nil {
		return pedidoArchivo{}, err
	}
	eid, err := strconv.ParseInt(r.PathValue("eid"), 10, 64)
	if err != nil || eid <= 0 {
		return pedidoArchivo{}, apperr.NewNotFound(msgEjecucion)
	}
	return pedidoArchivo{id: id, eid: eid}, nil
}

func (s *Servicio) descargar(ctx context.Context, tx *db.Tx, p auth.Principal, q pedidoArchivo) (*archivo, error) {
	d, err := s.Archivo(ctx, tx, p, q.id, q.eid)
	if err != nil {
		return nil, err
	}
	return &archivo{s: s, ctx: ctx, d: d}, nil
}

// archivo streams a run's file after the transaction committed.
type archivo struct {
	s   *Servicio
	ctx context.Context
	d   Descarga
}

// Escribir reads the file from the store and writes it as an attachment.
func (a *archivo) Escribir(w http.ResponseWriter) error {
	datos, err := a.s.Leer(a.ctx, a.d)
	if err != nil {
		return err
	}
	return exportar.Archivo{Nombre: a.d.Nombre, ContentType: a.d.ContentType, Datos: datos}.Escribir(w)
}
