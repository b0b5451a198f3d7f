package ops

import (
	"context"
	"net/http"
	"runtime/debug"
	"strings"
	"sync"
	"time"

	"github.com/erpcr/erp/shared/config"
	"github.com/erpcr/erp/shared/httpx"
)

// Health statuses: the service is "ok", "degraded" (a dependency other than
// the database fails: still 200) or "error" (the database is unreachable:
// 503, so that a load balancer or monitor takes it out).
const (
	estadoOK       = "ok"
	estadoDegraded = "degraded"
	estadoError    = "error"
)

// Salud is the body of GET /api/health (the issue fixes these English keys).
type Salud struct {
	Status  string        `json:"status"`
	Version string        `json:"version"`
	Commit  string        `json:"commit"`
	Checks  ChequeosSalud `json:"checks"`
	Time    time.Time     `json:"time"`
}

// ChequeosSalud are the dependency checks.
type ChequeosSalud struct {
	Database          Chequeo   `json:"database"`
	Queue             ColaSalud `json:"queue"`
	HaciendaSimulador *Chequeo  `json:"hacienda_simulador,omitempty"`
}

// Chequeo is one dependency's status and round-trip time.
type Chequeo struct {
	Status    string  `json:"status"`
	LatencyMS float64 `json:"latency_ms"`
	Error     string  `json:"error,omitempty"`
}

// ColaSalud describes the queues: SQS in AWS (configured by URL; its depth
// is CloudWatch's ApproximateNumberOfMessagesVisible, not asked here to keep
// health free of AWS calls), or the in-process queue with its depth.
type ColaSalud struct {
	Status string   `json:"status"`
	Tipo   string   `json:"type"` // "sqs", "local" or "mixed"
	SQS    []string `json:"sqs,omitempty"`
	Depth  *int     `json:"depth,omitempty"`
}

var (
	commitOnce sync.Once
	commitVal  string
)

// commit is Commit when stamped, else the vcs.revision Go records when it
// builds inside a Git checkout (with "+dirty" when the tree was modified),
// else "desconocido" (go run, go test).
func commit() string {
	commitOnce.Do(func() {
		commitVal = Commit
		if commitVal != "" {
			return
		}
		commitVal = "desconocido"
		info, ok := debug.ReadBuildInfo()
		if !ok {
			return
		}
		var rev string
		dirty := false
		for _, s := range info.Settings {
			switch s.Key {
			case "vcs.revision":
				rev = s.Value
			case "vcs.modified":
				dirty = s.Value == "true"
			}
		}
		if rev != "" {
			commitVal = rev
			if dirty {
				commitVal += "+dirty"
			}
		}
	})
	return commitVal
}

func ms(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 }

func (s *Service) health(w http.ResponseWriter, r *http.Request) error {
	h := Salud{Status: estadoOK, Version: Version, Commit: commit(), Time: time.Now().UTC()}
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		h.Checks.Database = s.chequearBD(r.Context())
	}()
	if u := s.simuladorURL(); u != "" {
		wg.Add(1)
		go func() {
			defer wg.Done()
			c := chequearHTTP(r.Context(), u)
			h.Checks.HaciendaSimulador = &c
		}()
	}
	h.Checks.Queue = s.chequearCola()
	wg.Wait()
	status := http.StatusOK
	switch {
	case h.Checks.Database.Status != estadoOK:
		httpx.Logger(r.Context()).Warn("health: base de datos", "error", h.Checks.Database.Error)
		h.Status, status = estadoError, http.StatusServiceUnavailable
	case h.Checks.HaciendaSimulador != nil && h.Checks.HaciendaSimulador.Status != estadoOK:
		h.Status = estadoDegraded
	}
	w.Header().Set("Cache-Control", "no-store")
	httpx.WriteJSON(w, status, h)
	return nil
}

// chequearBD runs one query on a pooled connection (2 s at most): a
// stopped server, a refused connection or an exhausted pool all fail it.
func (s *Service) chequearBD(ctx context.Context) Chequeo {
	ctx, cancel := context.WithTimeout(ctx, 2*time.Second)
	defer cancel()
	start := time.Now()
	var one int
	err := s.DB.Pool.QueryRow(ctx, "select 1").Scan(&one)
	c := Chequeo{Status: estadoOK, LatencyMS: ms(time.Since(start))}
	if err != nil {
		c.Status, c.Error = estadoError, "La base de datos no responde."
	}
	return c
}

func (s *Service) chequearCola() ColaSalud {
	c := ColaSalud{Status: estadoOK}
	if u := s.Cfg.Hacienda.QueueURL; u != "" {
		c.SQS = append(c.SQS, nombreCola(u))
	}
	if u := s.Cfg.WebhookQueueURL; u != "" {
		c.SQS = append(c.SQS, nombreCola(u))
	}
	switch {
	case len(c.SQS) == 2:
		c.Tipo = "sqs"
	case len(c.SQS) == 0:
		c.Tipo = "local"
	default:
		c.Tipo = "mixed"
	}
	if c.Tipo != "sqs" && s.Cola != nil {
		n := s.Cola.Len()
		c.Depth = &n
	}
	return c
}

// nombreCola is the queue name, the last segment of its URL (the account
// id stays out of a public answer).
func nombreCola(u string) string {
	if i := strings.LastIndex(u, "/"); i >= 0 {
		return u[i+1:]
	}
	return u
}

// simuladorURL is the local Hacienda simulator's base URL when this process
// sends to it (never in production, as facturacion decides).
func (s *Service) simuladorURL() string {
	if s.Cfg.Env == config.EnvProduction {
		return ""
	}
	return s.Cfg.Hacienda.SimuladorURL
}

// chequearHTTP reports whether a server answers at u (any HTTP status
// counts: the point is that it is up), within one second.
func chequearHTTP(ctx context.Context, u string) Chequeo {
	ctx, cancel := context.WithTimeout(ctx, time.Second)
	defer cancel()
	start := time.Now()
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, u, nil)
	if err != nil {
		return Chequeo{Status: estadoError, Error: "La dirección del simulador no es válida."}
	}
	res, err := http.DefaultClient.Do(req)
	c := Chequeo{Status: estadoOK, LatencyMS: ms(time.Since(start))}
	if err != nil {
		c.Status, c.Error = estadoError, "El simulador de Hacienda no responde."
		return c
	}
	res.Body.Close()
	return c
}
