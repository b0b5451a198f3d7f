package facturacion

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"regexp"
	"slices"
	"strconv"
	"time"

	"github.com/erpcr/erp/shared/apperr"
	"github.com/erpcr/erp/shared/auth"
	"github.com/erpcr/erp/shared/b64"
	"github.com/erpcr/erp/shared/db"
	"github.com/erpcr/erp/shared/documentos"
	"github.com/erpcr/erp/shared/hacienda/firma"
	"github.com/erpcr/erp/shared/handler"
	"github.com/erpcr/erp/shared/httpx"
	"github.com/erpcr/erp/shared/lambdahttp"
	"github.com/erpcr/erp/shared/queue"
	"github.com/erpcr/erp/shared/ratelimit"
	"github.com/erpcr/erp/shared/valid"
	"github.com/jackc/pgx/v5"
)

func (s *Service) configuracionShow(w http.ResponseWriter, r *http.Request) error {
	p := auth.FromRequest(r)
	var v Configuracion
	err := s.DB.WithTx(r.Context(), p.Scope(), func(tx *db.Tx) error {
		var err error
		v, err = s.leerVista(r.Context(), tx)
		return err
	})
	if err != nil {
		return err
	}
	return httpx.OK(w, "", v)
}

// configuracionUpdate is PUT /api/v1/hacienda/configuracion: a partial
// update (only the fields sent change; null clears an optional one). The
// certificate is checked with its PIN before anything is stored.
func (s *Service) configuracionUpdate(w http.ResponseWriter, r *http.Request) error {
	p := auth.FromRequest(r)
	ctx := r.Context()
	in, err := httpx.ReadInput(r)
	if err != nil {
		return err
	}
	var cambios []cambio
	set := func(col string, val any) { cambios = append(cambios, cambio{col, val}) }
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
	usuario, usuarioOK := in.String("usuario", valid.Str{Max: 255})
	claveH, claveOK := in.String("clave", valid.Str{Max: 255, NoTrim: true})
	certB64, certOK := in.String("certificado", valid.Str{Max: MaxCertificado})
	pin, pinOK := in.String("pin", valid.Str{Max: 128, NoTrim: true})
	var p12 []byte
	if certOK {
		if p12, err = b64.Decodificar(certB64); err != nil {
			in.Fail("certificado", "El campo certificado debe ser el archivo .p12 codificado en base64.")
			certOK = false
		}
	}

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
	var terminales []terminalIn
	if items, ok := in.List("sucursales", false); ok {
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
			in.Merge(prefix+".", ti)
			terminales = append(terminales, t)
		}
	}
	if err := in.Err(); err != nil {
		return err
	}

	cif, err := s.cifra(ctx)
	if err != nil {
		return err
	}
	var v Configuracion
	err = s.DB.WithTx(ctx, p.Scope(), func(tx *db.Tx) error {
		// Create the row if needed and lock it: concurrent PUTs apply one after the other.
		b := &pgx.Batch{}
		b.Queue(`insert into hacienda_configuraciones (empresa_id) values ($1) on conflict (empresa_id) do nothing`, tx.EmpresaID())
		b.Queue(`select 1 from hacienda_configuraciones where empresa_id = $1 for update`, tx.EmpresaID())
		if err := tx.SendBatch(ctx, b).Close(); err != nil {
			return fmt.Errorf("facturacion: configuración: %w", err)
		}
		cur, err := cargarConfig(ctx, tx)
		if err != nil {
			return err
		}
		if certOK || pinOK {
			if !pinOK && len(cur.pin) > 0 {
				b, err := cif.Descifrar(p.EmpresaID, campoPIN, cur.pin)
				if err != nil {
					return err
				}
				pin, pinOK = string(b), true
			}
			if !certOK && len(cur.certificado) > 0 {
				b, err := cif.Descifrar(p.EmpresaID, campoCertificado, cur.certificado)
				if err != nil {
					return err
				}
				p12 = b
			}
			switch {
			case certOK && !pinOK:
				return apperr.InvalidField("pin", "El campo pin es obligatorio para verificar el certificado.")
			case len(p12) > 0:
				crt, err := firma.CargarP12(p12, pin)
				switch {
				case errors.Is(err, firma.ErrPIN):
					return apperr.InvalidField("pin", "El PIN no corresponde al certificado.")
				case err != nil:
					return apperr.InvalidField("certificado", "El certificado no se pudo leer: debe ser un archivo .p12 con llave RSA y certificado.")
				}
				info := firma.Describir(crt)
				desde, hasta := info.ValidoDesde, info.ValidoHasta
				set("certificado_sujeto", recortar(info.Sujeto, 500))
				set("certificado_emisor", recortar(info.Emisor, 500))
				set("certificado_serie", recortar(info.Serie, 100))
				set("certificado_valido_desde", desde)
				set("certificado_valido_hasta", hasta)
			}
		}
		secretos := []struct {
			campo, col string
			ok         bool
			val        []byte
		}{
			{campoUsuario, "usuario_cifrado", usuarioOK, []byte(usuario)},
			{campoClave, "clave_cifrada", claveOK, []byte(claveH)},
			{campoCertificado, "certificado_cifrado", certOK, p12},
			{campoPIN, "pin_cifrado", pinOK && in.Has("pin"), []byte(pin)},
		}
		for _, sec := range secretos {
			if !sec.ok {
				continue
			}
			c, err := cif.Cifrar(p.EmpresaID, sec.campo, sec.val)
			if err != nil {
				return err
			}
			set(sec.col, c)
		}
		if len(cambios) > 0 {
			sql := "update hacienda_configuraciones set "
			args := []any{tx.EmpresaID()}
			for i, c := range cambios {
				if i > 0 {
					sql += ", "
				}
				args = append(args, c.val)
				sql += c.col + " = $" + strconv.Itoa(len(args))
			}
			if _, err := tx.Exec(ctx, sql+" where empresa_id = $1", args...); err != nil {
				return fmt.Errorf("facturacion: guardar configuración: %w", err)
			}
		}
		if len(terminales) > 0 {
			if err := guardarTerminales(ctx, tx, terminales); err != nil {
				return err
			}
		}
		v, err = s.leerVista(ctx, tx)
		return err
	})
	if err != nil {
		return err
	}
	return httpx.OK(w, "Configuración de facturación electrónica guardada correctamente.", v)
}

// rango reads fecha_inicio/fecha_fin as [desde, hasta) instants in Costa
// Rica time (fecha_fin includes its whole day).
func rango(f *httpx.Filters) (desde, hasta *time.Time) {
	desde, fin := f.Date("fecha_inicio"), f.Date("fecha_fin")
	if desde != nil && fin != nil && fin.Before(*desde) {
		f.Fail("fecha_fin", "El campo fecha_fin debe ser una fecha posterior o igual a fecha_inicio.")
	}
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
	f.Loc = ZonaCR
	estado := f.OneOf("estado", Estados)
	tipo := f.OneOf("tipo_documento", TiposDocumento)
	desde, hasta := rango(f)
	venta := f.ID("venta_id")
	if err := f.Err(); err != nil {
		return handler.Query[Comprobante]{}, err
	}
	order := "c.id desc"
	q := r.URL.Query()
	if q.Get("sort") != "" || q.Get("order") != "" {
		var err error
		if order, err = httpx.SortQuery(r, sorts, "c.id"); err != nil {
			return handler.Query[Comprobante]{}, err
		}
		order += ", c.id desc"
	}
	return handler.Query[Comprobante]{Cols: compCols, From: compFrom + ` where c.empresa_id = $1 and not c.eliminado
			and ($2::text is null or c.estado = $2)
			and ($3::text is null or c.tipo_documento = $3)
			and ($4::timestamptz is null or c.fecha_emision >= $4)
			and ($5::timestamptz is null or c.fecha_emision < $5)
			and ($6::bigint is null or c.venta_id = $6)
			and ($7::text is null or c.clave ilike $7 or c.numero_consecutivo ilike $7)`, Order: order,
		Args: []any{estado, tipo, desde, hasta, venta, httpx.SearchQuery(r)}, Scan: scanComprobante}, nil
}

func (s *Service) estadisticas(w http.ResponseWriter, r *http.Request) error {
	p := auth.FromRequest(r)
	f := httpx.NewFilters(r)
	f.Loc = ZonaCR
	desde, hasta := rango(f)
	if err := f.Err(); err != nil {
		return err
	}
	out := Estadisticas{PorEstado: map[string]int{}, PorTipo: map[string]int{}}
	for _, e := range Estados {
		out.PorEstado[e] = 0
	}
	for _, t := range TiposDocumento {
		out.PorTipo[t] = 0
	}
	err := s.DB.WithTx(r.Context(), p.Scope(), func(tx *db.Tx) error {
		rows, err := tx.Query(r.Context(), `select estado, tipo_documento, count(*) from comprobantes_electronicos
			where empresa_id = $1 and not eliminado
			  and ($2::timestamptz is null or fecha_emision >= $2) and ($3::timestamptz is null or fecha_emision < $3)
			group by estado, tipo_documento`, tx.EmpresaID(), desde, hasta)
		if err != nil {
			return err
		}
		var estado, tipo string
		var n int
		_, err = pgx.ForEachRow(rows, []any{&estado, &tipo, &n}, func() error {
			out.PorEstado[estado] += n
			out.PorTipo[tipo] += n
			out.Total += n
			return nil
		})
		return err
	})
	if err != nil {
		return err
	}
	return httpx.OK(w, "", out)
}

// Handlers returns the group's handlers keyed by route name.
func (s *Service) Handlers() lambdahttp.Handlers {
	return lambdahttp.Handlers{
		"hacienda.configuracion.show":   s.configuracionShow,
		"hacienda.configuracion.update": s.configuracionUpdate,
		"hacienda.generar":              s.generar,
		"hacienda.index":                handler.List(s.DB, lista),
		"hacienda.estadisticas":         s.estadisticas,
		"hacienda.show":                 handler.Show(s.DB, mostrar),
		"hacienda.estado":               handler.Show(s.DB, estado),
		"hacienda.generar-xml":          handler.Action(s.DB, "XML del comprobante generado correctamente.", handler.NoBody, generarXML),
		"hacienda.firmar":               handler.Action(s.DB, "Comprobante firmado correctamente.", handler.NoBody, s.firmar),
		"hacienda.enviar":               s.enviar,
	}
}

// generar is POST /api/v1/hacienda/generar {venta_id, tipo_documento?,
// situacion?}: it creates the comprobante of a sale with its consecutivo
// (per company, establishment, terminal and type, gapless: the counter row
// is updated in this transaction) and its clave, in state pending (201). A
// sale has at most one comprobante per type: asking again returns the
// existing one with 200.
func (s *Service) generar(w http.ResponseWriter, r *http.Request) error {
	p := auth.FromRequest(r)
	ctx := r.Context()
	in, err := httpx.ReadInput(r)
	if err != nil {
		return err
	}
	x := readGenerar(in)
	if err := in.Err(); err != nil {
		return err
	}
	var c Comprobante
	creado := false
	err = s.DB.WithTx(ctx, p.Scope(), func(tx *db.Tx) error {
		// The sale is locked first, so that concurrent generar calls for
		// one sale run one after the other and see each other's result.
		b := &pgx.Batch{}
		b.Queue(`select v.tipo_comprobante, v.estado, v.sucursal_id, v.cliente_id, e.nit_ruc, hc.emisor_numero_identificacion,
				coalesce(t.establecimiento, 1), coalesce(t.terminal, 1)
			from ventas v join empresas e on e.id = v.empresa_id
			left join hacienda_configuraciones hc on hc.empresa_id = v.empresa_id
			left join hacienda_terminales t on t.empresa_id = v.empresa_id and t.sucursal_id = v.sucursal_id
			where v.empresa_id = $1 and v.id = $2 and not v.eliminado for update of v`, tx.EmpresaID(), x.ventaID)
		b.Queue(`select c.id, c.tipo_documento from comprobantes_electronicos c
			where c.empresa_id = $1 and c.venta_id = $2 and not c.eliminado order by c.id`, tx.EmpresaID(), x.ventaID)
		br := tx.SendBatch(ctx, b)
		var v ventaGenerar
		err := br.QueryRow().Scan(&v.tipoComprobante, &v.estado, &v.sucursalID, &v.clienteID, &v.nit, &v.emisorNumero, &v.establecimiento, &v.terminal)
		if errors.Is(err, pgx.ErrNoRows) {
			br.Close()
			return apperr.InvalidField("venta_id", "La venta seleccionada no existe en esta empresa.")
		}
		if err != nil {
			br.Close()
			return fmt.Errorf("facturacion: venta: %w", err)
		}
		type existente struct {
			id   int64
			tipo string
		}
		rows, _ := br.Query()
		ex, err := pgx.CollectRows(rows, func(r pgx.CollectableRow) (existente, error) {
			var e existente
			return e, r.Scan(&e.id, &e.tipo)
		})
		if cerr := br.Close(); err == nil {
			err = cerr
		}
		if err != nil {
			return fmt.Errorf("facturacion: comprobantes de la venta: %w", err)
		}

		tipo := TipoPorComprobante[v.tipoComprobante]
		if x.tipo != "" {
			if err := tipoPermitido(v.tipoComprobante, x.tipo); err != nil {
				return err
			}
			tipo = x.tipo
		}
		for _, e := range ex {
			if e.tipo == tipo {
				c, err = buscar(ctx, tx, e.id)
				return err
			}
		}
		switch {
		case v.estado == "anulada":
			return apperr.InvalidField("venta_id", "La venta está anulada; no se puede emitir su comprobante.")
		case v.estado == "borrador":
			return apperr.InvalidField("venta_id", "La venta es un borrador; confírmela antes de emitir su comprobante.")
		case tipo == TipoFactura && v.clienteID == nil:
			return apperr.InvalidField("tipo_documento", "Una factura electrónica requiere un cliente (receptor); emita un tiquete (04) o asigne un cliente a la venta.")
		}

		emisor := soloAlfanumerico(v.nit)
		if v.emisorNumero != nil {
			emisor = *v.emisorNumero
		}
		now := s.now()
		serie := fmt.Sprintf("hacienda:%03d:%05d:%s", v.establecimiento, v.terminal, tipo)
		n, err := documentos.Siguiente(ctx, tx, serie)
		if err != nil {
			return err
		}
		consecutivo, err := Consecutivo(v.establecimiento, v.terminal, tipo, n)
		if err != nil {
			return apperr.InvalidField("venta_id", "La serie de comprobantes de esta terminal se agotó.")
		}
		seguridad, err := CodigoSeguridad()
		if err != nil {
			return err
		}
		clave, err := Clave(now, emisor, consecutivo, x.situacion, seguridad)
		if err != nil {
			return apperr.InvalidField("configuracion.emisor.numero_identificacion",
				"La identificación del emisor no sirve para la clave (de 1 a 12 letras o dígitos); revise la configuración.")
		}
		var id int64
		err = tx.QueryRow(ctx, `insert into comprobantes_electronicos (empresa_id, venta_id, sucursal_id, usuario_id, tipo_documento,
				clave, numero_consecutivo, situacion, fecha_emision)
			values ($1, $2, $3, $4, $5, $6, $7, $8, $9) returning id`,
			tx.EmpresaID(), x.ventaID, v.sucursalID, p.UsuarioID, tipo, clave, consecutivo, x.situacion, now).Scan(&id)
		if err != nil {
			if _, ok := db.IsUniqueViolation(err); ok {
				return apperr.NewConflict("La clave o el consecutivo generados ya existen; intente de nuevo.")
			}
			return fmt.Errorf("facturacion: insertar comprobante: %w", err)
		}
		creado = true
		c, err = buscar(ctx, tx, id)
		return err
	})
	if err != nil {
		return err
	}
	if creado {
		return httpx.Created(w, msgGenerado, c)
	}
	return httpx.OK(w, "La venta ya tiene este comprobante; se devuelve el existente.", c)
}

// enviar is POST /{id}/enviar: it queues the submission and answers 202
// (SQS in AWS, the in-process queue locally; the state is in PostgreSQL).
// Asking again while the submission is queued answers 202 again without
// queueing twice. At most Cfg.Hacienda.MaxEnviosHora submissions per
// company and hour (429 with Retry-After).
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
	lim := &ratelimit.Limiter{DB: s.DB, Name: "hacienda_envios", Max: s.Cfg.Hacienda.MaxEnviosHora, Window: time.Hour, Now: s.now}
	ok, retry, err := lim.Hit(ctx, strconv.FormatInt(p.EmpresaID, 10))
	if err != nil {
		return err
	}
	if !ok {
		return apperr.NewTooManyRequests(fmt.Sprintf("Se alcanzó el límite de %d envíos a Hacienda por hora para esta empresa.", s.Cfg.Hacienda.MaxEnviosHora), retry)
	}
	now := s.now()
	return s.encolar(w, r, id, "hacienda: no se pudo encolar el envío; el barrido lo retomará",
		func(ctx context.Context, tx *db.Tx, b bloqueado) error {
			if b.EnvioEnCurso && b.EnviadoEn == nil {
				return nil
			}
			if err := b.enviable(); err != nil {
				return err
			}
			_, err := tx.Exec(ctx, `update comprobantes_electronicos set estado = $3, trabajo = $4, proximo_intento_en = $5,
					en_proceso_hasta = null, envio_solicitado_en = $5, intentos_envio = 0, ultimo_error = null
				where empresa_id = $1 and id = $2`, tx.EmpresaID(), id, Firmado, trabajoEnviar, now)
			if err != nil {
				return fmt.Errorf("facturacion: encolar envío: %w", err)
			}
			return nil
		})
}

// reanudar puts a received comprobante whose polling gave up back to
// polling (estado sent), answering 202 like enviar.
func (s *Service) reanudar(w http.ResponseWriter, r *http.Request, id int64) error {
	now := s.now()
	return s.encolar(w, r, id, "hacienda: no se pudo encolar la consulta; el barrido la retomará",
		func(ctx context.Context, tx *db.Tx, b bloqueado) error {
			if !b.reanudable() {
				return b.enviable()
			}
			_, err := tx.Exec(ctx, `update comprobantes_electronicos set estado = $3, trabajo = $4, proximo_intento_en = $5,
					en_proceso_hasta = null, consultas = 0, ultimo_error = null
				where empresa_id = $1 and id = $2`, tx.EmpresaID(), id, Enviado, trabajoConsultar, now)
			if err != nil {
				return fmt.Errorf("facturacion: reanudar consultas: %w", err)
			}
			return nil
		})
}

// encolar changes a comprobante's pending work under its row lock (mover
// decides whether and how), wakes the worker after the commit (a lost
// wake-up is the sweep's) and answers 202 with the comprobante.
func (s *Service) encolar(w http.ResponseWriter, r *http.Request, id int64, perdido string,
	mover func(ctx context.Context, tx *db.Tx, b bloqueado) error) error {
	p := auth.FromRequest(r)
	ctx := r.Context()
	var c Comprobante
	err := s.DB.WithTx(ctx, p.Scope(), func(tx *db.Tx) error {
		b, err := bloquear(ctx, tx, id)
		if err != nil {
			return err
		}
		if err := mover(ctx, tx, b); err != nil {
			return err
		}
		c, err = buscar(ctx, tx, id)
		return err
	})
	if err != nil {
		return err
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
