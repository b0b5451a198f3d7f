package facturacion_test

import (
	"encoding/json"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/erpcr/erp/shared/facturacion"
	"github.com/erpcr/erp/shared/hacienda/simulador"
	"github.com/erpcr/erp/shared/metricas"
)

// The status poll of a comprobante still in "sent" 15 minutes after it was
// sent writes one CloudWatch EMF line (the metric infra/ alarms on); the
// polls before that write none.
func TestAPollOfAComprobanteSentOver15MinutesAgoEmitsTheStuckMetric(t *testing.T) {
	f := setup(t, opciones{sim: func(o *simulador.Opciones) { o.Demora = 24 * time.Hour }})
	f.configurar(f.Admin)
	emf := &bufferSeguro{}
	f.svc.EMF, f.svc.Funcion = emf, "erp-test-hacienda-worker"
	id := f.firmado()
	f.enviar(id)
	for i := 0; i < 3; i++ {
		f.clk.Avanzar(facturacion.IntervaloConsulta)
		f.drain()
	}
	if emf.String() != "" {
		t.Fatalf("polls within 15 minutes wrote %q", emf.String())
	}

	f.clk.Avanzar(facturacion.UmbralAtascado)
	f.drain()
	lineas := strings.Split(strings.TrimSpace(emf.String()), "\n")
	if len(lineas) != 1 {
		t.Fatalf("want one EMF line, got %q", emf.String())
	}
	var l struct {
		AWS struct {
			Timestamp         int64
			CloudWatchMetrics []struct {
				Namespace  string
				Dimensions [][]string
				Metrics    []struct{ Name, Unit string }
			}
		} `json:"_aws"`
		Funcion       string  `json:"Funcion"`
		Valor         float64 `json:"ComprobantesEnviadosAtascados"`
		ComprobanteID int64   `json:"comprobante_id"`
		Minutos       int     `json:"minutos"`
	}
	if err := json.Unmarshal([]byte(lineas[0]), &l); err != nil {
		t.Fatalf("EMF line %q: %v", lineas[0], err)
	}
	if len(l.AWS.CloudWatchMetrics) != 1 {
		t.Fatalf("EMF line %q", lineas[0])
	}
	m := l.AWS.CloudWatchMetrics[0]
	if m.Namespace != metricas.Namespace || !reflect.DeepEqual(m.Dimensions, [][]string{{"Funcion"}}) ||
		len(m.Metrics) != 1 || m.Metrics[0].Name != facturacion.MetricaAtascados || m.Metrics[0].Unit != "Count" {
		t.Errorf("metric declaration %+v", m)
	}
	if l.Funcion != "erp-test-hacienda-worker" || l.Valor != 1 || l.ComprobanteID != id || l.Minutos < 15 ||
		l.AWS.Timestamp != f.clk.Now().UnixMilli() {
		t.Errorf("EMF values %+v (now %v)", l, f.clk.Now())
	}
}
