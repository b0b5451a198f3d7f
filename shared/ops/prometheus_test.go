package ops

import (
	"bytes"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// Helpers exported to the package's end-to-end tests (ops_test).

type Familia struct {
	Name    string    `json:"name"`
	Type    string    `json:"type"`
	Samples []Muestra `json:"samples"`
}

type Muestra struct {
	Name   string            `json:"name"`
	Labels map[string]string `json:"labels"`
	Value  float64           `json:"value"`
}

// ParsePrometheus validates an exposition with the reference parser
// (prometheus_client, installed by .ci/run) and, when it is on PATH, with
// promtool check metrics. Without python3 and prometheus_client the test is
// skipped locally with the reason, never in CI (CI=true).
func ParsePrometheus(t *testing.T, text []byte) map[string]Familia {
	t.Helper()
	missing := func(why string) {
		if os.Getenv("CI") != "" {
			t.Fatalf("Prometheus parser unavailable in CI: %s", why)
		}
		t.Skipf("skipping the Prometheus format check: %s (pip install prometheus_client)", why)
	}
	py, err := exec.LookPath("python3")
	if err != nil {
		missing("python3 not found")
	}
	if err := exec.Command(py, "-c", "import prometheus_client").Run(); err != nil {
		missing("python module prometheus_client not installed")
	}
	cmd := exec.Command(py, filepath.Join("testdata", "parse_metrics.py"))
	cmd.Stdin = bytes.NewReader(text)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("prometheus_client refuses the exposition: %v\n%s\n--- exposition ---\n%s", err, stderr.String(), text)
	}
	var fams []Familia
	if err := json.Unmarshal(out, &fams); err != nil {
		t.Fatal(err)
	}
	if promtool, err := exec.LookPath("promtool"); err == nil {
		c := exec.Command(promtool, "check", "metrics")
		c.Stdin = bytes.NewReader(text)
		if out, err := c.CombinedOutput(); err != nil {
			t.Fatalf("promtool check metrics: %v\n%s", err, out)
		}
	}
	m := map[string]Familia{}
	for _, f := range fams {
		m[f.Name] = f
	}
	return m
}

// Valor finds the sample of a family with exactly these labels (-1: none).
func Valor(f Familia, name string, labels map[string]string) float64 {
	for _, s := range f.Samples {
		if s.Name != name || len(s.Labels) != len(labels) {
			continue
		}
		ok := true
		for k, v := range labels {
			if s.Labels[k] != v {
				ok = false
			}
		}
		if ok {
			return s.Value
		}
	}
	return -1
}

func TestExpositionEscapesLabelValuesAndHelpText(t *testing.T) {
	var e expositor
	raros := []string{`comillas "dobles"`, `barra \ invertida`, "salto\nde línea", "{id} y espacios", "ñandú ✓"}
	e.familia("erp_prueba_total", "counter", "Ayuda con \\ barra y\nsalto.")
	for i, v := range raros {
		e.muestra("erp_prueba_total", float64(i+1), etiqueta{"route", v})
	}
	e.gauges("erp_prueba_estado", "Por estado.", "estado", []string{"a", "b"}, map[string]float64{"a": 0.25})
	fams := ParsePrometheus(t, []byte(e.b.String()))
	for i, v := range raros {
		if got := Valor(fams["erp_prueba"], "erp_prueba_total", map[string]string{"route": v}); got != float64(i+1) {
			t.Errorf("label %q: %v, want %d\n%s", v, got, i+1, e.b.String())
		}
	}
	if got := Valor(fams["erp_prueba_estado"], "erp_prueba_estado", map[string]string{"estado": "b"}); got != 0 {
		t.Errorf("missing value must read 0, got %v", got)
	}
	if got := Valor(fams["erp_prueba_estado"], "erp_prueba_estado", map[string]string{"estado": "a"}); got != 0.25 {
		t.Errorf("got %v", got)
	}
	if !strings.Contains(e.b.String(), "# TYPE erp_prueba_total counter\n") {
		t.Errorf("TYPE line: %s", e.b.String())
	}
}
