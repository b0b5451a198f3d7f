package facturacion

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"strconv"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/erpcr/erp/shared/config"
	"github.com/erpcr/erp/shared/db"
	"github.com/erpcr/erp/shared/eventos"
	"github.com/erpcr/erp/shared/hacienda/recepcion"
	"github.com/erpcr/erp/shared/horacr"
	"github.com/erpcr/erp/shared/queue"
	"github.com/erpcr/erp/shared/ratelimit"
)

// LimiteAPI is the outbound budget per company (SPEC.md Limits: outbound
// tax-authority API client, 60 requests per minute), counted in
// PostgreSQL so that it holds across every Lambda instance.
const LimiteAPI = 60

// clienteHacienda is what the worker needs of recepcion.Cliente.
type clienteHacienda interface {
	Enviar(ctx context.Context, empresaID int64, cred recepcion.Credenciales, e recepcion.Envio) error
	Consultar(ctx context.Context, empresaID int64, cred recepcion.Credenciales, clave string) (recepcion.Estado, error)
}

// esperaLimite is the outbound budget being spent: the worker does not
// sleep in its Lambda, it re-queues the job for when the window ends.
type esperaLimite struct{ segundos int }

func (e *esperaLimite) Error() string {
	return fmt.Sprintf("límite de %d solicitudes por minuto a Hacienda alcanzado; reintento en %d s", LimiteAPI, e.segundos)
}

// limitadorPG is recepcion.Limitador on shared/ratelimit (PostgreSQL).
type limitadorPG struct{ l *ratelimit.Limiter }

// Esperar implements recepcion.Limitador without waiting: over budget it
// returns *esperaLimite (the client wraps it as temporary).
func (x limitadorPG) Esperar(ctx context.Context, empresaID int64) error {
	ok, retry, err := x.l.Hit(ctx, strconv.FormatInt(empresaID, 10))
	if err != nil {
		return err
	}
	if !ok {
		return &esperaLimite{segundos: max(retry, 1)}
	}
	return nil
}

// cliente returns the (cached) recepción client of a Hacienda environment.
// Its token cache is per process; tokens are per company and username.
func (s *Service) cliente(ambiente string) clienteHacienda {
	ep := s.Cfg.HaciendaEndpoints(ambiente)
	s.mu.Lock()
	defer s.mu.Unlock()
	if c, ok := s.clientes[ep]; ok {
		return c
	}
	if s.clientes == nil {
		s.clientes = map[config.Endpoints]clienteHacienda{}
	}
	hc := s.HTTP
	if hc == nil {
		hc = &http.Client{Timeout: 20 * time.Second}
	}
	c := recepcion.Nuevo(recepcion.Config{
		TokenURL: ep.TokenURL, ClientID: ep.ClientID, BaseURL: ep.RecepcionURL, HTTP: hc, Now: s.now,
		Limitador: limitadorPG{&ratelimit.Limiter{DB: s.DB, Name: "hacienda_api", Max: LimiteAPI, Window: time.Minute, Now: s.now}},
		// Retries are the queue's (with backoff, visible in the row), not
		// sleeps inside the Lambda.
		Reintentos: -1,
		Dormir:     s.Dormir,
	})
	s.clientes[ep] = c
	return c
}

// tarea is the claimed work on one comprobante.
type tarea struct {
	job       queue.Job
	trabajo   string
	clave     string
	tipo      string
	fecha     time.Time
	firmado   *string
	intentos  int
	consultas int
	enviado   *time.Time // enviado_en: when Hacienda received it
	lease     time.Time
	cfg       empresaConfig
	receptor  *recepcion.Identificacion
}

// Procesar is the hacienda worker's handler for one wake-up. It takes a
// lease on the comprobante if its work is due (and nobody holds it), talks
// to Hacienda outside any transaction, and records the result under the
// lease. A duplicate, early or stale message finds nothing to do. An error
// is returned only when the database fails (the message is then delivered
// again).
func (s *Service) Procesar(ctx context.Context, j queue.Job) error {
	if j.Tipo != TrabajoHacienda || j.EmpresaID <= 0 || j.ID <= 0 {
		s.log().Warn("hacienda: mensaje desconocido descartado", "job", j.String())
		return nil
	}
	now := s.now()
	t := tarea{job: j, lease: now.Add(Lease)}
	found := false
	err := s.DB.WithTx(ctx, db.Scope{EmpresaID: j.EmpresaID}, func(tx *db.Tx) error {
		err := tx.QueryRow(ctx, `update comprobantes_electronicos set en_proceso_hasta = $3
			where empresa_id = $1 and id = $2 and trabajo is not null and proximo_intento_en <= $4
			  and (en_proceso_hasta is null or en_proceso_hasta <= $5) and not eliminado
			returning trabajo, clave, tipo_documento, fecha_emision, xml_firmado, intentos_envio, consultas, enviado_en`,
			j.EmpresaID, j.ID, t.lease, now.Add(tolerancia), now).
			Scan(&t.trabajo, &t.clave, &t.tipo, &t.fecha, &t.firmado, &t.intentos, &t.consultas, &t.enviado)
		if errors.Is(err, pgx.ErrNoRows) {
			return nil
		}
		if err != nil {
			return fmt.Errorf("facturacion: tomar trabajo: %w", err)
		}
		found = true
		b := &pgx.Batch{}
		b.Queue(configSQL, j.EmpresaID)
		b.Queue(`select ti.codigo_hacienda, cl.identificacion from comprobantes_electronicos c
			join ventas v on v.empresa_id = c.empresa_id and v.id = c.venta_id
			join clientes cl on cl.empresa_id = v.empresa_id and cl.id = v.cliente_id
			join tipos_identificacion ti on ti.codigo = cl.tipo_identificacion
			where c.empresa_id = $1 and c.id = $2`, j.EmpresaID, j.ID)
		br := tx.SendBatch(ctx, b)
		defer br.Close()
		if t.cfg, err = scanConfig(br.QueryRow(), j.EmpresaID); err != nil {
			return err
		}
		var r recepcion.Identificacion
		err = br.QueryRow().Scan(&r.Tipo, &r.Numero)
		switch {
		case errors.Is(err, pgx.ErrNoRows):
		case err != nil:
			return fmt.Errorf("facturacion: receptor: %w", err)
		default:
			r.Numero = soloAlfanumerico(r.Numero)
			t.receptor = &r
		}
		return nil
	})
	if err != nil || !found {
		return err
	}
	cred, err := s.credenciales(ctx, t.cfg)
	if err != nil {
		return s.fallar(ctx, t, err.Error())
	}
	switch t.trabajo {
	case trabajoEnviar:
		return s.enviarHacienda(ctx, t, cred)
	case trabajoConsultar:
		return s.consultarHacienda(ctx, t, cred)
	}
	return nil
}

// credenciales decrypts the company's Hacienda username and password.
func (s *Service) credenciales(ctx context.Context, cfg empresaConfig) (recepcion.Credenciales, error) {
	if len(cfg.usuario) == 0 || len(cfg.clave) == 0 {
		return recepcion.Credenciales{}, errors.New(msgSinCredencia)
	}
	cif, err := s.cifra(ctx)
	if err != nil {
		return recepcion.Credenciales{}, errors.New("No se pudo obtener la llave de cifrado de los secretos.")
	}
	u, err := cif.Descifrar(cfg.empresaID, campoUsuario, cfg.usuario)
	if err != nil {
		return recepcion.Credenciales{}, errors.New("Las credenciales de Hacienda guardadas no se pueden descifrar; vuelva a configurarlas.")
	}
	c, err := cif.Descifrar(cfg.empresaID, campoClave, cfg.clave)
	if err != nil {
		return recepcion.Credenciales{}, errors.New("Las credenciales de Hacienda guardadas no se pueden descifrar; vuelva a configurarlas.")
	}
	return recepcion.Credenciales{Usuario: string(u), Clave: string(c)}, nil
}

// guardar applies an update under the lease (where en_proceso_hasta is
// still ours); fn may write more in the same transaction. It reports
// whether the lease was still held.
func (s *Service) guardar(ctx context.Context, t tarea, set string, args []any, fn func(tx *db.Tx) error) (bool, error) {
	held := false
	err := s.DB.WithTx(ctx, db.Scope{EmpresaID: t.job.EmpresaID}, func(tx *db.Tx) error {
		all := append([]any{t.job.EmpresaID, t.job.ID, t.lease}, args...)
		tag, err := tx.Exec(ctx, `update comprobantes_electronicos set en_proceso_hasta = null, `+set+`
			where empresa_id = $1 and id = $2 and en_proceso_hasta = $3`, all...)
		if err != nil {
			return fmt.Errorf("facturacion: guardar resultado: %w", err)
		}
		if tag.RowsAffected() == 0 {
			return nil
		}
		held = true
		if fn != nil {
			return fn(tx)
		}
		return nil
	})
	if err == nil && !held {
		s.log().Warn("hacienda: otro proceso tomó el comprobante; resultado descartado", "job", t.job.String())
	}
	return held, err
}

func (s *Service) despertar(ctx context.Context, j queue.Job, d time.Duration) {
	if err := s.Queue.Wake(ctx, j, d); err != nil {
		s.log().Error("hacienda: no se pudo encolar; el barrido lo retomará", "job", j.String(), "error", err.Error())
	}
}

// fallar ends the work in estado error with a message.
func (s *Service) fallar(ctx context.Context, t tarea, msg string) error {
	s.log().Warn("hacienda: comprobante en error", "job", t.job.String(), "clave", t.clave, "motivo", msg)
	_, err := s.guardar(ctx, t, `estado = $4, ultimo_error = $5, trabajo = null, proximo_intento_en = null`,
		[]any{Error, recortar(msg, 2000)}, nil)
	return err
}

// reintentar leaves the work due again after d.
func (s *Service) reintentar(ctx context.Context, t tarea, d time.Duration, set string, args []any) error {
	next := s.now().Add(d)
	held, err := s.guardar(ctx, t, `proximo_intento_en = $4`+set, append([]any{next}, args...), nil)
	if err == nil && held {
		s.despertar(ctx, t.job, d)
	}
	return err
}

// backoff is the wait before submission retry n (1-based).
func backoff(n int) time.Duration {
	d := BackoffEnvio
	for i := 1; i < n && d < MaxBackoff; i++ {
		d *= 2
	}
	return min(d, MaxBackoff)
}

func (s *Service) enviarHacienda(ctx context.Context, t tarea, cred recepcion.Credenciales) error {
	if t.firmado == nil {
		return s.fallar(ctx, t, "El comprobante no tiene XML firmado.")
	}
	envio := recepcion.Envio{
		Clave: t.clave, Fecha: t.fecha.In(horacr.Zona),
		Emisor:         recepcion.Identificacion{Tipo: t.cfg.emisor.TipoIdentificacion, Numero: t.cfg.emisor.NumeroIdentificacion},
		Receptor:       t.receptor,
		ComprobanteXML: []byte(*t.firmado),
	}
	err := s.cliente(t.cfg.ambiente).Enviar(ctx, t.job.EmpresaID, cred, envio)
	var rechazo *recepcion.Rechazo
	var limite *esperaLimite
	switch {
	case err == nil:
		return s.recibido(ctx, t)
	case errors.As(err, &rechazo) && recepcion.EsDuplicado(rechazo.Causa):
		// A duplicate clave means Hacienda already has it (the client
		// already answers nil for 400/409 duplicates; kept for safety).
		return s.recibido(ctx, t)
	case errors.As(err, &rechazo):
		causa := rechazo.Causa
		if causa == "" {
			causa = "sin detalle"
		}
		return s.fallar(ctx, t, fmt.Sprintf("Hacienda rechazó el envío (HTTP %d): %s", rechazo.Estado, causa))
	case errors.As(err, &limite):
		return s.reintentar(ctx, t, time.Duration(limite.segundos)*time.Second, "", nil)
	case errors.Is(err, recepcion.ErrCredenciales):
		return s.fallar(ctx, t, "Hacienda rechazó el usuario o la clave configurados; revíselos en la configuración.")
	case errors.Is(err, recepcion.ErrTemporal) || errors.Is(err, context.DeadlineExceeded):
		n := t.intentos + 1
		if n >= MaxIntentosEnvio {
			return s.fallar(ctx, t, fmt.Sprintf("No se pudo entregar el comprobante a Hacienda tras %d intentos: %v", n, err))
		}
		d := backoff(n)
		return s.reintentar(ctx, t, d, `, intentos_envio = $5, ultimo_error = $6`,
			[]any{n, recortar(fmt.Sprintf("Intento %d fallido (%v); se reintentará en %s.", n, err, d), 2000)})
	default:
		return s.fallar(ctx, t, fmt.Sprintf("No se pudo enviar el comprobante: %v", err))
	}
}

// recibido records that Hacienda received the document and schedules the
// first status poll IntervaloConsulta later.
func (s *Service) recibido(ctx context.Context, t tarea) error {
	now := s.now()
	held, err := s.guardar(ctx, t, `estado = $4, ind_estado = 'recibido', enviado_en = $5, trabajo = $6,
		proximo_intento_en = $7, consultas = 0, ultimo_error = null`,
		[]any{Enviado, now, trabajoConsultar, now.Add(IntervaloConsulta)}, nil)
	if err == nil && held {
		s.despertar(ctx, t.job, IntervaloConsulta)
	}
	return err
}

// estadoPorIndicador maps Hacienda's final ind-estado to ours.
var estadoPorIndicador = map[string]string{"aceptado": Aceptado, "rechazado": Rechazado, "error": Error}

func (s *Service) consultarHacienda(ctx context.Context, t tarea, cred recepcion.Credenciales) error {
	est, err := s.cliente(t.cfg.ambiente).Consultar(ctx, t.job.EmpresaID, cred, t.clave)
	var rechazo *recepcion.Rechazo
	var limite *esperaLimite
	indicador := ""
	switch {
	case err == nil && est.Final():
		return s.registrarRespuesta(ctx, t, est)
	case err == nil:
		indicador = est.IndEstado
	case errors.As(err, &limite):
		return s.reintentar(ctx, t, time.Duration(limite.segundos)*time.Second, "", nil)
	case errors.Is(err, recepcion.ErrNoEncontrado):
		// Not indexed yet: poll again.
	case errors.As(err, &rechazo):
		return s.fallar(ctx, t, fmt.Sprintf("Hacienda rechazó la consulta de estado (HTTP %d): %s", rechazo.Estado, rechazo.Causa))
	case errors.Is(err, recepcion.ErrCredenciales):
		return s.fallar(ctx, t, "Hacienda rechazó el usuario o la clave configurados; revíselos en la configuración.")
	case errors.Is(err, recepcion.ErrTemporal) || errors.Is(err, context.DeadlineExceeded):
		s.log().Warn("hacienda: consulta fallida; se reintentará", "job", t.job.String(), "error", err.Error())
	default:
		return s.fallar(ctx, t, fmt.Sprintf("No se pudo consultar el estado del comprobante: %v", err))
	}
	s.reportarAtascado(t, s.now())
	n := t.consultas + 1
	if n >= MaxConsultas {
		return s.fallar(ctx, t, fmt.Sprintf("Hacienda no informó el resultado tras %d consultas (%s); reanude con enviar o consulte más tarde.",
			n, time.Duration(n)*IntervaloConsulta))
	}
	var ind *string
	// As much of an undocumented indicator as its column holds: refused
	// by the database, the poll would be retried for ever.
	if indicador = recortar(recepcion.Legible([]byte(indicador), 0), 20); indicador != "" {
		ind = &indicador
	}
	return s.reintentar(ctx, t, IntervaloConsulta, `, consultas = $5, ind_estado = coalesce($6, ind_estado)`, []any{n, ind})
}

// registrarRespuesta stores Hacienda's final answer: the decoded
// MensajeHacienda, its Mensaje and DetalleMensaje; an accepted document
// writes FacturaEmitidaEvent in the same transaction.
func (s *Service) registrarRespuesta(ctx context.Context, t tarea, est recepcion.Estado) error {
	estado := estadoPorIndicador[est.IndEstado]
	var xmlResp, mensaje, detalle, ultimo *string
	if len(est.RespuestaXML) > 0 {
		// As UTF-8 text: a Latin-1 answer stored as it came was refused
		// by PostgreSQL and the answer never recorded.
		x := recepcion.TextoXML(est.RespuestaXML)
		xmlResp = &x
		if m, err := recepcion.LeerMensaje(est.RespuestaXML); err == nil {
			code := strconv.Itoa(m.Mensaje)
			mensaje = &code
			d := recortar(m.DetalleMensaje, 2000)
			detalle = &d
		} else {
			s.log().Warn("hacienda: MensajeHacienda ilegible", "job", t.job.String(), "error", err.Error())
		}
	}
	if estado == Error {
		u := "Hacienda informó un error al procesar el comprobante."
		if detalle != nil && *detalle != "" {
			u += " " + *detalle
		}
		u = recortar(u, 2000)
		ultimo = &u
	}
	now := s.now()
	_, err := s.guardar(ctx, t, `estado = $4, ind_estado = $5, xml_respuesta = $6, mensaje_hacienda = $7, detalle_mensaje = $8,
		ultimo_error = $9, respondido_en = $10, consultas = consultas + 1, trabajo = null, proximo_intento_en = null`,
		[]any{estado, est.IndEstado, xmlResp, mensaje, detalle, ultimo, now},
		func(tx *db.Tx) error {
			if estado != Aceptado {
				return nil
			}
			c, err := buscar(ctx, tx, t.job.ID)
			if err != nil {
				return err
			}
			return eventos.Registrar(ctx, tx, eventos.FacturaEmitida, c)
		})
	if err == nil {
		s.log().Info("hacienda: respuesta final", "job", t.job.String(), "clave", t.clave, "estado", estado)
	}
	return err
}

// Barrer is the scheduler's sweep: it wakes every comprobante whose work
// has been due for longer than Gracia and that no worker holds (a lost
// message, a crashed worker, a failed Wake). It returns how many it woke.
func (s *Service) Barrer(ctx context.Context) (int, error) {
	now := s.now()
	var jobs []queue.Job
	err := s.DB.WithTx(ctx, db.Scope{}, func(tx *db.Tx) error {
		rows, err := tx.Query(ctx, `select empresa_id, id from hacienda_trabajos_vencidos($1, $2, $3)`, now.Add(-Gracia), now, MaxBarrido)
		if err != nil {
			return err
		}
		jobs, err = pgx.CollectRows(rows, func(r pgx.CollectableRow) (queue.Job, error) {
			j := queue.Job{Tipo: TrabajoHacienda}
			return j, r.Scan(&j.EmpresaID, &j.ID)
		})
		return err
	})
	if err != nil {
		return 0, fmt.Errorf("facturacion: barrido: %w", err)
	}
	var first error
	for _, j := range jobs {
		if err := s.Queue.Wake(ctx, j, 0); err != nil && first == nil {
			first = err
		}
	}
	if len(jobs) > 0 {
		s.log().Info("hacienda: barrido", "despertados", len(jobs))
	}
	return len(jobs), first
}
