// Package sesiones serves the authentication group: login, logout, the
// authenticated user (/api/me, /api/user) and the disabled registration.
package sesiones

import (
	"errors"
	"fmt"
	"net"
	"net/http"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/erpcr/erp/shared/apperr"
	"github.com/erpcr/erp/shared/auth"
	"github.com/erpcr/erp/shared/db"
	"github.com/erpcr/erp/shared/httpx"
	"github.com/erpcr/erp/shared/lambdahttp"
	"github.com/erpcr/erp/shared/plataforma"
	"github.com/erpcr/erp/shared/usuarios"
	"github.com/erpcr/erp/shared/valid"
)

// Service serves the auth group.
type Service struct {
	DB       *db.DB
	TokenTTL time.Duration
	// Login limits failed logins; nil means no limit.
	Login *Limiter
}

// Handlers returns the group's handlers keyed by route name.
func (s *Service) Handlers() lambdahttp.Handlers {
	return lambdahttp.Handlers{
		"auth.login":    s.login,
		"auth.logout":   s.logout,
		"auth.me":       s.me,
		"auth.user":     s.me,
		"auth.register": s.register,
	}
}

const msgCredenciales = "Las credenciales proporcionadas son incorrectas."

// LoginData is the data of a successful login.
type LoginData struct {
	Usuario   usuarios.Usuario `json:"usuario"`
	Token     string           `json:"token"`
	TokenType string           `json:"token_type"`
	ExpiraEn  time.Time        `json:"expira_en"`
	Permisos  []string         `json:"permisos"`
}

func clientIP(r *http.Request) string {
	if h, _, err := net.SplitHostPort(r.RemoteAddr); err == nil {
		return h
	}
	return r.RemoteAddr
}

func (s *Service) login(w http.ResponseWriter, r *http.Request) error {
	in, err := httpx.ReadInput(r)
	if err != nil {
		return err
	}
	email, _ := in.String("email", valid.Str{Required: true, Max: 255, Email: true})
	password, _ := in.String("password", valid.Str{Required: true, Min: 6, Max: 255, NoTrim: true})
	nombre, _ := in.String("dispositivo", valid.Str{Max: 255})
	if err := in.Err(); err != nil {
		return err
	}
	ctx := r.Context()
	var (
		id       int64
		empresa  *int64
		hash     string
		activo   bool
		usuario  *usuarios.Lectura
		permisos *[]string
	)
	// Everything the login reads travels in one round trip, with the
	// limiter's statements (limite.go), since none of it needs an answer
	// of another: the lookup by e-mail, which also sets the tenant and
	// user settings of the pipeline's transaction from the row it finds,
	// and, under those settings (row-level security reads them), the user
	// object and the permissions a successful login returns. What was read
	// is used only when the limiter admitted the attempt and the password
	// proved right; the settings end with the pipeline's transaction.
	lookup := func(b *pgx.Batch) {
		// empresa_id is the user's default company: its home company while
		// that is active, else another active company of its own, NULL when
		// none is (migration 0040); 0 then makes the reads below find nothing.
		b.Queue(`select id, empresa_id, password_hash, activo,
				set_config('app.empresa_id', coalesce(empresa_id, 0)::text, true), set_config('app.usuario_id', id::text, true)
			from auth_buscar_login($1)`, email)
		usuario = usuarios.QueueFind(b, usuarios.DeLaSesion)
		permisos = usuarios.QueuePermisos(b, usuarios.DeLaSesion)
	}
	read := func(br pgx.BatchResults) error {
		err := br.QueryRow().Scan(&id, &empresa, &hash, &activo, nil, nil)
		if err != nil && !errors.Is(err, pgx.ErrNoRows) {
			return fmt.Errorf("login: lookup: %w", err)
		}
		return nil
	}
	intento, err := s.Login.begin(ctx, s.DB.Pool, email, clientIP(r), lookup, read)
	if err != nil {
		return err
	}
	if !intento.admitido {
		return apperr.NewTooManyRequests("Demasiados intentos fallidos de inicio de sesión. Intente de nuevo más tarde.", intento.bloqueo)
	}
	// CheckPassword spends a bcrypt comparison even for unknown e-mails.
	if !auth.CheckPassword(hash, password) {
		return &httpx.Error{Kind: apperr.Unauthenticated, Message: msgCredenciales,
			Fields: map[string][]string{"email": {msgCredenciales}}}
	}
	if !activo {
		// The password was right: this was no failed guess.
		if err := intento.forget(ctx, s.DB.Pool); err != nil {
			return err
		}
		return apperr.NewForbidden("El usuario está inactivo. Contacte al administrador de su empresa.")
	}
	if empresa == nil {
		// Every company of the user is deleted or inactive: refused as an
		// inactive user is (403, failures forgotten, no token), since a
		// token could act nowhere.
		if err := intento.forget(ctx, s.DB.Pool); err != nil {
			return err
		}
		return apperr.NewForbidden(auth.MsgSinEmpresa)
	}
	u, found := usuario.Usuario()
	if !found {
		// No token, and the failure recorded in advance stays, as before
		// the reads moved ahead of the password check.
		return apperr.NewForbidden("El usuario no tiene acceso a su empresa.")
	}
	if nombre == "" {
		nombre = "api"
	}
	secret := auth.NewSecret()
	expira := time.Now().Add(s.TokenTTL).UTC().Truncate(time.Second)
	// The second and last round trip, which needs the password check:
	// forgetting the e-mail's failures (the one recorded in advance
	// included) and creating the token, in the pipeline's one transaction,
	// so that a failure to create the token keeps the failure recorded, as
	// a refused attempt would. Neither statement reads the tenant settings
	// (fallos_login is no tenant table; auth_crear_token is the owner's),
	// so no BEGIN, settings or COMMIT of their own.
	b := &pgx.Batch{}
	intento.queueForget(b)
	var tokenID int64
	b.Queue(`select auth_crear_token($1, $2, $3, $4)`, id, auth.HashSecret(secret), expira, nombre).QueryRow(func(r pgx.Row) error { return r.Scan(&tokenID) })
	if err := s.DB.Pool.SendBatch(ctx, b).Close(); err != nil {
		return fmt.Errorf("login: token: %w", err)
	}
	u.Permisos = *permisos
	data := LoginData{Usuario: u, Token: auth.FormatToken(tokenID, secret), TokenType: "Bearer", ExpiraEn: expira, Permisos: *permisos}
	return httpx.OK(w, "Inicio de sesión exitoso.", data)
}

func (s *Service) logout(w http.ResponseWriter, r *http.Request) error {
	p, _ := auth.FromContext(r.Context())
	if _, err := s.DB.Pool.Exec(r.Context(), `select auth_revocar_token($1, $2)`, p.TokenID, p.UsuarioID); err != nil {
		return fmt.Errorf("logout: %w", err)
	}
	return httpx.OKMessage(w, "Sesión cerrada correctamente.")
}

// Me is the authenticated user object: the user with the company it acts
// in, its position, its roles and permissions in that company.
type Me struct {
	usuarios.Usuario
	EmpresaActual *usuarios.EmpresaRef `json:"empresa_actual"`
}

func (s *Service) me(w http.ResponseWriter, r *http.Request) error {
	p, _ := auth.FromContext(r.Context())
	var out Me
	err := s.DB.WithTx(r.Context(), db.Scope{EmpresaID: p.EmpresaID, UsuarioID: p.UsuarioID}, func(tx *db.Tx) error {
		// The user, its relations and the acting company in one round
		// trip, which also carries BEGIN and COMMIT.
		b := &pgx.Batch{}
		usuario := usuarios.QueueFind(b, usuarios.PorID(p.UsuarioID))
		b.Queue(`select id, nombre, razon_social, nit_ruc, subdominio from empresas where id = $1`, p.EmpresaID).
			Query(func(rows pgx.Rows) error {
				for rows.Next() {
					var e usuarios.EmpresaRef
					if err := rows.Scan(&e.ID, &e.Nombre, &e.RazonSocial, &e.NitRuc, &e.Subdominio); err != nil {
						return fmt.Errorf("me: empresa: %w", err)
					}
					out.EmpresaActual = &e
				}
				return rows.Err()
			})
		tx.CommitWithFinalBatch()
		if err := tx.SendFinalBatch(r.Context(), b).Close(); err != nil {
			return err
		}
		u, found := usuario.Usuario()
		if !found {
			return apperr.NewUnauthenticated("El token de acceso no es válido, expiró o fue revocado.")
		}
		u.Permisos = p.Permisos
		if u.Permisos == nil {
			u.Permisos = []string{}
		}
		out.Usuario = u
		return nil
	})
	if err != nil {
		return err
	}
	httpx.WriteJSON(w, http.StatusOK, out)
	return nil
}

func (s *Service) register(w http.ResponseWriter, r *http.Request) error {
	return apperr.NewNotFound("El registro público no existe. Solicite una cuenta al administrador de su empresa.")
}

// Grupo is the "auth" function group (functions/auth/main.go): login with
// the failed-login limiter, me, logout.
func Grupo(d *plataforma.Deps) lambdahttp.Handlers {
	login := &Limiter{DB: d.DB, PorEmail: d.Cfg.LoginMaxAttempts, PorDireccion: d.Cfg.LoginMaxFailuresPerAddress, Ventana: d.Cfg.LoginWindow}
	return (&Service{DB: d.DB, TokenTTL: d.Cfg.TokenTTL, Login: login}).Handlers()
}
