package main

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"net/http"
	"runtime"
	"sort"
	"sync"
	"sync/atomic"
	"syscall"
	"time"

	"github.com/jackc/pgx/v5"
)

// request builds the i-th request of a worker (its body is read once per
// call, so every call gets a fresh reader).
type request func(worker, i int) (method, path string, body []byte)

// scenario is one measured request kind.
type scenario struct {
	name   string // table row
	label  string // how the request is written in the table
	token  bool   // sends the bench user's bearer token
	want   int    // expected status
	build  request
	replay bool // measured against the pgbench replay of its statements
	// captured, when set, runs after the traced request (with its answer)
	// to make its statements repeatable.
	captured func(ctx context.Context, owner *pgx.Conn, answer []byte) error
}

// result is one scenario's measurement.
type result struct {
	n, errors     int
	perSecond     float64
	p50, p95, p99 time.Duration
	// little is the throughput Little's law gives a closed loop with no
	// think time, clients over the mean latency: a check of perSecond that
	// does not depend on where the window's ends fall.
	little     float64
	firstError string
	// allocs and bytes are the whole process's (server and load
	// generator) per recorded request.
	allocs, bytes float64
	// cpu is the process's CPU time (user + system) per recorded request:
	// unlike throughput, it does not depend on what else the machine runs.
	cpu time.Duration
	// pgCPU is the private PostgreSQL's CPU time per recorded request.
	pgCPU time.Duration
}

// cpuTime is the process's user and system CPU time so far.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// client is a keep-alive HTTP client for clients concurrent workers.
func client(clients int) *http.Client {
	t := http.DefaultTransport.(*http.Transport).Clone()
	t.MaxIdleConns = clients * 2
	t.MaxIdleConnsPerHost = clients * 2
	t.MaxConnsPerHost = 0
	return &http.Client{Transport: t, Timeout: 60 * time.Second}
}

// do sends one request and drains the answer (keep-alive needs the body read).
func do(c *http.Client, base, token string, method, path string, body []byte) (int, []byte, error) {
	var rd io.Reader
	if body != nil {
		rd = bytes.NewReader(body)
	}
	req, err := http.NewRequest(method, base+path, rd)
	if err != nil {
		return 0, nil, err
	}
	if body != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	resp, err := c.Do(req)
	if err != nil {
		return 0, nil, err
	}
	defer resp.Body.Close()
	out, err := io.ReadAll(resp.Body)
	return resp.StatusCode, out, err
}

// closedLoop runs clients workers, each sending its next request as soon
// as the previous one is answered: warm-up first (not recorded), then
// duration recorded.
func closedLoopWith(ctx context.Context, c *http.Client, base, token string, s scenario, clients int, warmup, duration time.Duration, window func() func()) result {
	var (
		recording atomic.Bool
		stop      atomic.Bool
		mu        sync.Mutex
		lat       []time.Duration
		errs      int
		firstErr  string
		wg        sync.WaitGroup
	)
	tok := ""
	if s.token {
		tok = token
	}
	for w := 0; w < clients; w++ {
		wg.Add(1)
		go func(w int) {
			defer wg.Done()
			// Clients start one after another over the first half of the
			// warm-up. Started together, clients whose requests share the
			// cores (the login's bcrypt: 32 of them take turns on 2 cores)
			// are answered together, in bursts one answer time apart; a
			// window then holds a whole number of bursts, give or take
			// one, which at the login's 1 s bursts and a 10 s window is
			// worth 10% either way.
			time.Sleep(time.Duration(w) * warmup / time.Duration(2*clients))
			local := make([]time.Duration, 0, 4096)
			var localErrs int
			var localFirst string
			for i := 0; !stop.Load() && ctx.Err() == nil; i++ {
				method, path, body := s.build(w, i)
				t0 := time.Now()
				status, out, err := do(c, base, tok, method, path, body)
				d := time.Since(t0)
				// A request counts when it is answered inside the measured
				// window, whenever it was sent: the window's throughput is
				// its answers over its length, as its CPU time is all the
				// work done in it. Counting only the requests both sent and
				// answered inside it left out, for each client, the one in
				// flight at either end: about clients/duration per second
				// (3.2 of the login's 36 per s at 32 clients and 10 s, whose
				// answers take 0.9 s), and CPU per request as much too high.
				if !recording.Load() {
					continue
				}
				if err != nil || status != s.want {
					localErrs++
					if localFirst == "" {
						if err != nil {
							localFirst = err.Error()
						} else {
							localFirst = fmt.Sprintf("%d %.200s", status, out)
						}
					}
					continue
				}
				local = append(local, d)
			}
			mu.Lock()
			lat = append(lat, local...)
			errs += localErrs
			if firstErr == "" {
				firstErr = localFirst
			}
			mu.Unlock()
		}(w)
	}
	time.Sleep(warmup)
	var m0, m1 runtime.MemStats
	runtime.ReadMemStats(&m0)
	cpu0 := cpuTime()
	done := window()
	recording.Store(true)
	t0 := time.Now()
	time.Sleep(duration)
	recording.Store(false)
	elapsed := time.Since(t0)
	done()
	cpu1 := cpuTime()
	runtime.ReadMemStats(&m1)
	stop.Store(true)
	wg.Wait()
	sort.Slice(lat, func(i, j int) bool { return lat[i] < lat[j] })
	r := result{n: len(lat), errors: errs, firstError: firstErr, perSecond: float64(len(lat)) / elapsed.Seconds()}
	r.p50, r.p95, r.p99 = pct(lat, 0.50), pct(lat, 0.95), pct(lat, 0.99)
	if len(lat) > 0 {
		var sum time.Duration
		for _, d := range lat {
			sum += d
		}
		r.little = float64(clients) / (sum / time.Duration(len(lat))).Seconds()
	}
	if len(lat) > 0 {
		r.allocs = float64(m1.Mallocs-m0.Mallocs) / float64(len(lat))
		r.bytes = float64(m1.TotalAlloc-m0.TotalAlloc) / float64(len(lat))
		r.cpu = (cpu1 - cpu0) / time.Duration(len(lat))
	}
	return r
}

func pct(sorted []time.Duration, p float64) time.Duration {
	if len(sorted) == 0 {
		return 0
	}
	i := int(float64(len(sorted))*p+0.5) - 1
	if i < 0 {
		i = 0
	}
	if i >= len(sorted) {
		i = len(sorted) - 1
	}
	return sorted[i]
}
