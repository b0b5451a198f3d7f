package main

import (
	"runtime"
	"sync"
	"sync/atomic"
	"time"

	"golang.org/x/crypto/bcrypt"
)

// bcryptResult is raw bcrypt.CompareHashAndPassword on this process's
// cores: calls per second and the process's CPU time per call, the figure
// the login's CPU ms/req is to be read against.
type bcryptResult struct {
	perSecond float64
	cpu       time.Duration
	cost      int
	workers   int // goroutines
	n         int
	elapsed   time.Duration
	cpuTotal  time.Duration
}

// add merges two windows of the same measurement.
func (a bcryptResult) add(b bcryptResult) bcryptResult {
	a.n, a.elapsed, a.cpuTotal, a.cost = a.n+b.n, a.elapsed+b.elapsed, a.cpuTotal+b.cpuTotal, max(a.cost, b.cost)
	a.workers = max(a.workers, b.workers)
	if a.elapsed > 0 {
		a.perSecond = float64(a.n) / a.elapsed.Seconds()
	}
	if a.n > 0 {
		a.cpu = a.cpuTotal / time.Duration(a.n)
	}
	return a
}

// rawBcrypt counts bcrypt.CompareHashAndPassword calls for d in
// -bcrypt-goroutines goroutines (0: GOMAXPROCS, one per core; 32 runs as many as the login's clients, which changes neither the rate
// nor the CPU per call), with the stack idle: it runs right before and
// right after the login's load (see run), so that the machine's other
// load weighs on both sides alike. Calls in flight when d ends are
// waited for and counted, with the time they took. Under -cpuprofile the
// window's profile is written as name.
func rawBcrypt(d time.Duration, cost int, o options, name string) bcryptResult {
	hash, err := bcrypt.GenerateFromPassword([]byte(benchPassword), cost)
	if err != nil {
		return bcryptResult{cost: cost}
	}
	defer startProfile(o, name)()
	goroutines := o.bcryptGoroutines
	var n atomic.Int64
	var stop atomic.Bool
	var wg sync.WaitGroup
	cpu0, t0 := cpuTime(), time.Now()
	if goroutines <= 0 {
		goroutines = runtime.GOMAXPROCS(0)
	}
	for i := 0; i < goroutines; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for !stop.Load() {
				if bcrypt.CompareHashAndPassword(hash, []byte(benchPassword)) == nil {
					n.Add(1)
				}
			}
		}()
	}
	time.Sleep(d)
	stop.Store(true)
	wg.Wait()
	return bcryptResult{cost: cost, workers: goroutines}.add(bcryptResult{n: int(n.Load()), elapsed: time.Since(t0), cpuTotal: cpuTime() - cpu0})
}
