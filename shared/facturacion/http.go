package facturacion

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"os"
	"regexp"
	"slices"
	"strconv"
	"time"

	"github.com/erpcr/erp/shared/apperr"
	"github.com/erpcr/erp/shared/auth"
	"github.com/erpcr/erp/shared/b64"
	"github.com/erpcr/erp/shared/db"
	"github.com/erpcr/erp/shared/handler"
	"github.com/erpcr/erp/shared/horacr"
	"github.com/erpcr/erp/shared/httpx"
	"github.com/erpcr/erp/shared/lambdahttp"
	"github.com/erpcr/erp/shared/plataforma"
	"github.com/erpcr/erp/shared/queue"
	"github.com/erpcr/erp/shared/ratelimit"
	"github.com/erpcr/erp/shared/routes"
	"github.com/erpcr/erp/shared/valid"
)

func (s *Service) verConfiguracion(ctx context.Context, tx *db.Tx, _ auth.Principal, _ struct{}) (Configuracion, error) {
	return s.leerVista(ctx, tx)
}

// configuracionUpdate is PUT /api/v1/hacienda/configuracion: a partial
// update (only the fields sent change; null clears an optional one). The
// certificate is checked with its PIN before anything is stored.
func decodeConfiguracion(in *valid.Input) (configuracionIn, error) {
	var x configuracionIn
	set := x.set
	if v, ok := in.String("ambiente", valid.Str{}); ok {
		if !slices.Contains(Ambientes, v) {
			in.Fail("ambiente", "El campo ambiente debe ser uno de: staging, production.")
		} else {
			set("ambiente", v)
		}
	}
	texto := func(key, col string, rule valid.Str, re *regexp.Regexp, msg string) {
		if !in.Has(key) {
			return
		}
		v, ok := in.String(key, rule)
		switch {
		case ok && re != nil && !re.MatchString(v):
			in.Fail(key, msg)
		case ok:
			set(col, v)
		case !in.Failed(key):
			set(col, nil)
		}
	}
	texto("codigo_actividad", "codigo_actividad", valid.Str{Max: 6}, actividadRe,
		"El campo codigo actividad debe tener 6 caracteres (dígitos y punto, por ejemplo 4711.1).")
	texto("proveedor_sistemas", "proveedor_sistemas", valid.Str{Max: 20}, proveedorRe,
		"El campo proveedor sistemas debe ser la identificación del proveedor del sistema (hasta 20 letras o dígitos, sin guiones).")

	// Secrets: read, never echoed. A certificate is verified with the PIN
	// sent with it or, failing that, the stored one.
	x.usuario, x.usuarioOK = in.String("usuario", valid.Str{Max: 255})
	x.clave, x.claveOK = in.String("clave", valid.Str{Max: 255, NoTrim: true})
	certB64, certOK := in.String("certificado", valid.Str{Max: MaxCertificado})
	x.pin, x.pinOK = in.String("pin", valid.Str{Max: 128, NoTrim: true})
	x.pinEnviado = in.Has("pin")
	if certOK {
		var err error
		if x.p12, err = b64.Decodificar(certB64); err != nil {
			in.Fail("certificado", "El campo certificado debe ser el archivo .p12 codificado en base64.")
			certOK = false
		}
	}
	x.certOK = certOK

	var emisorRaw map[string]json.RawMessage
	if in.Has("emisor") && !in.IsNull("emisor") {
		if err := json.Unmarshal(in.Raw()["emisor"], &emisorRaw); err != nil || emisorRaw == nil {
			in.Fail("emisor", "El campo emisor debe ser un objeto.")
		} else {
			ei := valid.NewInput(emisorRaw)
			readEmisor(ei, set)
			in.Merge("emisor.", ei)
		}
	}
	if items, ok := in.List("sucursales", false); ok {
		// A branch named twice would be upserted twice by one statement,
		// which PostgreSQL refuses (it was a 500).
		vista := map[int64]int{}
		for i, raw := range items {
			var obj map[string]json.RawMessage
			prefix := "sucursales." + strconv.Itoa(i)
			if err := json.Unmarshal(raw, &obj); err != nil || obj == nil {
				in.Fail(prefix, "Cada sucursal debe ser un objeto con sucursal_id, establecimiento y terminal.")
				continue
			}
			ti := valid.NewInput(obj)
			var t terminalIn
			t.sucursalID, _ = ti.Int("sucursal_id", valid.Int{Required: true, Min: valid.Min(1)})
			t.establecimiento, _ = ti.Int("establecimiento", valid.Int{Required: true, Min: valid.Min(1), Max: max64(999)})
			t.terminal, _ = ti.Int("terminal", valid.Int{Required: true, Min: valid.Min(1), Max: max64(99999)})
			if j, dup := vista[t.sucursalID]; dup && !ti.Failed("sucursal_id") {
				ti.Fail("sucursal_id", "La sucursal ya aparece en sucursales."+strconv.Itoa(j)+"; indíquela una sola vez.")
			} else if !ti.Failed("sucursal_id") {
				vista[t.sucursalID] = i
			}
			in.Merge(prefix+".", ti)
			x.terminales = append(x.terminales, t)
		}
	}
	return x, in.Err()
}

// rango reads fecha_inicio/fecha_fin as [desde, hasta) instants in Costa
// Rica time (fecha_fin includes its whole day).
func rango(f *httpx.Filters) (desde, hasta *time.Time) {
	desde, fin := f.Range("fecha_inicio", "fecha_fin")
	if fin != nil {
		h := fin.AddDate(0, 0, 1)
		hasta = &h
	}
	return desde, hasta
}

// index is GET /api/v1/hacienda: the tenant's comprobantes, newest first,
// filtered by estado, tipo_documento, fecha_inicio/fecha_fin (emission
// date, Costa Rica time), venta_id and search (clave or consecutivo).
func lista(r *http.Request, p auth.Principal) (handler.Query[Comprobante], error) {
	f := httpx.NewFilters(r)
	f.Loc = horacr.Zona
	estado := f.OneOf("estado", Estados)
	tipo := f.OneOf("tipo_documento", TiposDocumento)
	desde, hasta := rango(f)
	venta := f.ID("venta_id")
	order, err := f.SortNewest(sorts, "c.id")
	if err != nil {
		return handler.Query[Comprobante]{}, err
	}
	return handler.Query[Comprobante]{Cols: compCols, From: compFrom + ` where c.empresa_id = $1 and not c.eliminado
			and ($2::text is null or c.estado = $2)
			and ($3::text is null or c.tipo_documento = $3)
			and ($4::timestamptz is null or c.fecha_emision >= $4)
			and ($5::timestamptz is null or c.fecha_emision < $5)
			and ($6::bigint is null or c.venta_id = $6)
			and ($7::text is null or c.clave ilike $7 or c.numero_consecutivo ilike $7)`, Order: order + ", c.id desc",
		Args: []any{estado, tipo, desde, hasta, venta, httpx.SearchQuery(r)}, Scan: scanComprobante}, nil
}

// leerRango reads the fecha_inicio/fecha_fin filters of the statistics.
func leerRango(r *http.Request) (rangoFechas, error) {
	f := httpx.NewFilters(r)
	f.Loc = horacr.Zona
	var x rangoFechas
	x.desde, x.hasta = rango(f)
	return x, f.Err()
}

// generar is POST /api/v1/hacienda/generar {venta_id, tipo_documento?,
// situacion?}: it creates the comprobante of a sale with its consecutivo
// (per company, establishment, terminal and type, gapless: the counter row
// is updated in this transaction) and its clave, in state pending (201). A
// sale has at most one live comprobante per type: asking again returns the
// existing one with 200, unless Hacienda refused it for good (rejected),
// then a new one replaces it (201).
func (s *Service) generar(ctx context.Context, tx *db.Tx, p auth.Principal, x generarIn) (handler.Respuesta[Comprobante], error) {
	c, creado, err := s.generarComprobante(ctx, tx, p, x)
	if err != nil || creado {
		return handler.Respuesta[Comprobante]{Mensaje: msgGenerado, Datos: c}, err
	}
	return handler.Respuesta[Comprobante]{Mensaje: "La venta ya tiene este comprobante; se devuelve el existente.", Datos: c, Estado: http.StatusOK}, nil
}

func decodeGenerar(in *valid.Input) (generarIn, error) {
	x := readGenerar(in)
	return x, in.Err()
}

// enviar is POST /{id}/enviar: it queues the submission and answers 202
// (SQS in AWS, the in-process queue locally; the state is in PostgreSQL).
// Asking again while the submission is queued answers 202 again without
// queueing twice or counting. At most the hacienda rate class's limit of
// submissions per company and window (429 with Retry-After).
func (s *Service) enviar(w http.ResponseWriter, r *http.Request) error {
	p := auth.FromRequest(r)
	ctx := r.Context()
	id, err := httpx.PathID(r)
	if err != nil {
		return err
	}
	// First a read: out-of-order calls and repeated ones do not count
	// against the submission limit.
	var c Comprobante
	var repetido, reanudar bool
	err = s.DB.WithTx(ctx, p.Scope(), func(tx *db.Tx) error {
		b, err := bloquear(ctx, tx, id)
		if err != nil {
			return err
		}
		c = b.Comprobante
		if b.EnvioEnCurso && b.EnviadoEn == nil {
			repetido = true
			return nil
		}
		reanudar = b.reanudable()
		return b.enviable()
	})
	if err != nil {
		return err
	}
	if repetido {
		return enCola(w, c)
	}
	if reanudar {
		// Received by Hacienda, polling gave up: poll again (not a new
		// submission, so the hourly limit does not apply).
		return s.reanudar(w, r, id)
	}
	cfg, err := cargarConfigPool(ctx, s.DB, p.Scope())
	if err != nil {
		return err
	}
	if len(cfg.usuario) == 0 || len(cfg.clave) == 0 {
		return apperr.InvalidField("configuracion", msgSinCredencia)
	}
	// The route's rate class (hacienda) is counted here, not by the route
	// guard, and in the transaction that queues the submission, under the
	// comprobante's row lock: only a submission really queued counts (a
	// concurrent duplicate finds it queued and counts nothing), and a 429
	// rolls back its own count with the rest.
	limite := s.Cfg.Limites[string(routes.RateHacienda)]
	lim := &ratelimit.Limiter{DB: s.DB, Name: "hacienda_envios", Max: limite.Max, Window: limite.Ventana, Now: s.now}
	msg := fmt.Sprintf("Se alcanzó el límite de %d envíos a Hacienda por %s para esta empresa.", limite.Max, lambdahttp.NombreVentana(limite.Ventana))
	now := s.now()
	return s.encolar(w, r, id, "hacienda: no se pudo encolar el envío; el barrido lo retomará",
		func(ctx context.Context, tx *db.Tx, b bloqueado) (bool, error) {
			if b.EnvioEnCurso && b.EnviadoEn == nil {
				return false, nil
			}
			if err := b.enviable(); err != nil {
				return false, err
			}
			res, err := lim.ContarEn(ctx, tx, strconv.FormatInt(p.EmpresaID, 10))
			if err != nil {
				return false, err
			}
			if err := lambdahttp.Encabezados(w, res, msg); err != nil {
				return false, err
			}
			_, err = tx.Exec(ctx, `update comprobantes_electronicos set estado = $3, trabajo = $4, proximo_intento_en = $5,
					en_proceso_hasta = null, envio_solicitado_en = $5, intentos_envio = 0, ultimo_error = null
				where empresa_id = $1 and id = $2`, tx.EmpresaID(), id, Firmado, trabajoEnviar, now)
			if err != nil {
				return false, fmt.Errorf("facturacion: encolar envío: %w", err)
			}
			return true, nil
		})
}

// reanudar puts a received comprobante whose polling gave up back to
// polling (estado sent), answering 202 like enviar.
func (s *Service) reanudar(w http.ResponseWriter, r *http.Request, id int64) error {
	now := s.now()
	return s.encolar(w, r, id, "hacienda: no se pudo encolar la consulta; el barrido la retomará",
		func(ctx context.Context, tx *db.Tx, b bloqueado) (bool, error) {
			if !b.reanudable() {
				return false, b.enviable()
			}
			_, err := tx.Exec(ctx, `update comprobantes_electronicos set estado = $3, trabajo = $4, proximo_intento_en = $5,
					en_proceso_hasta = null, consultas = 0, ultimo_error = null
				where empresa_id = $1 and id = $2`, tx.EmpresaID(), id, Enviado, trabajoConsultar, now)
			if err != nil {
				return false, fmt.Errorf("facturacion: reanudar consultas: %w", err)
			}
			return true, nil
		})
}

// encolar changes a comprobante's pending work under its row lock (mover
// decides whether and how, and says whether it did), wakes the worker
// after the commit when it did (a lost wake-up is the sweep's; a call that
// found the work already queued sends no second message) and answers 202
// with the comprobante.
func (s *Service) encolar(w http.ResponseWriter, r *http.Request, id int64, perdido string,
	mover func(ctx context.Context, tx *db.Tx, b bloqueado) (bool, error)) error {
	p := auth.FromRequest(r)
	ctx := r.Context()
	var c Comprobante
	var movido bool
	err := s.DB.WithTx(ctx, p.Scope(), func(tx *db.Tx) error {
		b, err := bloquear(ctx, tx, id)
		if err != nil {
			return err
		}
		if movido, err = mover(ctx, tx, b); err != nil {
			return err
		}
		c, err = buscar(ctx, tx, id)
		return err
	})
	if err != nil {
		return err
	}
	if !movido {
		return enCola(w, c)
	}
	if err := s.Queue.Wake(ctx, queue.Job{Tipo: TrabajoHacienda, EmpresaID: p.EmpresaID, ID: id}, 0); err != nil {
		httpx.Logger(ctx).Error(perdido, "comprobante_id", id, "error", err.Error())
	}
	return enCola(w, c)
}

func enCola(w http.ResponseWriter, c Comprobante) error {
	httpx.WriteJSON(w, http.StatusAccepted, httpx.Envelope{Success: true, Message: msgEnCola, Data: c})
	return nil
}

// Handlers returns the group's handlers keyed by route name.
func (s *Service) Handlers() lambdahttp.Handlers {
	return lambdahttp.Handlers{
		"hacienda.configuracion.show":   handler.Get(s.DB, handler.NoQuery, s.verConfiguracion),
		"hacienda.configuracion.update": handler.Put(s.DB, "Configuración de facturación electrónica guardada correctamente.", decodeConfiguracion, s.guardarConfiguracion),
		"hacienda.generar":              handler.Create(s.DB, msgGenerado, decodeGenerar, s.generar),
		"hacienda.index":                handler.List(s.DB, lista),
		"hacienda.estadisticas":         handler.Get(s.DB, leerRango, estadisticas),
		"hacienda.show":                 handler.Show(s.DB, mostrar),
		"hacienda.estado":               handler.Show(s.DB, estado),
		"hacienda.generar-xml":          handler.Action(s.DB, "XML del comprobante generado correctamente.", handler.NoBody, generarXML),
		"hacienda.firmar":               handler.Action(s.DB, "Comprobante firmado correctamente.", handler.NoBody, s.firmar),
		"hacienda.enviar":               s.enviar,
	}
}

// NuevoServicio builds the invoicing service of a process: the API group,
// the SQS worker and the sweep share one (its queue is SQS when
// ERP_HACIENDA_QUEUE_URL is set, else the in-process queue).
func NuevoServicio(d *plataforma.Deps) *Service {
	s := &Service{DB: d.DB, Cfg: d.Cfg, Log: d.Log, Llave: plataforma.LlaveSecretos(d.Cfg)}
	if fn := os.Getenv("AWS_LAMBDA_FUNCTION_NAME"); fn != "" {
		s.EMF, s.Funcion = os.Stdout, fn // EMF lines: CloudWatch Logs extracts the metric
	}
	s.Queue = d.LocalQueue()
	if url := d.Cfg.Hacienda.QueueURL; url != "" {
		q, err := queue.NewSQS(context.Background(), url)
		if err != nil {
			d.Log.Error("hacienda: cola SQS no disponible; se usa la cola en proceso", "error", err.Error())
		} else {
			s.Queue = q
		}
	}
	return s
}

// Grupo is the "hacienda" function group (functions/hacienda/main.go).
func Grupo(d *plataforma.Deps) lambdahttp.Handlers {
	return NuevoServicio(d).Handlers()
}
