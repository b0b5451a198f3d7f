package metricas_test

import (
	"bytes"
	"context"
	"encoding/json"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/erpcr/erp/shared/db"
	"github.com/erpcr/erp/shared/httpx"
	"github.com/erpcr/erp/shared/metricas"
	"github.com/erpcr/erp/shared/testenv"
)

// One EMF line per request, in the shape CloudWatch extracts metrics from:
// _aws.Timestamp (ms), one directive with the namespace, the dimension set
// and the metric definitions, and every named dimension and metric as a
// top-level member of the line.
func TestEachRequestWritesOneEmbeddedMetricFormatLine(t *testing.T) {
	var buf bytes.Buffer
	r := metricas.Nuevo(nil, nil, 0)
	r.EMF, r.Funcion = &buf, "erp-ventas"
	cases := []struct {
		status                  int
		errores, erroresCliente float64
	}{{201, 0, 0}, {404, 0, 1}, {503, 1, 0}}
	for _, c := range cases {
		r.Record(context.Background(), httpx.Observation{Method: "POST", Route: "/api/ventas", EmpresaID: 7, Status: c.status,
			Duration: 12500 * time.Microsecond, TraceID: "abc"})
	}
	lines := strings.Split(strings.TrimSuffix(buf.String(), "\n"), "\n")
	if len(lines) != len(cases) {
		t.Fatalf("%d lines for %d requests:\n%s", len(lines), len(cases), buf.String())
	}
	for i, line := range lines {
		var m map[string]any
		if err := json.Unmarshal([]byte(line), &m); err != nil {
			t.Fatalf("line %d is not one JSON object: %v", i, err)
		}
		aws, _ := m["_aws"].(map[string]any)
		if ts, ok := aws["Timestamp"].(float64); !ok || ts < 1e12 {
			t.Errorf("Timestamp (ms) %v", aws["Timestamp"])
		}
		dirs, _ := aws["CloudWatchMetrics"].([]any)
		if len(dirs) != 1 {
			t.Fatalf("directives: %v", aws)
		}
		d := dirs[0].(map[string]any)
		if d["Namespace"] != metricas.Namespace {
			t.Errorf("Namespace %v", d["Namespace"])
		}
		dims, _ := d["Dimensions"].([]any)
		if len(dims) != 1 {
			t.Fatalf("dimension sets %v", dims)
		}
		for _, dim := range dims[0].([]any) {
			if _, ok := m[dim.(string)].(string); !ok {
				t.Errorf("dimension %v is not a top-level string: %s", dim, line)
			}
		}
		units := map[string]string{}
		for _, x := range d["Metrics"].([]any) {
			def := x.(map[string]any)
			units[def["Name"].(string)] = def["Unit"].(string)
			if _, ok := m[def["Name"].(string)].(float64); !ok {
				t.Errorf("metric %v has no numeric top-level value: %s", def["Name"], line)
			}
		}
		want := map[string]string{"Solicitudes": "Count", "Errores": "Count", "ErroresCliente": "Count", "Latencia": "Milliseconds"}
		for k, v := range want {
			if units[k] != v {
				t.Errorf("metric %s unit %q, want %q", k, units[k], v)
			}
		}
		if m["Funcion"] != "erp-ventas" || m["Ruta"] != "POST /api/ventas" || m["Latencia"] != 12.5 ||
			m["Estado"] != float64(cases[i].status) || m["Errores"] != cases[i].errores || m["ErroresCliente"] != cases[i].erroresCliente ||
			m["trace_id"] != "abc" || m["empresa_id"] != float64(7) {
			t.Errorf("line %d: %s", i, line)
		}
	}
}

func TestAggregatesAreFlushedAtTheEndOfARequestOncePerInterval(t *testing.T) {
	e := testenv.NewParallel(t)
	now := time.Now().UTC().Truncate(metricas.Ventana) // recent: windows older than an hour are dropped
	r := metricas.Nuevo(e.Deps.DB, nil, 10*time.Second)
	r.Now = func() time.Time { return now }
	obs := func(status int, d time.Duration) httpx.Observation {
		return httpx.Observation{Method: "GET", Route: "/api/ventas/{id}", EmpresaID: 1, Status: status, Duration: d}
	}
	count := func() int64 {
		return testenv.Scalar[int64](t, e, `select coalesce(sum(solicitudes), 0)::bigint from metricas_http where empresa_id = 1`)
	}
	r.Record(context.Background(), obs(http.StatusOK, 3*time.Millisecond))
	now = now.Add(9 * time.Second)
	r.Record(context.Background(), obs(http.StatusOK, 300*time.Millisecond))
	if n := count(); n != 0 {
		t.Fatalf("flushed before the interval: %d", n)
	}
	now = now.Add(time.Second)
	r.Record(context.Background(), obs(http.StatusNotFound, 20*time.Second))
	if n := count(); n != 3 {
		t.Fatalf("after the interval: %d rows counted, want 3", n)
	}
	if r.Pendientes() != 0 {
		t.Errorf("%d series still pending", r.Pendientes())
	}
	// Histogram buckets: 3 ms in the 5 ms bucket, 300 ms in 0.5 s, 20 s in +Inf.
	got := testenv.Scalar[string](t, e, `select cubetas::text from metricas_http where empresa_id = 1 and estado = 200`)
	if got != "{1,0,0,0,0,0,1,0,0,0,0,0}" {
		t.Errorf("buckets of 200: %s", got)
	}
	if got := testenv.Scalar[string](t, e, `select cubetas::text from metricas_http where empresa_id = 1 and estado = 404`); got != "{0,0,0,0,0,0,0,0,0,0,0,1}" {
		t.Errorf("buckets of 404: %s", got)
	}
	// Windows: two ten-second windows for company 1.
	if got := testenv.Scalar[string](t, e, `select string_agg(solicitudes || '/' || errores_cliente, ',' order by ventana)
		from metricas_recientes where empresa_id = 1`); got != "2/0,1/1" {
		t.Errorf("windows: %s", got)
	}
	// A second flush adds to the same rows: counters only grow.
	now = now.Add(10 * time.Second)
	r.Record(context.Background(), obs(http.StatusOK, time.Millisecond))
	if got := testenv.Scalar[string](t, e, `select solicitudes || ' ' || cubetas::text from metricas_http where empresa_id = 1 and estado = 200`); got != "3 {2,0,0,0,0,0,1,0,0,0,0,0}" {
		t.Errorf("after the second flush: %s", got)
	}
}

func TestAggregatesSurviveAFailedFlush(t *testing.T) {
	e := testenv.NewParallel(t)
	down, err := db.Open(context.Background(), db.Options{URL: "postgres://erp_app:x@127.0.0.1:1/nada?connect_timeout=1"})
	if err != nil {
		t.Fatal(err)
	}
	defer down.Close()
	r := metricas.Nuevo(down, nil, 0)
	for _, empresa := range []int64{0, 1, 1} {
		r.Record(context.Background(), httpx.Observation{Method: "GET", Route: "/api/ventas", EmpresaID: empresa, Status: 200, Duration: time.Millisecond})
	}
	if err := r.Vaciar(context.Background()); err == nil {
		t.Fatal("a flush to a stopped server succeeded")
	}
	r.Record(context.Background(), httpx.Observation{Method: "GET", Route: "/api/ventas", EmpresaID: 1, Status: 200, Duration: time.Millisecond})
	if r.Pendientes() != 2 {
		t.Fatalf("%d series pending, want 2 (company 1 and no company)", r.Pendientes())
	}
	r.DB = e.Deps.DB
	if err := r.Vaciar(context.Background()); err != nil {
		t.Fatal(err)
	}
	if got := testenv.Scalar[string](t, e, `select string_agg(coalesce(empresa_id::text, 'null') || ':' || solicitudes, ',' order by empresa_id nulls first)
		from metricas_http`); got != "null:1,1:3" {
		t.Errorf("rows: %s", got)
	}
}
