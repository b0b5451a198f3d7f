package ops

import (
	"bytes"
	"context"
	"fmt"
	"net/http"
	"strconv"
	"time"

	"github.com/erpcr/erp/shared/apperr"
	"github.com/erpcr/erp/shared/auth"
	"github.com/erpcr/erp/shared/db"
	"github.com/erpcr/erp/shared/esquema"
	"github.com/erpcr/erp/shared/httpx"
	"github.com/erpcr/erp/shared/montos"
)

// Polling interval of the real-time dashboard, in seconds: the default,
// and the range a client may ask for with ?intervalo=.
const (
	intervaloPorDefecto = 5
	intervaloMinimo     = 1
	intervaloMaximo     = 60
)

// Consultas are the query parameters of the group's routes (the OpenAPI
// document).
var Consultas = map[string][]esquema.Campo{
	"ops.tiempo_real": {{Nombre: "intervalo", Tipo: esquema.Entero, Minimo: strconv.Itoa(intervaloMinimo), Maximo: strconv.Itoa(intervaloMaximo),
		Descripcion: fmt.Sprintf("Segundos entre eventos (SSE) y de Retry-After; por omisión %d.", intervaloPorDefecto)}},
}

// EventoTiempoReal is the SSE event name.
const EventoTiempoReal = "tiempo-real"

// TiempoReal are the dashboard's counters. Requests and errors count the
// last minute in ten-second windows (the current one included); errors
// are 5xx answers, client errors 4xx. Active users are those whose token
// was used in the last five minutes (refreshed at most once a minute per
// token). Sales are the company's created in the last hour, neither
// drafts nor cancelled, in colones.
type TiempoReal struct {
	Alcance                 string        `json:"alcance"` // "empresa", or "servicio" for a platform administrator's request counts
	SolicitudesUltimoMinuto int64         `json:"solicitudes_ultimo_minuto"`
	ErroresUltimoMinuto     int64         `json:"errores_ultimo_minuto"`
	ErroresClienteUltMinuto int64         `json:"errores_cliente_ultimo_minuto"`
	UsuariosActivos5Minutos int64         `json:"usuarios_activos_5_minutos"`
	VentasUltimaHora        int64         `json:"ventas_ultima_hora"`
	MontoVentasUltimaHora   montos.Numero `json:"monto_ventas_ultima_hora"`
	IntervaloSegundos       int           `json:"intervalo_segundos"`
	GeneradoEn              time.Time     `json:"generado_en"`
}

func leerTiempoReal(ctx context.Context, tx *db.Tx, ahora time.Time, servicio bool) (TiempoReal, error) {
	x := TiempoReal{Alcance: "empresa", GeneradoEn: ahora.UTC()}
	recientes := `(select coalesce(sum(solicitudes), 0)::bigint, coalesce(sum(errores), 0)::bigint, coalesce(sum(errores_cliente), 0)::bigint
		from metricas_recientes where empresa_id = $1 and ventana >= $2)`
	if servicio {
		x.Alcance = "servicio"
		recientes = `(select solicitudes, errores, errores_cliente from metricas_recientes_servicio($2::timestamptz))`
	}
	err := tx.QueryRow(ctx, `select r.*, metricas_usuarios_activos($3), v.n, v.monto
		from `+recientes+` r,
		(select count(*) n, coalesce(sum(monto_total * tipo_cambio), 0)::numeric(18,2) monto from ventas
		 where empresa_id = $1 and not eliminado and estado in ('pendiente', 'pagada') and creado_en >= $4) v`,
		tx.EmpresaID(), ahora.Add(-time.Minute), ahora.Add(-5*time.Minute), ahora.Add(-time.Hour),
	).Scan(&x.SolicitudesUltimoMinuto, &x.ErroresUltimoMinuto, &x.ErroresClienteUltMinuto, &x.UsuariosActivos5Minutos,
		&x.VentasUltimaHora, &x.MontoVentasUltimaHora)
	if err != nil {
		return x, fmt.Errorf("ops: tiempo real: %w", err)
	}
	return x, nil
}

// intervalo reads ?intervalo= (seconds between events).
func intervalo(r *http.Request) (int, error) {
	v := r.URL.Query().Get("intervalo")
	if v == "" {
		return intervaloPorDefecto, nil
	}
	n, err := strconv.Atoi(v)
	if err != nil || n < intervaloMinimo || n > intervaloMaximo {
		return 0, apperr.InvalidField("intervalo", fmt.Sprintf("El intervalo debe ser un número entero de segundos entre %d y %d.", intervaloMinimo, intervaloMaximo))
	}
	return n, nil
}

// tiempoReal answers GET /api/tiempo-real with the counters as JSON, or,
// with Accept: text/event-stream, as ONE Server-Sent Event carrying a
// retry: field of the polling interval. A Lambda behind an HTTP API
// cannot stream (its response is buffered whole), so the function answers
// one event and ends; a browser's EventSource reconnects by itself after
// retry milliseconds, which makes the stream in AWS. The local gateway
// keeps the client's connection open instead and invokes the function
// again every interval, writing each new event to the same stream
// (shared/gateway/sse.go). Either way Retry-After carries the interval in
// seconds for JSON pollers.
func (s *Service) tiempoReal(w http.ResponseWriter, r *http.Request) error {
	ctx := r.Context()
	seg, err := intervalo(r)
	if err != nil {
		return err
	}
	p := auth.FromRequest(r)
	if err := s.Metricas.Vaciar(ctx); err != nil {
		httpx.Logger(ctx).Warn("tiempo-real: vaciar", "error", err.Error())
	}
	var x TiempoReal
	err = s.DB.WithTx(ctx, p.Scope(), func(tx *db.Tx) error {
		var err error
		x, err = leerTiempoReal(ctx, tx, time.Now(), p.Plataforma)
		return err
	})
	if err != nil {
		return err
	}
	x.IntervaloSegundos = seg
	h := w.Header()
	h.Set("Cache-Control", "no-store")
	h.Set("Retry-After", strconv.Itoa(seg))
	if !httpx.AceptaSSE(r) {
		return httpx.OK(w, "", x)
	}
	body, err := httpx.EncodeJSON(x)
	if err != nil {
		return fmt.Errorf("ops: tiempo real: %w", err)
	}
	var b bytes.Buffer
	fmt.Fprintf(&b, "retry: %d\nid: %d\nevent: %s\ndata: %s\n\n", seg*1000, x.GeneradoEn.UnixMilli(), EventoTiempoReal, bytes.TrimSpace(body))
	h.Set("Content-Type", "text/event-stream; charset=utf-8")
	h.Set("X-Accel-Buffering", "no")
	w.WriteHeader(http.StatusOK)
	_, _ = w.Write(b.Bytes())
	return nil
}
