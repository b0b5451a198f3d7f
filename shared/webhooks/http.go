package webhooks

import (
	"context"
	"encoding/json"
	"net/http"
	"strconv"
	"strings"

	"github.com/erpcr/erp/shared/apperr"
	"github.com/erpcr/erp/shared/auth"
	"github.com/erpcr/erp/shared/db"
	"github.com/erpcr/erp/shared/handler"
	"github.com/erpcr/erp/shared/httpx"
	"github.com/erpcr/erp/shared/lambdahttp"
	"github.com/erpcr/erp/shared/valid"
)

// Service serves the webhooks group: the administration of subscriptions,
// their delivery log, tests and redeliveries.
type Service struct {
	DB          *db.DB
	Despachador *Despachador
}

func (s *Service) suscripciones() Suscripciones {
	return Suscripciones{Cifrador: s.Despachador.Cifrador, Permitidos: s.Despachador.Permitidos}
}

// Handlers returns the group's handlers keyed by route name.
func (s *Service) Handlers() lambdahttp.Handlers {
	sus := s.suscripciones()
	decodeCrear := func(in *valid.Input) (Datos, error) { return leer(in, true, sus.Permitidos) }
	decodeCambio := func(in *valid.Input) (Datos, error) { return leer(in, false, sus.Permitidos) }
	show := func(ctx context.Context, tx *db.Tx, _ auth.Principal, id int64) (Webhook, error) {
		return Buscar(ctx, tx, id)
	}
	update := handler.Action(s.DB, "Webhook actualizado correctamente.", decodeCambio,
		func(ctx context.Context, tx *db.Tx, _ auth.Principal, id int64, d Datos) (Webhook, error) {
			return sus.Actualizar(ctx, tx, id, d)
		})
	return lambdahttp.Handlers{
		"webhooks.index": handler.List(s.DB, listaWebhooks),
		"webhooks.store": handler.CreateSecret(s.DB, "Webhook creado correctamente. Guarde el secreto: no se volverá a mostrar.", decodeCrear,
			func(ctx context.Context, tx *db.Tx, _ auth.Principal, d Datos) (Webhook, error) {
				return sus.Crear(ctx, tx, d)
			}),
		"webhooks.show":   handler.Show(s.DB, show),
		"webhooks.update": update,
		"webhooks.patch":  update,
		"webhooks.destroy": handler.Action(s.DB, "Webhook eliminado correctamente.", handler.NoBody,
			func(ctx context.Context, tx *db.Tx, _ auth.Principal, id int64, _ struct{}) (*Webhook, error) {
				return nil, Eliminar(ctx, tx, id)
			}),
		"webhooks.regenerar_secreto": handler.Action(s.DB, "Secreto regenerado. Guárdelo: no se volverá a mostrar.", handler.NoBody,
			func(ctx context.Context, tx *db.Tx, _ auth.Principal, id int64, _ struct{}) (Webhook, error) {
				return sus.RegenerarSecreto(ctx, tx, id)
			}),
		"webhooks.eventos":  s.eventos,
		"webhooks.probar":   s.probar,
		"webhooks.entregas": handler.List(s.DB, listaIntentos),
		"webhooks.reenviar": s.reenviar,
	}
}

// leer validates a create (all required fields) or a partial update body.
func leer(in *valid.Input, creando bool, permitidos Permitidos) (Datos, error) {
	var d Datos
	// blanco refuses, on an update, a present null or blank value of a field
	// that cannot be emptied (as declared resources do): ignoring it would
	// answer 200 to a change that was not made.
	blanco := func(key, msg string) {
		if !creando && in.Has(key) && !in.Failed(key) {
			in.Fail(key, msg)
		}
	}
	if v, ok := in.String("nombre", valid.Str{Required: creando, Max: 255}); ok {
		d.Nombre = &v
	} else {
		blanco("nombre", "El campo nombre es obligatorio.")
	}
	if v, ok := in.String("url", valid.Str{Required: creando, Max: MaxURL}); ok {
		if msg := ValidarURL(v, permitidos); msg != "" {
			in.Fail("url", msg)
		} else {
			d.URL = &v
		}
	} else {
		blanco("url", "El campo url es obligatorio.")
	}
	if items, ok := in.List("eventos", creando); ok {
		if len(items) == 0 {
			in.Fail("eventos", "Indique al menos un evento.")
		}
		seen := map[string]bool{}
		for i, raw := range items {
			var name string
			if err := json.Unmarshal(raw, &name); err != nil || !EventoConocido(strings.TrimSpace(name)) {
				in.Fail("eventos."+strconv.Itoa(i), "El evento "+strings.Trim(string(raw), `"`)+" no existe; consulte GET /api/webhooks/eventos.")
				continue
			}
			name = strings.TrimSpace(name)
			if !seen[name] {
				seen[name] = true
				d.Eventos = append(d.Eventos, name)
			}
		}
	} else if !creando && in.IsNull("eventos") {
		in.Fail("eventos", "Indique al menos un evento.")
	}
	if v, ok := in.String("descripcion", valid.Str{Max: 1000}); ok {
		d.Descripcion = &v
	} else if in.IsNull("descripcion") {
		d.LimpiarDescripcion = true
	}
	d.TimeoutSegundos = entero(in, "timeout_segundos", 5, 60, TimeoutPorDefecto)
	d.MaxReintentos = entero(in, "max_reintentos", 1, 10, ReintentosPorDefecto)
	if d.Activo = in.OptionalBool("activo"); d.Activo == nil && in.IsNull("activo") {
		in.Fail("activo", "El campo activo debe ser verdadero o falso.")
	}
	if v, ok := in.String("secreto", valid.Str{Min: 16, Max: 255, NoTrim: true}); ok {
		d.Secreto = &v
	} else {
		blanco("secreto", "El campo secreto debe tener al menos 16 caracteres.")
	}
	return d, in.Err()
}

// entero reads a bounded integer setting; a present null puts back the
// default (nil when absent or invalid).
func entero(in *valid.Input, key string, min, max int64, porDefecto int) *int {
	if in.IsNull(key) {
		return &porDefecto
	}
	v, ok := in.Int(key, valid.Int{Min: valid.Min(min), Max: valid.Min(max)})
	if !ok {
		return nil
	}
	n := int(v)
	return &n
}

var webhookSorts = map[string]string{"id": "w.id", "nombre": "w.nombre", "creado_en": "w.creado_en", "actualizado_en": "w.actualizado_en"}

func listaWebhooks(r *http.Request, p auth.Principal) (handler.Query[Webhook], error) {
	f := httpx.NewFilters(r)
	activos := f.Bool("activos")
	order, err := f.Sort(webhookSorts, "w.id")
	if err != nil {
		return handler.Query[Webhook]{}, err
	}
	return handler.Query[Webhook]{
		Cols: webhookCols, Order: order + ", w.id",
		From: `from webhooks w where w.empresa_id = $1 and not w.eliminado
			and ($2::text is null or w.nombre ilike $2 or w.url ilike $2)
			and ($3::boolean is null or w.activo = $3)`,
		Args: []any{httpx.SearchQuery(r), activos}, Scan: scanWebhook,
	}, nil
}

var intentoSorts = map[string]string{"id": "i.id", "creado_en": "i.creado_en"}

func listaIntentos(r *http.Request, p auth.Principal) (handler.Query[Intento], error) {
	id, err := httpx.PathID(r)
	if err != nil {
		return handler.Query[Intento]{}, err
	}
	f := httpx.NewFilters(r)
	estado := f.OneOf("estado", []string{Pendiente, Entregada, Fallida})
	evento := f.Text("evento")
	desde, hasta := f.Range("fecha_inicio", "fecha_fin")
	order, err := f.SortNewest(intentoSorts, "i.id")
	if err != nil {
		return handler.Query[Intento]{}, err
	}
	return handler.Query[Intento]{
		Cols: IntentoCols, From: IntentoFrom, Order: order + ", i.id desc",
		Args: []any{id, estado, evento, desde, hasta}, Scan: ScanIntento,
		Check: func(ctx context.Context, tx *db.Tx) error { _, err := Buscar(ctx, tx, id); return err },
	}, nil
}

// eventos answers GET /api/webhooks/eventos.
func (s *Service) eventos(w http.ResponseWriter, r *http.Request) error {
	return httpx.OK(w, "", Catalogo)
}

// probar answers POST /api/webhooks/{id}/probar with the outcome of a
// synchronous signed test delivery.
func (s *Service) probar(w http.ResponseWriter, r *http.Request) error {
	id, err := httpx.PathID(r)
	if err != nil {
		return err
	}
	p := auth.FromRequest(r)
	res, err := s.Despachador.Probar(r.Context(), p.EmpresaID, id)
	if err != nil {
		return err
	}
	msg := "La prueba se entregó correctamente."
	if !res.Entregada {
		msg = "La prueba no se pudo entregar."
	}
	return httpx.OK(w, msg, res)
}

// reenviar answers POST /api/webhooks/{id}/entregas/{entrega_id}/reenviar.
func (s *Service) reenviar(w http.ResponseWriter, r *http.Request) error {
	id, err := httpx.PathID(r)
	if err != nil {
		return err
	}
	entrega, err := strconv.ParseInt(r.PathValue("entrega_id"), 10, 64)
	if err != nil || entrega <= 0 {
		return apperr.NewNotFound("Entrega no encontrada.")
	}
	p := auth.FromRequest(r)
	var out Reenvio
	err = s.DB.WithTx(r.Context(), p.Scope(), func(tx *db.Tx) (err error) {
		out, err = Reenviar(r.Context(), tx, id, entrega)
		return err
	})
	if err != nil {
		return err
	}
	if err := s.Despachador.Despertar(r.Context(), p.EmpresaID, out.EntregaID); err != nil {
		httpx.Logger(r.Context()).Warn("webhooks: despertar", "error", err.Error())
	}
	w.Header().Set("Location", "/api/webhooks/"+strconv.FormatInt(id, 10)+"/entregas")
	httpx.WriteJSON(w, http.StatusAccepted, httpx.Envelope{Success: true, Message: "Reenvío programado.", Data: out})
	return nil
}
