package facturacion

import (
	"encoding/json"
	"time"

	"github.com/erpcr/erp/shared/metricas"
)

// MetricaAtascados is the CloudWatch metric (namespace metricas.Namespace,
// dimension Funcion) the status poll emits for a comprobante still in
// "sent" UmbralAtascado after it was sent: Hacienda has not decided, or
// the polls keep failing. infra/ObservabilityStack alarms on it.
const MetricaAtascados = "ComprobantesEnviadosAtascados"

// UmbralAtascado is how long a comprobante may stay in "sent".
const UmbralAtascado = 15 * time.Minute

// reportarAtascado writes one EMF line (value 1) when a poll finds t still
// undecided UmbralAtascado after it was sent. The company and the clave
// travel as properties (Logs Insights), not dimensions.
func (s *Service) reportarAtascado(t tarea, now time.Time) {
	if s.EMF == nil || t.enviado == nil || now.Sub(*t.enviado) < UmbralAtascado {
		return
	}
	b, err := json.Marshal(map[string]any{
		"_aws": map[string]any{
			"Timestamp": now.UnixMilli(),
			"CloudWatchMetrics": []any{map[string]any{
				"Namespace":  metricas.Namespace,
				"Dimensions": [][]string{{"Funcion"}},
				"Metrics":    []map[string]string{{"Name": MetricaAtascados, "Unit": "Count"}},
			}},
		},
		"Funcion":        s.Funcion,
		MetricaAtascados: 1,
		"empresa_id":     t.job.EmpresaID,
		"comprobante_id": t.job.ID,
		"clave":          t.clave,
		"minutos":        int(now.Sub(*t.enviado) / time.Minute),
	})
	if err != nil {
		return
	}
	_, _ = s.EMF.Write(append(b, '\n'))
}
