// Package testenv gives end-to-end tests a real stack: an isolated,
// migrated and seeded PostgreSQL database (cloned from a per-process
// template), the dependencies connected as the application role, and the
// local API Gateway served over HTTP, so tests call the API exactly as a
// client would.
package testenv

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"

	"github.com/erpcr/erp/shared/app"
	"github.com/erpcr/erp/shared/config"
	"github.com/erpcr/erp/shared/db"
	"github.com/erpcr/erp/shared/db/pgtest"
)

// Demo credentials seeded in every test database.
const (
	DemoPassword  = "Demo1234!"
	Admin1        = "admin@demo.cr"
	Admin2        = "admin@demo2.cr"
	AppDBPassword = "erp_app_test"
)

// Main is the TestMain of packages with end-to-end tests.
func Main(m *testing.M) int {
	pgtest.SetPrepare(func(ctx context.Context, adminURL string) error {
		_, err := app.Prepare(ctx, adminURL, app.PrepareOptions{
			Env: config.EnvTest, AppDBPassword: AppDBPassword, Demo: true, DemoPassword: DemoPassword, BcryptCost: 4,
		})
		return err
	})
	return pgtest.Main(m)
}

// Env is one test's stack.
type Env struct {
	T        testing.TB
	AdminURL string
	AppURL   string
	Cfg      config.Config
	Deps     *app.Deps
	Server   *httptest.Server
	// Queries counts the application's database round trips (a statement
	// sent alone, or a pipelined batch).
	Queries atomic.Int64
	// Statements counts the statements inside them.
	Statements atomic.Int64
}

// Option adjusts the configuration before the stack starts.
type Option func(*config.Config)

// Limite limits one rate-limit class, the only one the stack then limits,
// to max requests a ventana (max 0 turns the class off).
func Limite(clase string, max int, ventana time.Duration) Option {
	return func(c *config.Config) { c.Limites = map[string]config.Limite{clase: {Max: max, Ventana: ventana}} }
}

// New starts a stack for t on a fresh database.
func New(t testing.TB, opts ...Option) *Env {
	t.Helper()
	adminURL := pgtest.NewDB(t)
	appURL, err := db.AppURL(adminURL, AppDBPassword)
	if err != nil {
		t.Fatal(err)
	}
	cfg := config.Config{
		Env: config.EnvTest, DatabaseURL: appURL, DatabaseAdminURL: adminURL, DBMaxConns: 4,
		TokenTTL: time.Hour, BcryptCost: 4, LoginMaxAttempts: 5, LoginMaxFailuresPerAddress: 50, LoginWindow: 15 * time.Minute,
		DemoPassword: DemoPassword, LogLevel: "error",
	}
	for _, o := range opts {
		o(&cfg)
	}
	e := &Env{T: t, AdminURL: adminURL, AppURL: appURL, Cfg: cfg}
	deps, err := app.Open(context.Background(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	// Reopen the pool with a tracer so tests can count round trips.
	deps.DB.Close()
	deps.DB, err = db.Open(context.Background(), db.Options{URL: appURL, MaxConns: cfg.DBMaxConns, Tracer: counter{&e.Queries, &e.Statements}})
	if err != nil {
		t.Fatal(err)
	}
	e.Deps = deps
	gw, err := deps.Gateway()
	if err != nil {
		t.Fatal(err)
	}
	e.Server = httptest.NewServer(gw)
	t.Cleanup(func() {
		e.Server.Close()
		deps.Close()
	})
	return e
}

// NewParallel marks t parallel and starts its stack: every end-to-end test
// has its own database, so all of them can run at once, and tests start
// with this one line instead of repeating the pair.
func NewParallel(t *testing.T, opts ...Option) *Env {
	t.Helper()
	t.Parallel()
	return New(t, opts...)
}

// NewAdmin is NewParallel and company 1's administrator's token, the two
// things most end-to-end tests begin with.
func NewAdmin(t *testing.T, opts ...Option) (*Env, string) {
	t.Helper()
	e := NewParallel(t, opts...)
	return e, e.Admin(1)
}

type counter struct{ n, stmts *atomic.Int64 }

func (c counter) TraceQueryStart(ctx context.Context, _ *pgx.Conn, _ pgx.TraceQueryStartData) context.Context {
	c.n.Add(1)
	c.stmts.Add(1)
	return ctx
}
func (c counter) TraceQueryEnd(context.Context, *pgx.Conn, pgx.TraceQueryEndData) {}

// TraceBatchStart counts a pipelined batch as one round trip.
func (c counter) TraceBatchStart(ctx context.Context, _ *pgx.Conn, _ pgx.TraceBatchStartData) context.Context {
	c.n.Add(1)
	return ctx
}
func (c counter) TraceBatchQuery(context.Context, *pgx.Conn, pgx.TraceBatchQueryData) {
	c.stmts.Add(1)
}
func (c counter) TraceBatchEnd(context.Context, *pgx.Conn, pgx.TraceBatchEndData) {}

// Req is one API call.
type Req struct {
	Method  string
	Path    string
	Body    any // marshalled as JSON unless it is a string or []byte
	Token   string
	Headers map[string]string
}

// Resp is the answer.
type Resp struct {
	Status int
	Header http.Header
	Raw    []byte
	JSON   map[string]any
}

// Do performs a request against the local gateway.
func (e *Env) Do(r Req) Resp {
	e.T.Helper()
	var body io.Reader
	switch b := r.Body.(type) {
	case nil:
	case string:
		body = strings.NewReader(b)
	case []byte:
		body = bytes.NewReader(b)
	default:
		raw, err := json.Marshal(b)
		if err != nil {
			e.T.Fatal(err)
		}
		body = bytes.NewReader(raw)
	}
	req, err := http.NewRequest(r.Method, e.Server.URL+r.Path, body)
	if err != nil {
		e.T.Fatal(err)
	}
	req.Header.Set("Accept", "application/json")
	if body != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	if r.Token != "" {
		req.Header.Set("Authorization", "Bearer "+r.Token)
	}
	for k, v := range r.Headers {
		if v == "" {
			req.Header.Del(k)
		} else {
			req.Header.Set(k, v)
		}
	}
	if host, ok := r.Headers["Host"]; ok {
		req.Host = host
	}
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		e.T.Fatal(err)
	}
	defer res.Body.Close()
	raw, _ := io.ReadAll(res.Body)
	out := Resp{Status: res.StatusCode, Header: res.Header, Raw: raw}
	if len(raw) > 0 {
		_ = json.Unmarshal(raw, &out.JSON)
	}
	return out
}

// Get is a GET with a token.
func (e *Env) Get(path, token string) Resp {
	e.T.Helper()
	return e.Do(Req{Method: http.MethodGet, Path: path, Token: token})
}

// Login returns a fresh token for the user, failing the test otherwise.
func (e *Env) Login(email, password string) string {
	e.T.Helper()
	r := e.Do(Req{Method: http.MethodPost, Path: "/api/login", Body: map[string]string{"email": email, "password": password}})
	if r.Status != http.StatusOK {
		e.T.Fatalf("login %s: %d %s", email, r.Status, r.Raw)
	}
	return Str(r.JSON, "data.token")
}

// Admin returns a token of a demo company's administrator (1 or 2).
func (e *Env) Admin(company int) string {
	e.T.Helper()
	if company == 2 {
		return e.Login(Admin2, DemoPassword)
	}
	return e.Login(Admin1, DemoPassword)
}

// PlatformAdmin marks a demo company's administrator (1 or 2) as a platform
// administrator, the flag `make plataforma` sets, and returns its token.
func (e *Env) PlatformAdmin(company int) string {
	e.T.Helper()
	email := Admin1
	if company == 2 {
		email = Admin2
	}
	e.Exec(`update usuarios set administrador_plataforma = true where email = $1`, email)
	return e.Admin(company)
}

// Exec runs SQL with the owner connection (test set-up only).
func (e *Env) Exec(sql string, args ...any) pgconn.CommandTag {
	e.T.Helper()
	conn, err := pgx.Connect(context.Background(), e.AdminURL)
	if err != nil {
		e.T.Fatal(err)
	}
	defer conn.Close(context.Background())
	tag, err := conn.Exec(context.Background(), sql, args...)
	if err != nil {
		e.T.Fatalf("exec %q: %v", sql, err)
	}
	return tag
}

// Get walks a decoded JSON value by a dotted path ("data.usuario.roles.0.slug").
func Get(v any, path string) any {
	for _, part := range strings.Split(path, ".") {
		switch x := v.(type) {
		case map[string]any:
			v = x[part]
		case []any:
			i := 0
			for _, c := range part {
				if c < '0' || c > '9' {
					return nil
				}
				i = i*10 + int(c-'0')
			}
			if i >= len(x) {
				return nil
			}
			v = x[i]
		default:
			return nil
		}
	}
	return v
}

// Str is Get as a string ("" when absent).
func Str(v any, path string) string {
	s, _ := Get(v, path).(string)
	return s
}

// Num is Get as a number (-1 when absent).
func Num(v any, path string) float64 {
	f, ok := Get(v, path).(float64)
	if !ok {
		return -1
	}
	return f
}

// Len is the length of the array at path (-1 when not an array).
func Len(v any, path string) int {
	a, ok := Get(v, path).([]any)
	if !ok {
		return -1
	}
	return len(a)
}

// FieldErrors returns the validation messages of one field; keys may contain
// dots ("detalles.0.producto_id").
func (r Resp) FieldErrors(field string) []string {
	errs, _ := r.JSON["errors"].(map[string]any)
	list, _ := errs[field].([]any)
	out := make([]string, 0, len(list))
	for _, v := range list {
		if s, ok := v.(string); ok {
			out = append(out, s)
		}
	}
	return out
}
