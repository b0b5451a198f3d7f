package facturacion

import (
	"context"
	"errors"
	"fmt"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/erpcr/erp/shared/apperr"
	"github.com/erpcr/erp/shared/auth"
	"github.com/erpcr/erp/shared/db"
	"github.com/erpcr/erp/shared/hacienda/firma"
	"github.com/erpcr/erp/shared/valid"
)

// Ambientes are Hacienda's environments a company can submit to.
var Ambientes = []string{"staging", "production"}

// MaxCertificado is the longest base64 certificate accepted (SPEC.md
// Limits: certificado_llave_fe 10000).
const MaxCertificado = 10000

// Campos of the encrypted secrets (also their associated data).
const (
	campoUsuario     = "usuario"
	campoClave       = "clave"
	campoCertificado = "certificado"
	campoPIN         = "pin"
)

// EmisorConfig is the issuer's data as the company configured it, with the
// company's own data as defaults.
type EmisorConfig struct {
	TipoIdentificacion   string  `json:"tipo_identificacion"`
	NumeroIdentificacion string  `json:"numero_identificacion"`
	Nombre               string  `json:"nombre"`
	NombreComercial      *string `json:"nombre_comercial"`
	Provincia            *string `json:"provincia"`
	Canton               *string `json:"canton"`
	Distrito             *string `json:"distrito"`
	Barrio               *string `json:"barrio"`
	OtrasSenas           *string `json:"otras_senas"`
	Telefono             *string `json:"telefono"`
	CorreoElectronico    *string `json:"correo_electronico"`
}

// TerminalConfig is the establishment and terminal of a branch.
type TerminalConfig struct {
	SucursalID      int64  `json:"sucursal_id"`
	Nombre          string `json:"nombre"`
	Establecimiento string `json:"establecimiento"`
	Terminal        string `json:"terminal"`
	// Configurada is false when the branch uses the default 001/00001.
	Configurada bool `json:"configurada"`
}

// CertificadoInfo is what the API shows of the certificate.
type CertificadoInfo struct {
	Sujeto      *string    `json:"sujeto"`
	Emisor      *string    `json:"emisor"`
	Serie       *string    `json:"serie"`
	ValidoDesde *time.Time `json:"valido_desde"`
	ValidoHasta *time.Time `json:"valido_hasta"`
	Vencido     bool       `json:"vencido"`
}

// Configuracion is GET /api/v1/hacienda/configuracion: never a secret, only
// whether each is set, and the certificate's subject, serial and expiry.
type Configuracion struct {
	Configurada            bool             `json:"configurada"`
	Ambiente               string           `json:"ambiente"`
	CodigoActividad        *string          `json:"codigo_actividad"`
	ProveedorSistemas      *string          `json:"proveedor_sistemas"`
	Emisor                 EmisorConfig     `json:"emisor"`
	Sucursales             []TerminalConfig `json:"sucursales"`
	UsuarioConfigurado     bool             `json:"usuario_configurado"`
	ClaveConfigurada       bool             `json:"clave_configurada"`
	CertificadoConfigurado bool             `json:"certificado_configurado"`
	PINConfigurado         bool             `json:"pin_configurado"`
	Certificado            *CertificadoInfo `json:"certificado"`
	ActualizadoEn          *time.Time       `json:"actualizado_en"`
}

// empresaConfig is a company's settings as the code uses them (secrets
// still encrypted).
type empresaConfig struct {
	empresaID   int64
	existe      bool
	ambiente    string
	usuario     []byte
	clave       []byte
	certificado []byte
	pin         []byte
	certInfo    CertificadoInfo
	actividad   *string
	proveedor   *string
	emisor      EmisorConfig
	actualizado *time.Time
}

const configSQL = `select e.razon_social, e.nit_ruc, e.email, e.telefono,
	hc.empresa_id is not null, coalesce(hc.ambiente, 'staging'), hc.usuario_cifrado, hc.clave_cifrada, hc.certificado_cifrado, hc.pin_cifrado,
	hc.certificado_sujeto, hc.certificado_emisor, hc.certificado_serie, hc.certificado_valido_desde, hc.certificado_valido_hasta,
	hc.codigo_actividad, hc.proveedor_sistemas, hc.emisor_tipo_identificacion, hc.emisor_numero_identificacion,
	hc.emisor_nombre, hc.emisor_nombre_comercial, hc.provincia, hc.canton, hc.distrito, hc.barrio, hc.otras_senas,
	hc.telefono, hc.correo_electronico, hc.actualizado_en
	from empresas e left join hacienda_configuraciones hc on hc.empresa_id = e.id and not hc.eliminado
	where e.id = $1`

func scanConfig(row pgx.Row, empresaID int64) (empresaConfig, error) {
	c := empresaConfig{empresaID: empresaID}
	var razon, nit string
	var email, tel, tipo, numero, nombre *string
	err := row.Scan(&razon, &nit, &email, &tel,
		&c.existe, &c.ambiente, &c.usuario, &c.clave, &c.certificado, &c.pin,
		&c.certInfo.Sujeto, &c.certInfo.Emisor, &c.certInfo.Serie, &c.certInfo.ValidoDesde, &c.certInfo.ValidoHasta,
		&c.actividad, &c.proveedor, &tipo, &numero,
		&nombre, &c.emisor.NombreComercial, &c.emisor.Provincia, &c.emisor.Canton, &c.emisor.Distrito, &c.emisor.Barrio, &c.emisor.OtrasSenas,
		&c.emisor.Telefono, &c.emisor.CorreoElectronico, &c.actualizado)
	if err != nil {
		return c, fmt.Errorf("facturacion: configuración: %w", err)
	}
	// Defaults from the company itself.
	c.emisor.NumeroIdentificacion = soloAlfanumerico(nit)
	if numero != nil {
		c.emisor.NumeroIdentificacion = *numero
	}
	c.emisor.TipoIdentificacion = tipoPorNumero(c.emisor.NumeroIdentificacion)
	if tipo != nil {
		c.emisor.TipoIdentificacion = *tipo
	}
	c.emisor.Nombre = razon
	if nombre != nil {
		c.emisor.Nombre = *nombre
	}
	if c.emisor.CorreoElectronico == nil {
		c.emisor.CorreoElectronico = email
	}
	if c.emisor.Telefono == nil && tel != nil {
		if t := soloDigitos(*tel); len(t) == 8 {
			c.emisor.Telefono = &t
		}
	}
	return c, nil
}

func cargarConfig(ctx context.Context, q *db.Tx) (empresaConfig, error) {
	empresaID := q.EmpresaID()
	return scanConfig(q.QueryRow(ctx, configSQL, empresaID), empresaID)
}

func soloAlfanumerico(s string) string {
	return strings.Map(func(r rune) rune {
		if (r >= '0' && r <= '9') || (r >= 'A' && r <= 'Z') || (r >= 'a' && r <= 'z') {
			return r
		}
		return -1
	}, s)
}

func soloDigitos(s string) string {
	return strings.Map(func(r rune) rune {
		if r >= '0' && r <= '9' {
			return r
		}
		return -1
	}, s)
}

// tipoPorNumero guesses the identification type from the number's shape:
// 9 digits física, 10 starting with 3 (or alphanumeric) jurídica, 11-12
// DIMEX, other 10 digits NITE.
func tipoPorNumero(n string) string {
	switch {
	case len(n) == 9 && soloDigitos(n) == n:
		return "01"
	case len(n) == 10 && (strings.HasPrefix(n, "3") || soloDigitos(n) != n):
		return "02"
	case (len(n) == 11 || len(n) == 12) && soloDigitos(n) == n:
		return "03"
	case len(n) == 10:
		return "04"
	}
	return "02"
}

func (c empresaConfig) vista(now time.Time, terminales []TerminalConfig) Configuracion {
	v := Configuracion{
		Configurada: c.existe, Ambiente: c.ambiente, CodigoActividad: c.actividad, ProveedorSistemas: c.proveedor,
		Emisor: c.emisor, Sucursales: terminales,
		UsuarioConfigurado: len(c.usuario) > 0, ClaveConfigurada: len(c.clave) > 0,
		CertificadoConfigurado: len(c.certificado) > 0, PINConfigurado: len(c.pin) > 0,
		ActualizadoEn: c.actualizado,
	}
	if v.Sucursales == nil {
		v.Sucursales = []TerminalConfig{}
	}
	if len(c.certificado) > 0 {
		info := c.certInfo
		info.Vencido = info.ValidoHasta != nil && now.After(*info.ValidoHasta)
		v.Certificado = &info
	}
	return v
}

const terminalesSQL = `select s.id, s.nombre, coalesce(t.establecimiento, 1), coalesce(t.terminal, 1), t.sucursal_id is not null
	from sucursales s left join hacienda_terminales t on t.empresa_id = s.empresa_id and t.sucursal_id = s.id
	where s.empresa_id = $1 and not s.eliminado order by s.id`

func leerTerminales(rows pgx.Rows) ([]TerminalConfig, error) {
	return pgx.CollectRows(rows, func(r pgx.CollectableRow) (TerminalConfig, error) {
		var t TerminalConfig
		var est, term int
		err := r.Scan(&t.SucursalID, &t.Nombre, &est, &term, &t.Configurada)
		t.Establecimiento, t.Terminal = fmt.Sprintf("%03d", est), fmt.Sprintf("%05d", term)
		return t, err
	})
}

// leerVista reads the settings and the branches in one round trip.
func (s *Service) leerVista(ctx context.Context, tx *db.Tx) (Configuracion, error) {
	empresaID := tx.EmpresaID()
	b := &pgx.Batch{}
	b.Queue(configSQL, empresaID)
	b.Queue(terminalesSQL, empresaID)
	br := tx.SendBatch(ctx, b)
	defer br.Close()
	c, err := scanConfig(br.QueryRow(), empresaID)
	if err != nil {
		return Configuracion{}, err
	}
	rows, _ := br.Query()
	ts, err := leerTerminales(rows)
	if err != nil {
		return Configuracion{}, fmt.Errorf("facturacion: terminales: %w", err)
	}
	return c.vista(s.now(), ts), nil
}

var (
	actividadRe = regexp.MustCompile(`^[0-9][0-9.]{5}$`)
	proveedorRe = regexp.MustCompile(`^[A-Za-z0-9]{1,20}$`)
	numeroIDRe  = regexp.MustCompile(`^[A-Za-z0-9]{9,12}$`)
)

// cambio is one column set by PUT: its name (from a fixed list, never from
// the request) and its value.
type cambio struct {
	col string
	val any
}

// terminalIn is one branch of PUT's sucursales.
type terminalIn struct {
	sucursalID                int64
	establecimiento, terminal int64
}

func max64(n int64) *int64 { return &n }

func recortar(s string, n int) string {
	r := []rune(s)
	if len(r) > n {
		return string(r[:n])
	}
	return s
}

var (
	provinciaRe = regexp.MustCompile(`^[1-7]$`)
	dosDigitos  = regexp.MustCompile(`^[0-9]{2}$`)
	telefonoRe  = regexp.MustCompile(`^[0-9]{8,20}$`)
)

// readEmisor reads the issuer fields of PUT (nested under emisor).
func readEmisor(ei *valid.Input, set func(string, any)) {
	field := func(key, col string, rule valid.Str, check func(string) (string, string)) {
		if !ei.Has(key) {
			return
		}
		v, ok := ei.String(key, rule)
		if !ok {
			if !ei.Failed(key) {
				set(col, nil)
			}
			return
		}
		if check != nil {
			norm, msg := check(v)
			if msg != "" {
				ei.Fail(key, msg)
				return
			}
			v = norm
		}
		set(col, v)
	}
	pattern := func(re *regexp.Regexp, msg string) func(string) (string, string) {
		return func(v string) (string, string) {
			if !re.MatchString(v) {
				return "", msg
			}
			return v, ""
		}
	}
	field("tipo_identificacion", "emisor_tipo_identificacion", valid.Str{}, func(v string) (string, string) {
		if !slices.Contains([]string{"01", "02", "03", "04"}, v) {
			return "", "El campo tipo identificacion debe ser 01 (física), 02 (jurídica), 03 (DIMEX) o 04 (NITE)."
		}
		return v, ""
	})
	field("numero_identificacion", "emisor_numero_identificacion", valid.Str{}, func(v string) (string, string) {
		n := strings.ToUpper(soloAlfanumerico(v))
		if !numeroIDRe.MatchString(n) {
			return "", "El campo numero identificacion debe tener de 9 a 12 letras o dígitos (sin guiones)."
		}
		return n, ""
	})
	field("nombre", "emisor_nombre", valid.Str{Min: 5, Max: 100}, nil)
	field("nombre_comercial", "emisor_nombre_comercial", valid.Str{Min: 3, Max: 80}, nil)
	field("provincia", "provincia", valid.Str{}, pattern(provinciaRe, "El campo provincia debe ser el código de provincia (1 a 7)."))
	field("canton", "canton", valid.Str{}, pattern(dosDigitos, "El campo canton debe ser el código de cantón de 2 dígitos (por ejemplo 01)."))
	field("distrito", "distrito", valid.Str{}, pattern(dosDigitos, "El campo distrito debe ser el código de distrito de 2 dígitos (por ejemplo 01)."))
	field("barrio", "barrio", valid.Str{Min: 5, Max: 50}, nil)
	field("otras_senas", "otras_senas", valid.Str{Min: 5, Max: 250}, nil)
	field("telefono", "telefono", valid.Str{}, func(v string) (string, string) {
		d := soloDigitos(strings.TrimPrefix(strings.TrimSpace(v), "+506"))
		if !telefonoRe.MatchString(d) {
			return "", "El campo telefono debe tener al menos 8 dígitos."
		}
		return d, ""
	})
	field("correo_electronico", "correo_electronico", valid.Str{Max: 160, Email: true}, nil)
}

func guardarTerminales(ctx context.Context, tx *db.Tx, ts []terminalIn) error {
	empresaID := tx.EmpresaID()
	ids := make([]int64, len(ts))
	ests := make([]int32, len(ts))
	terms := make([]int32, len(ts))
	for i, t := range ts {
		ids[i], ests[i], terms[i] = t.sucursalID, int32(t.establecimiento), int32(t.terminal)
	}
	rows, err := tx.Query(ctx, `select id from sucursales where empresa_id = $1 and id = any($2) and not eliminado`, empresaID, ids)
	if err != nil {
		return fmt.Errorf("facturacion: sucursales: %w", err)
	}
	existentes, err := pgx.CollectRows(rows, pgx.RowTo[int64])
	if err != nil {
		return fmt.Errorf("facturacion: sucursales: %w", err)
	}
	errs := map[string][]string{}
	for i, t := range ts {
		if !slices.Contains(existentes, t.sucursalID) {
			k := "sucursales." + strconv.Itoa(i) + ".sucursal_id"
			errs[k] = append(errs[k], "La sucursal seleccionada no existe en esta empresa.")
		}
	}
	if len(errs) > 0 {
		return apperr.NewInvalid(errs)
	}
	_, err = tx.Exec(ctx, `insert into hacienda_terminales (empresa_id, sucursal_id, establecimiento, terminal)
		select $1, x.s, x.e, x.t from unnest($2::bigint[], $3::int[], $4::int[]) as x(s, e, t)
		on conflict (empresa_id, sucursal_id) do update set establecimiento = excluded.establecimiento, terminal = excluded.terminal`,
		empresaID, ids, ests, terms)
	if err != nil {
		return fmt.Errorf("facturacion: guardar terminales: %w", err)
	}
	return nil
}

// guardarConfiguracion applies a decoded PUT /hacienda/configuracion.
func (s *Service) guardarConfiguracion(ctx context.Context, tx *db.Tx, p auth.Principal, x configuracionIn) (Configuracion, error) {
	cif, err := s.cifra(ctx)
	if err != nil {
		return Configuracion{}, err
	}
	set := x.set
	usuario, usuarioOK, claveH, claveOK, pin, pinOK, p12, certOK := x.usuario, x.usuarioOK, x.clave, x.claveOK, x.pin, x.pinOK, x.p12, x.certOK
	// Create the row if needed and lock it: concurrent PUTs apply one after the other.
	b := &pgx.Batch{}
	b.Queue(`insert into hacienda_configuraciones (empresa_id) values ($1) on conflict (empresa_id) do nothing`, tx.EmpresaID())
	b.Queue(`select 1 from hacienda_configuraciones where empresa_id = $1 for update`, tx.EmpresaID())
	if err := tx.SendBatch(ctx, b).Close(); err != nil {
		return Configuracion{}, fmt.Errorf("facturacion: configuración: %w", err)
	}
	cur, err := cargarConfig(ctx, tx)
	if err != nil {
		return Configuracion{}, err
	}
	if certOK || pinOK {
		if !pinOK && len(cur.pin) > 0 {
			b, err := cif.Descifrar(tx.EmpresaID(), campoPIN, cur.pin)
			if err != nil {
				return Configuracion{}, err
			}
			pin, pinOK = string(b), true
		}
		if !certOK && len(cur.certificado) > 0 {
			b, err := cif.Descifrar(tx.EmpresaID(), campoCertificado, cur.certificado)
			if err != nil {
				return Configuracion{}, err
			}
			p12 = b
		}
		switch {
		case certOK && !pinOK:
			return Configuracion{}, apperr.InvalidField("pin", "El campo pin es obligatorio para verificar el certificado.")
		case len(p12) > 0:
			crt, err := firma.CargarP12(p12, pin)
			switch {
			case errors.Is(err, firma.ErrPIN):
				return Configuracion{}, apperr.InvalidField("pin", "El PIN no corresponde al certificado.")
			case err != nil:
				return Configuracion{}, apperr.InvalidField("certificado", "El certificado no se pudo leer: debe ser un archivo .p12 con llave RSA y certificado.")
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
		{campoPIN, "pin_cifrado", pinOK && x.pinEnviado, []byte(pin)},
	}
	for _, sec := range secretos {
		if !sec.ok {
			continue
		}
		c, err := cif.Cifrar(tx.EmpresaID(), sec.campo, sec.val)
		if err != nil {
			return Configuracion{}, err
		}
		set(sec.col, c)
	}
	if len(x.cambios) > 0 {
		sql := "update hacienda_configuraciones set "
		args := []any{tx.EmpresaID()}
		for i, c := range x.cambios {
			if i > 0 {
				sql += ", "
			}
			args = append(args, c.val)
			sql += c.col + " = $" + strconv.Itoa(len(args))
		}
		if _, err := tx.Exec(ctx, sql+" where empresa_id = $1", args...); err != nil {
			return Configuracion{}, fmt.Errorf("facturacion: guardar configuración: %w", err)
		}
	}
	if len(x.terminales) > 0 {
		if err := guardarTerminales(ctx, tx, x.terminales); err != nil {
			return Configuracion{}, err
		}
	}
	return s.leerVista(ctx, tx)
}

// configuracionIn is a decoded PUT /hacienda/configuracion: the plain
// columns to change and the secrets sent (the certificate already base64
// decoded), checked against the stored ones in the transaction.
type configuracionIn struct {
	cambios                               []cambio
	usuario, clave, pin                   string
	usuarioOK, claveOK, pinOK, pinEnviado bool
	certOK                                bool
	p12                                   []byte
	terminales                            []terminalIn
}

func (x *configuracionIn) set(col string, val any) { x.cambios = append(x.cambios, cambio{col, val}) }
