package plataforma

import (
	"os"

	"github.com/erpcr/erp/shared/config"
	"github.com/erpcr/erp/shared/metricas"
)

// Metricas returns the process's request recorder, built on first use (the
// first Mux, after the pool is final). It flushes to PostgreSQL at the end
// of a request at most every metricas.IntervaloPorDefecto; with ERP_ENV=test
// only when the metrics routes read (they flush their own process first),
// so that no test's count of database round trips ever includes a flush.
// In Lambda (AWS_LAMBDA_FUNCTION_NAME set) every request also writes its
// CloudWatch EMF line to stdout.
func (d *Deps) Metricas() *metricas.Registro {
	d.metricasOnce.Do(func() {
		intervalo := metricas.IntervaloPorDefecto
		if d.Cfg.Env == config.EnvTest {
			intervalo = 0
		}
		r := metricas.Nuevo(d.DB, d.Log, intervalo)
		if fn := os.Getenv("AWS_LAMBDA_FUNCTION_NAME"); fn != "" {
			r.EMF, r.Funcion = os.Stdout, fn
		}
		d.metricas = r
	})
	return d.metricas
}
