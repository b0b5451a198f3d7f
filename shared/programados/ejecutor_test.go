package programados_test

import (
	"bytes"
	"context"
	"encoding/csv"
	"encoding/json"
	"net/http"
	"strings"
	"sync"
	"testing"

	"github.com/erpcr/erp/shared/testenv"
)

// asiento posts a manual entry of company 1 as the owner: debit one
// account, credit another.
func (f *fx) asiento(fecha, debe, haber string, monto int) {
	f.t.Helper()
	cuenta := func(codigo string) int64 {
		return testenv.Scalar[int64](f.t, f.e, `select contabilidad_cuenta(1, $1)`, codigo)
	}
	b, _ := json.Marshal([]map[string]any{{"cuenta_id": cuenta(debe), "debe": monto}, {"cuenta_id": cuenta(haber), "haber": monto}})
	f.e.Exec(`select contabilidad_registrar(1, $1::date, 'Aporte', 'manual', null, $2::jsonb)`, fecha, string(b))
}

// balanza is a trial balance of March 2026 run on Wednesdays at 08:00.
func balanza(kv ...any) map[string]any {
	return semanal(append([]any{"nombre", "Balanza semanal", "tipo", "balanza-comprobacion",
		"parametros", map[string]any{"fecha_inicio": "2026-03-01", "fecha_fin": "2026-03-31"}}, kv...)...)
}

// descargar gets a run's file through the gateway.
func (f *fx) descargar(tok string, run map[string]any) testenv.Resp {
	f.t.Helper()
	url := testenv.Str(run, "url_archivo")
	if url == "" {
		f.t.Fatalf("run without a file: %v", run)
	}
	return f.ok(http.StatusOK, f.e.Get(url, tok))
}

func TestAWeeklyReportRunsOnceAtItsHourAndMailsItsLink(t *testing.T) {
	f := setup(t, lunes)
	f.asiento("2026-03-05", "1.1.02.001", "3.1.01.001", 50000)
	id := f.crear(f.admin, balanza())

	f.barrerA("2026-03-04 07:59", 0, "a minute early")

	// Two schedulers sweep at the same instant, then one sweeps again and
	// another a minute later: one run.
	f.reloj.Fijar(cr("2026-03-04 08:00"))
	var wg sync.WaitGroup
	counts := make([]int, 2)
	for i := range counts {
		wg.Add(1)
		go func() {
			defer wg.Done()
			n, err := f.svc.Barrer(context.Background())
			if err != nil {
				t.Errorf("concurrent sweep: %v", err)
			}
			counts[i] = n
		}()
	}
	wg.Wait()
	if counts[0]+counts[1] != 1 {
		t.Fatalf("two sweeps at the hour ran %v", counts)
	}
	f.barrerA("2026-03-04 08:00", 0, "a third sweep at the same instant")
	// Schedulers that listed the schedule as due before it was claimed
	// (eight at once) claim nothing: the claim re-checks the row under its
	// lock. And a run is started once.
	var claims sync.WaitGroup
	for range 8 {
		claims.Add(1)
		go func() {
			defer claims.Done()
			eid, err := f.svc.Reclamar(context.Background(), 1, id, f.reloj.Now())
			if err != nil || eid != nil {
				t.Errorf("stale claim: run %v, error %v", eid, err)
			}
		}()
	}
	claims.Wait()
	first := int64(testenv.Num(f.ejecuciones(id)[0], "id"))
	if corrio, err := f.svc.Ejecutar(context.Background(), 1, first); corrio || err != nil {
		t.Fatalf("a finished run started again: %v %v", corrio, err)
	}
	f.barrerA("2026-03-04 08:01", 0, "a minute later")

	show := f.ok(http.StatusOK, f.e.Get(ruta(id), f.admin))
	if got := testenv.Str(show.JSON, "data.proxima_ejecucion"); got != "2026-03-11T14:00:00Z" {
		t.Errorf("proxima_ejecucion %s, want next Wednesday 08:00 in Costa Rica", got)
	}
	if got := testenv.Str(show.JSON, "data.ultima_ejecucion"); got != "2026-03-04T14:00:00Z" {
		t.Errorf("ultima_ejecucion %s", got)
	}
	runs := f.ejecuciones(id)
	if len(runs) != 1 {
		t.Fatalf("runs: %v", runs)
	}
	run := runs[0]
	eid := int64(testenv.Num(run, "id"))
	for k, want := range map[string]string{"estado": "completada", "programada_para": "2026-03-04T14:00:00Z", "content_type": "application/pdf",
		"archivo_nombre": "balanza_comprobacion_2026-03-01_2026-03-31.pdf", "creado_en": "2026-03-04T14:00:00Z",
		"terminado_en": "2026-03-04T14:00:00Z", "url_archivo": ruta(id, "/ejecuciones/", itoa(eid), "/archivo")} {
		if got := testenv.Str(run, k); got != want {
			t.Errorf("run %s = %q, want %q", k, got, want)
		}
	}
	if testenv.Get(run, "error") != nil || testenv.Num(run, "archivo_tamano") <= 0 {
		t.Errorf("run: %v", run)
	}

	// The file, through the gateway, opened by pdftotext.
	r := f.descargar(f.admin, run)
	if r.Header.Get("Content-Type") != "application/pdf" ||
		r.Header.Get("Content-Disposition") != `attachment; filename="balanza_comprobacion_2026-03-01_2026-03-31.pdf"` {
		t.Fatalf("headers: %v", r.Header)
	}
	if int(testenv.Num(run, "archivo_tamano")) != len(r.Raw) || !bytes.HasPrefix(r.Raw, []byte("%PDF-")) {
		t.Fatalf("not the stored PDF: %d bytes", len(r.Raw))
	}
	out := testenv.PDFTexto(t, r.Raw)
	for _, s := range []string{"Demo S.A.", "Balanza de comprobación", "50,000.00"} {
		if !strings.Contains(out, s) {
			t.Errorf("the PDF lacks %q:\n%s", s, out)
		}
	}

	// One e-mail, to both recipients, with the link.
	mails := f.correos()
	if len(mails) != 1 {
		t.Fatalf("mails: %d", len(mails))
	}
	link := "https://erp.example.cr" + ruta(id, "/ejecuciones/", itoa(eid), "/archivo")
	for _, s := range []string{"To: gerencia@demo.cr, contabilidad@demo.cr", "From: reportes@erp.test", link, "Balanza semanal"} {
		if !strings.Contains(mails[0], s) {
			t.Errorf("the mail lacks %q:\n%s", s, mails[0])
		}
	}

	// Next Wednesday it runs again.
	f.barrerA("2026-03-11 08:00", 1, "next week")
	if runs := f.ejecuciones(id); len(runs) != 2 || testenv.Str(runs[0], "programada_para") != "2026-03-11T14:00:00Z" {
		t.Fatalf("runs after a week: %v", runs)
	}
}

func TestAMonthlyReportOnThe31stRunsOnTheLastDayOfShorterMonths(t *testing.T) {
	f := setup(t, "2026-01-15 12:00")
	f.asiento("2026-03-05", "1.1.02.001", "3.1.01.001", 50000)
	id := f.crear(f.admin, balanza("frecuencia", "mensual", "dia_semana", testenv.Absent, "dia_mes", 31, "formato", "csv",
		"destinatarios", []string{}))
	proxima := func() string {
		return testenv.Str(f.ok(http.StatusOK, f.e.Get(ruta(id), f.admin)).JSON, "data.proxima_ejecucion")
	}
	if got := proxima(); got != "2026-01-31T14:00:00Z" {
		t.Fatalf("first run %s", got)
	}
	for _, c := range []struct{ ahora, siguiente string }{
		{"2026-01-31 08:00", "2026-02-28T14:00:00Z"},
		{"2026-02-28 08:00", "2026-03-31T14:00:00Z"},
		{"2026-03-31 08:00", "2026-04-30T14:00:00Z"},
	} {
		f.barrerA(c.ahora, 1, "month end")
		if got := proxima(); got != c.siguiente {
			t.Fatalf("after %s: proxima_ejecucion %s, want %s", c.ahora, got, c.siguiente)
		}
	}
	// No recipients: no mail. The CSV opens with encoding/csv.
	if m := f.correos(); len(m) != 0 {
		t.Fatalf("mails without recipients: %d", len(m))
	}
	runs := f.ejecuciones(id)
	if len(runs) != 3 {
		t.Fatalf("runs: %d", len(runs))
	}
	r := f.descargar(f.admin, runs[0])
	if !strings.HasPrefix(r.Header.Get("Content-Type"), "text/csv") {
		t.Fatalf("content type %q", r.Header.Get("Content-Type"))
	}
	rd := csv.NewReader(bytes.NewReader(r.Raw))
	rd.FieldsPerRecord = -1
	rows, err := rd.ReadAll()
	if err != nil {
		t.Fatalf("csv: %v", err)
	}
	if !strings.Contains(string(r.Raw), "50000.00") || len(rows) < 3 {
		t.Fatalf("csv rows: %v", rows)
	}
}

func TestAFailingRunIsRecordedAndTheOthersStillRun(t *testing.T) {
	f := setup(t, lunes)
	diaria := func(kv ...any) map[string]any {
		return testenv.With(balanza(kv...), "frecuencia", "diaria", "dia_semana", testenv.Absent)
	}
	// A branch that does not exist: the report refuses it when it runs. The
	// API refuses it when the schedule is written, so it is put in the row
	// directly, standing for a parameter that stopped being valid later.
	sinSucursal := f.crear(f.admin, diaria("nombre", "Sin sucursal"))
	f.e.Exec(`update reportes_programados set parametros = parametros || '{"sucursal_id": "999999"}' where id = $1`, sinSucursal)
	// A creator who loses the report's permission after scheduling it.
	vendedor := f.e.UserWith(t, f.admin, "vendedor", "ventas.leer")
	sinPermiso := f.crear(vendedor, map[string]any{"nombre": "Cobros", "tipo": "antiguedad-cuentas-por-cobrar", "frecuencia": "diaria",
		"hora": "08:00", "formato": "pdf", "destinatarios": []string{"vendedor@demo.cr"}})
	f.e.Exec(`delete from rol_permisos where empresa_id = 1 and rol_id = (select id from roles where empresa_id = 1 and nombre = 'Rol vendedor')`)
	// And one that works (Excel).
	bueno := f.crear(f.admin, diaria("formato", "excel", "destinatarios", []string{"gerencia@demo.cr"}))

	f.barrerA("2026-03-03 08:00", 3, "runs")
	for _, c := range []struct {
		id     int64
		estado string
		error  string
	}{
		{sinSucursal, "fallida", "La sucursal no existe en la empresa."},
		{sinPermiso, "fallida", "ya no tiene permiso para el reporte antiguedad-cuentas-por-cobrar"},
		{bueno, "completada", ""},
	} {
		runs := f.ejecuciones(c.id)
		if len(runs) != 1 || testenv.Str(runs[0], "estado") != c.estado || !strings.Contains(testenv.Str(runs[0], "error"), c.error) {
			t.Errorf("schedule %d: %v", c.id, runs)
			continue
		}
		if c.estado == "fallida" && testenv.Get(runs[0], "url_archivo") != nil {
			t.Errorf("a failed run has a file: %v", runs[0])
		}
		// A failed run does not stop the schedule: tomorrow it runs again.
		if got := testenv.Str(f.ok(http.StatusOK, f.e.Get(ruta(c.id), f.admin)).JSON, "data.proxima_ejecucion"); got != "2026-03-04T14:00:00Z" {
			t.Errorf("schedule %d: proxima_ejecucion %s", c.id, got)
		}
	}
	if m := f.correos(); len(m) != 1 || !strings.Contains(m[0], "To: gerencia@demo.cr") {
		t.Fatalf("mails: %v", m)
	}
	r := f.descargar(f.admin, f.ejecuciones(bueno)[0])
	if _, rows := testenv.XLSX(t, r.Raw, ""); len(rows) == 0 || rows[0][0] != "Demo S.A." {
		t.Fatalf("excel rows: %v", rows)
	}
}

// The scheduler function's sweep (and make run's ticker) runs the due
// schedules after Hacienda's and the webhooks' sweeps, and counts them.
func TestTheSchedulersSweepRunsTheDueScheduledReports(t *testing.T) {
	f := setup(t, lunes)
	id := f.crear(f.admin, balanza("formato", "json", "destinatarios", []string{}))
	f.reloj.Fijar(cr("2026-03-04 08:00"))
	res, err := f.e.Deps.Barrer(context.Background())
	if err != nil || res.ReportesProgramados != 1 {
		t.Fatalf("sweep: %+v %v", res, err)
	}
	runs := f.ejecuciones(id)
	if len(runs) != 1 || testenv.Str(runs[0], "content_type") != "application/json" {
		t.Fatalf("runs: %v", runs)
	}
	r := f.descargar(f.admin, runs[0])
	var rep map[string]any
	if err := json.Unmarshal(r.Raw, &rep); err != nil || rep["tipo"] != "balanza-comprobacion" {
		t.Fatalf("json file: %v %s", err, r.Raw)
	}
}

// A monthly report of "the previous month": its dates are resolved on the
// day of each run.
func TestRelativeDatesCoverThePreviousMonthOfEachRun(t *testing.T) {
	f := setup(t, "2026-03-15 12:00")
	f.asiento("2026-03-05", "1.1.02.001", "3.1.01.001", 50000)
	id := f.crear(f.admin, balanza("frecuencia", "mensual", "dia_semana", testenv.Absent, "dia_mes", 1, "formato", "csv",
		"destinatarios", []string{}, "parametros", map[string]any{"fecha_inicio": "inicio_mes_anterior", "fecha_fin": "fin_mes_anterior"}))
	r := f.ok(http.StatusOK, f.e.Get(ruta(id), f.admin))
	if testenv.Str(r.JSON, "data.parametros.fecha_inicio") != "inicio_mes_anterior" {
		t.Fatalf("stored parameters: %s", r.Raw)
	}
	f.barrerA("2026-04-01 08:00", 1, "runs")
	run := f.ejecuciones(id)[0]
	if got := testenv.Str(run, "archivo_nombre"); got != "balanza_comprobacion_2026-03-01_2026-03-31.csv" {
		t.Fatalf("file %s (%v)", got, run)
	}
	if b := f.descargar(f.admin, run); !strings.Contains(string(b.Raw), "50000.00") {
		t.Fatalf("csv: %s", b.Raw)
	}
	// A word that is not a relative date gets the report's own message.
	testenv.Expect422(t, f.call(f.admin, "PATCH", ruta(id), map[string]any{"parametros": map[string]any{
		"fecha_inicio": "mañana", "fecha_fin": "fin_mes_anterior"}}), "parametros.fecha_inicio")
}

// A run claimed by a scheduler that died before starting it stays
// pendiente; a sweep 5 minutes later takes it (once), and a run of a
// schedule deleted meanwhile is recorded as failed.
func TestARunLeftPendingIsTakenAgainBySweepsAfterFiveMinutes(t *testing.T) {
	f := setup(t, lunes)
	vivo := f.crear(f.admin, balanza("destinatarios", []string{}, "activo", false))
	borrado := f.crear(f.admin, balanza("nombre", "Borrado", "destinatarios", []string{}, "activo", false))
	for _, id := range []int64{vivo, borrado} {
		f.e.Exec(`insert into reporte_ejecuciones (empresa_id, reporte_programado_id, programada_para, creado_en)
			values (1, $1, $2, $2)`, id, cr("2026-03-02 12:00"))
	}
	f.ok(http.StatusOK, f.call(f.admin, "DELETE", ruta(borrado), nil))
	f.barrerA("2026-03-02 12:04", 0, "taken before 5 minutes")
	f.barrerA("2026-03-02 12:06", 2, "orphans taken")
	f.barrerA("2026-03-02 12:06", 0, "taken twice")
	if runs := f.ejecuciones(vivo); len(runs) != 1 || testenv.Str(runs[0], "estado") != "completada" {
		t.Fatalf("orphan run: %v", runs)
	}
	if e := testenv.Scalar[string](t, f.e, `select estado || ': ' || error from reporte_ejecuciones where reporte_programado_id = $1`, borrado); e != "fallida: El reporte programado fue eliminado antes de ejecutarse." {
		t.Fatalf("run of a deleted schedule: %s", e)
	}
	// A run left ejecutando (its process timed out) is recorded as
	// interrupted 5 minutes after it started, not run again.
	f.e.Exec(`insert into reporte_ejecuciones (empresa_id, reporte_programado_id, programada_para, estado, creado_en, iniciado_en)
		values (1, $1, $2, 'ejecutando', $2, $2)`, vivo, cr("2026-03-02 12:05"))
	f.barrerA("2026-03-02 12:09", 0, "interrupted before 5 minutes")
	f.barrerA("2026-03-02 12:11", 1, "interrupted runs")
	if runs := f.ejecuciones(vivo); len(runs) != 2 || testenv.Str(runs[0], "estado") != "fallida" ||
		!strings.Contains(testenv.Str(runs[0], "error"), "se interrumpió") || testenv.Str(runs[0], "terminado_en") != "2026-03-02T18:11:00Z" {
		t.Fatalf("interrupted run: %v", runs)
	}
	f.barrerA("2026-03-02 12:11", 0, "interrupted twice")
}
