package main

import (
	"context"
	"fmt"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"time"
)

// coldStart builds one function as make build does (stripped, -trimpath,
// lambda.norpc; for this machine's architecture so that it can run here)
// and measures process start -> ready: the time until the binary, run
// with a stand-in Lambda runtime API, asks for its first invocation (its
// init done: configuration, pool, route mux). It returns the binary's size
// and the median of runs starts.
func coldStart(ctx context.Context, fn, dir, appURL string, runs int) (int64, time.Duration, error) {
	bin := filepath.Join(dir, fn+"-bootstrap")
	build := exec.CommandContext(ctx, "go", "build", "-tags", "lambda.norpc", "-trimpath", "-ldflags", "-s -w", "-o", bin, "./functions/"+fn)
	build.Env = append(os.Environ(), "CGO_ENABLED=0", "GOOS=linux", "GOARCH="+runtime.GOARCH)
	if out, err := build.CombinedOutput(); err != nil {
		return 0, 0, fmt.Errorf("build %s: %v\n%s", fn, err, out)
	}
	fi, err := os.Stat(bin)
	if err != nil {
		return 0, 0, err
	}
	var times []time.Duration
	for range runs {
		d, err := startToReady(ctx, bin, appURL)
		if err != nil {
			return fi.Size(), 0, err
		}
		times = append(times, d)
	}
	slices.Sort(times)
	return fi.Size(), times[len(times)/2], nil
}

func startToReady(ctx context.Context, bin, appURL string) (time.Duration, error) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return 0, err
	}
	ready := make(chan time.Time, 1)
	srv := &http.Server{Handler: http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		select {
		case ready <- time.Now():
		default:
		}
		<-r.Context().Done() // hold the long poll until the process is killed
	})}
	go func() { _ = srv.Serve(l) }()
	defer srv.Close()
	cmd := exec.CommandContext(ctx, bin)
	cmd.Env = append(os.Environ(), "AWS_LAMBDA_RUNTIME_API="+l.Addr().String(), "DATABASE_APP_URL="+appURL,
		"ERP_ENV=development", "ERP_LOG_LEVEL=error", "AWS_LAMBDA_FUNCTION_NAME=benchload")
	t0 := time.Now()
	if err := cmd.Start(); err != nil {
		return 0, err
	}
	defer func() { _ = cmd.Process.Kill(); _ = cmd.Wait() }()
	select {
	case t := <-ready:
		return t.Sub(t0), nil
	case <-time.After(10 * time.Second):
		return 0, fmt.Errorf("%s: not ready after 10 s", bin)
	}
}
