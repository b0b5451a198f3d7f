package ops

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"strconv"
	"time"

	"github.com/erpcr/erp/shared/auth"
	"github.com/erpcr/erp/shared/db"
	"github.com/erpcr/erp/shared/horacr"
	"github.com/erpcr/erp/shared/httpx"
	"github.com/erpcr/erp/shared/metricas"
)

// Comprobante and webhook-delivery states the gauges list (always all of
// them, 0 when none, so that a series never vanishes).
var (
	estadosComprobantePendientes = []string{"pending", "signed", "sent"}
	estadosEntrega               = []string{"pendiente", "fallida"}
)

// Negocio are the business gauges of one company.
type Negocio struct {
	VentasHoy       int64
	MontoHoy        float64
	Comprobantes    map[string]float64
	EntregasWebhook map[string]float64
}

// leerNegocio reads the company's gauges in one query: today's sales (Costa
// Rica date, neither drafts nor cancelled ones, in colones at the sale's
// exchange rate), comprobantes still on their way to Hacienda, webhook
// deliveries waiting or given up.
func leerNegocio(ctx context.Context, tx *db.Tx, hoy string) (Negocio, error) {
	n := Negocio{}
	var comp, ent []byte
	err := tx.QueryRow(ctx, `select
		(select count(*) from ventas where empresa_id = $1 and not eliminado and fecha_venta = $2::date
			and estado in ('pendiente', 'pagada')),
		(select coalesce(sum(monto_total * tipo_cambio), 0)::float8 from ventas where empresa_id = $1 and not eliminado
			and fecha_venta = $2::date and estado in ('pendiente', 'pagada')),
		(select coalesce(jsonb_object_agg(estado, n), '{}') from (select estado, count(*) n from comprobantes_electronicos
			where empresa_id = $1 and not eliminado and estado in ('pending', 'signed', 'sent') group by estado) c),
		(select coalesce(jsonb_object_agg(estado, n), '{}') from (select estado, count(*) n from webhook_entregas
			where empresa_id = $1 and estado in ('pendiente', 'fallida') group by estado) w)`,
		tx.EmpresaID(), hoy).Scan(&n.VentasHoy, &n.MontoHoy, &comp, &ent)
	if err != nil {
		return n, fmt.Errorf("ops: métricas de negocio: %w", err)
	}
	if err := json.Unmarshal(comp, &n.Comprobantes); err != nil {
		return n, fmt.Errorf("ops: métricas de negocio: %w", err)
	}
	if err := json.Unmarshal(ent, &n.EntregasWebhook); err != nil {
		return n, fmt.Errorf("ops: métricas de negocio: %w", err)
	}
	return n, nil
}

// metrics answers GET /api/metrics in the Prometheus text format: the
// request series (the caller company's; the whole service's for a platform
// administrator), the answering process's connection pool, and the
// company's business gauges. It first adds its own process's pending
// aggregates, so in one process (make run) the counts are exact; in AWS
// other functions' requests show up within their flush interval.
func (s *Service) metrics(w http.ResponseWriter, r *http.Request) error {
	ctx := r.Context()
	p := auth.FromRequest(r)
	if err := s.Metricas.Vaciar(ctx); err != nil {
		httpx.Logger(ctx).Warn("metrics: vaciar", "error", err.Error())
	}
	series, err := s.Metricas.HTTP(ctx, p.Scope(), p.Plataforma)
	if err != nil {
		return err
	}
	var neg Negocio
	err = s.DB.WithTx(ctx, p.Scope(), func(tx *db.Tx) error {
		var err error
		neg, err = leerNegocio(ctx, tx, time.Now().In(horacr.Zona).Format("2006-01-02"))
		return err
	})
	if err != nil {
		return err
	}

	var e expositor
	alcance := "empresa"
	if p.Plataforma {
		alcance = "servicio"
	}
	e.gauge("erp_build_info", "Versión y commit del servicio (siempre 1).", 1,
		etiqueta{"version", Version}, etiqueta{"commit", commit()}, etiqueta{"alcance", alcance})
	escribirHTTP(&e, series)
	escribirPool(&e, s.DB)
	e.gauge("erp_ventas_hoy", "Ventas de hoy (fecha de Costa Rica) pendientes o pagadas de la empresa.", float64(neg.VentasHoy))
	e.gauge("erp_ventas_hoy_colones", "Monto total de las ventas de hoy de la empresa, en colones.", neg.MontoHoy)
	e.gauges("erp_comprobantes_pendientes", "Comprobantes electrónicos de la empresa aún sin respuesta de Hacienda, por estado.",
		"estado", estadosComprobantePendientes, neg.Comprobantes)
	e.gauges("erp_webhook_entregas", "Entregas de webhooks de la empresa pendientes o fallidas.", "estado", estadosEntrega, neg.EntregasWebhook)
	if c := s.chequearCola(); c.Depth != nil {
		e.gauge("erp_cola_profundidad", "Trabajos en la cola en proceso (solo sin SQS; en AWS vea ApproximateNumberOfMessagesVisible de SQS).",
			float64(*c.Depth), etiqueta{"cola", "local"})
	}
	w.Header().Set("Content-Type", ContentTypePrometheus)
	w.Header().Set("Cache-Control", "no-store")
	w.WriteHeader(http.StatusOK)
	_, _ = w.Write([]byte(e.b.String()))
	return nil
}

// escribirHTTP writes the request counter and the latency histogram, one
// series per method, route pattern and status.
func escribirHTTP(e *expositor, series []metricas.Serie) {
	ordenar(series, func(x metricas.Serie) string {
		return x.Ruta + " " + x.Metodo + " " + fmt.Sprintf("%03d", x.Estado)
	})
	etiquetas := func(x metricas.Serie) []etiqueta {
		return []etiqueta{{"method", x.Metodo}, {"route", x.Ruta}, {"status", strconv.Itoa(x.Estado)}}
	}
	e.familia("erp_http_requests_total", "counter", "Solicitudes HTTP atendidas, por método, ruta (patrón de la tabla de rutas) y estado.")
	for _, x := range series {
		e.muestra("erp_http_requests_total", float64(x.Solicitudes), etiquetas(x)...)
	}
	const h = "erp_http_request_duration_seconds"
	e.familia(h, "histogram", "Duración de las solicitudes HTTP en la función, en segundos.")
	for _, x := range series {
		es := etiquetas(x)
		var acum int64
		for i, l := range metricas.Limites {
			if i < len(x.Cubetas) {
				acum += x.Cubetas[i]
			}
			e.muestra(h+"_bucket", float64(acum), append(es, etiqueta{"le", limite(l)})...)
		}
		e.muestra(h+"_bucket", float64(x.Solicitudes), append(es, etiqueta{"le", "+Inf"})...)
		e.muestra(h+"_sum", x.Suma, es...)
		e.muestra(h+"_count", float64(x.Solicitudes), es...)
	}
}

// escribirPool writes the answering process's pgx pool statistics (in AWS:
// the ops function instance that served the scrape; each function's own
// pool is in its EMF lines' log group).
func escribirPool(e *expositor, d *db.DB) {
	st := d.Pool.Stat()
	e.gauge("erp_db_pool_conexiones_max", "Tamaño máximo del pool de conexiones del proceso.", float64(st.MaxConns()))
	e.gauges("erp_db_pool_conexiones", "Conexiones del pool del proceso, por estado.", "estado",
		[]string{"en_uso", "inactivas", "creandose"}, map[string]float64{
			"en_uso": float64(st.AcquiredConns()), "inactivas": float64(st.IdleConns()), "creandose": float64(st.ConstructingConns()),
		})
	e.familia("erp_db_pool_adquisiciones_total", "counter", "Conexiones tomadas del pool por el proceso.")
	e.muestra("erp_db_pool_adquisiciones_total", float64(st.AcquireCount()))
	e.familia("erp_db_pool_adquisiciones_con_espera_total", "counter", "Tomas que esperaron porque el pool estaba vacío.")
	e.muestra("erp_db_pool_adquisiciones_con_espera_total", float64(st.EmptyAcquireCount()))
	e.familia("erp_db_pool_espera_segundos_total", "counter", "Tiempo total esperando conexiones del pool, en segundos.")
	e.muestra("erp_db_pool_espera_segundos_total", st.AcquireDuration().Seconds())
}
