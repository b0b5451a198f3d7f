package programados_test

import (
	"encoding/json"
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/erpcr/erp/shared/horacr"
	"github.com/erpcr/erp/shared/programados"
	"github.com/erpcr/erp/shared/testenv"
	"github.com/erpcr/erp/shared/testenv/reloj"
)

func TestMain(m *testing.M) { os.Exit(testenv.Main(m)) }

const base = "/api/reportes-programados"

// fx is one test's stack with company 1's administrator and the
// scheduled-reports service on a fake clock, a temporary store and a
// temporary mail folder.
type fx struct {
	t      *testing.T
	e      *testenv.Env
	admin  string
	svc    *programados.Servicio
	reloj  *reloj.Reloj
	correo string
}

// cr is a wall-clock time of Costa Rica.
func cr(s string) time.Time {
	t, err := time.ParseInLocation("2006-01-02 15:04", s, horacr.Zona)
	if err != nil {
		panic(err)
	}
	return t
}

// setup starts the stack with the clock at a Costa Rica time.
func setup(t *testing.T, ahora string) *fx {
	t.Helper()
	e := testenv.NewParallel(t)
	f := &fx{t: t, e: e, admin: e.Admin(1), svc: e.Deps.Programados(), reloj: reloj.En(cr(ahora)), correo: t.TempDir()}
	f.svc.Ahora = f.reloj.Now
	f.svc.Almacen = programados.AlmacenLocal{Dir: t.TempDir()}
	f.svc.Correo = &programados.CorreoLocal{Dir: f.correo, Remitente: "reportes@erp.test"}
	f.svc.URLBase = "https://erp.example.cr"
	return f
}

func (f *fx) call(tok, method, path string, body any) testenv.Resp {
	f.t.Helper()
	return f.e.Call(tok, method, path, body)
}

// ok asserts a status and returns the response.
func (f *fx) ok(status int, r testenv.Resp) testenv.Resp {
	f.t.Helper()
	if r.Status != status {
		f.t.Fatalf("want %d, got %d %s", status, r.Status, r.Raw)
	}
	return r
}

// semanal is a weekly sales report body (Wednesdays 08:00).
func semanal(kv ...any) map[string]any {
	return testenv.With(map[string]any{"nombre": "Ventas semanales", "tipo": "ventas",
		"parametros": map[string]any{"fecha_inicio": "2026-03-01", "fecha_fin": "2026-03-31", "agrupar": "cliente"},
		"frecuencia": "semanal", "dia_semana": 3, "hora": "08:00", "formato": "pdf",
		"destinatarios": []string{"gerencia@demo.cr", "Contabilidad@Demo.cr"}}, kv...)
}

// crear creates a schedule as admin and returns its id.
func (f *fx) crear(tok string, body map[string]any) int64 {
	f.t.Helper()
	return int64(f.e.Create(f.t, tok, base, body))
}

func ruta(id int64, rest ...string) string {
	return fmt.Sprintf("%s/%d%s", base, id, strings.Join(rest, ""))
}

// barrerA sets the clock to a Costa Rica time and expects one sweep there
// to take n runs.
func (f *fx) barrerA(hora string, n int, que string) {
	f.t.Helper()
	f.reloj.Fijar(cr(hora))
	testenv.Barre(f.t, f.svc.Barrer, n, que+" (sweep at "+hora+")")
}

// ejecuciones lists a schedule's runs (newest first) as the admin sees them.
func (f *fx) ejecuciones(id int64) []map[string]any {
	f.t.Helper()
	r := f.ok(http.StatusOK, f.e.Get(ruta(id, "/ejecuciones"), f.admin))
	var out struct {
		Data []map[string]any `json:"data"`
	}
	if err := json.Unmarshal(r.Raw, &out); err != nil {
		f.t.Fatal(err)
	}
	return out.Data
}

// correos are the mail files written so far.
func (f *fx) correos() []string {
	f.t.Helper()
	files, _ := filepath.Glob(filepath.Join(f.correo, "*.eml"))
	var out []string
	for _, p := range files {
		b, err := os.ReadFile(p)
		if err != nil {
			f.t.Fatal(err)
		}
		out = append(out, string(b))
	}
	return out
}

func utc(t time.Time) string { return t.UTC().Format(time.RFC3339) }

func itoa(n int64) string { return fmt.Sprint(n) }
