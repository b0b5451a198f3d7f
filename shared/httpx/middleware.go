package httpx

import (
	"bytes"
	"context"
	"crypto/rand"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"log/slog"
	"net/http"
	"regexp"
	"runtime/debug"
	"strings"
	"sync"
	"time"

	"github.com/erpcr/erp/shared/apperr"
)

// HandlerFunc is a handler that returns its error instead of writing it.
type HandlerFunc func(w http.ResponseWriter, r *http.Request) error

// Options configure the conventions.
type Options struct {
	Log   *slog.Logger
	Debug bool
	// Metrics, when set, receives one Observation per request once it has
	// been answered (shared/metricas: per-process aggregation flushed to
	// PostgreSQL, and CloudWatch EMF lines in Lambda). httpx knows nothing of
	// where they go.
	Metrics Recorder
}

// Recorder receives the observation of every request.
type Recorder interface {
	Record(ctx context.Context, o Observation)
}

// Observation is one answered request. Route is the route table's pattern
// ("/api/ventas/{id}"), never the raw path, so that the series stay few;
// "" when no route matched (see SetRoute).
type Observation struct {
	Method    string
	Route     string
	EmpresaID int64 // 0: no company (public route, refused before the tenant)
	Status    int
	Duration  time.Duration
	TraceID   string
}

// routeInfo is filled by the router (SetRoute) and read by Observe after
// the handler returns: the outermost middleware runs before routing.
type routeInfo struct {
	method, route string
	empresaID     int64
}

// SetRoute records, for Observe's metrics, the matched route's method and
// pattern and the company the request acts in (0 when none). The router
// calls it from inside the matched route's handler.
func SetRoute(ctx context.Context, method, route string, empresaID int64) {
	if ri, ok := ctx.Value(routeKey).(*routeInfo); ok {
		ri.method, ri.route, ri.empresaID = method, route, empresaID
	}
}

type ctxKey int

const (
	traceKey ctxKey = iota
	loggerKey
	debugKey
	routeKey
)

// TraceID returns the request's trace id.
func TraceID(ctx context.Context) string {
	s, _ := ctx.Value(traceKey).(string)
	return s
}

// Logger returns the request-scoped logger (carries the trace id).
func Logger(ctx context.Context) *slog.Logger {
	if l, ok := ctx.Value(loggerKey).(*slog.Logger); ok {
		return l
	}
	return slog.Default()
}

func debugFrom(ctx context.Context) bool {
	b, _ := ctx.Value(debugKey).(bool)
	return b
}

var traceRe = regexp.MustCompile(`^[A-Za-z0-9_-]{1,64}$`)

func randomHex(n int) string {
	b := make([]byte, n)
	_, _ = rand.Read(b)
	return hex.EncodeToString(b)
}

// timingWriter stamps X-Response-Time when the status line is written and
// remembers the status for the access log.
type timingWriter struct {
	http.ResponseWriter
	start  time.Time
	status int
	size   int
}

func (t *timingWriter) WriteHeader(code int) {
	if t.status != 0 {
		return
	}
	t.status = code
	t.Header().Set("X-Response-Time", fmt.Sprintf("%.3fms", float64(time.Since(t.start).Microseconds())/1000))
	t.ResponseWriter.WriteHeader(code)
}

func (t *timingWriter) Write(b []byte) (int, error) {
	if t.status == 0 {
		t.WriteHeader(http.StatusOK)
	}
	n, err := t.ResponseWriter.Write(b)
	t.size += n
	return n, err
}

// Observe is the outermost middleware: trace headers (accepted or
// generated, always returned), X-Response-Time, the body limit, panic
// recovery (masked 500) and one structured access-log line per request.
func Observe(o Options, next http.Handler) http.Handler {
	base := o.Log
	if base == nil {
		base = slog.Default()
	}
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		tw := &timingWriter{ResponseWriter: w, start: time.Now()}
		trace := r.Header.Get("X-Trace-Id")
		if !traceRe.MatchString(trace) {
			trace = randomHex(16)
		}
		parent := r.Header.Get("X-Span-Id")
		if !traceRe.MatchString(parent) {
			parent = ""
		}
		span := randomHex(8)
		h := w.Header()
		h.Set("X-Trace-Id", trace)
		h.Set("X-Span-Id", span)
		if parent != "" {
			h.Set("X-Parent-Span-Id", parent)
		}
		log := base.With("trace_id", trace, "span_id", span)
		ctx := context.WithValue(r.Context(), traceKey, trace)
		ctx = context.WithValue(ctx, loggerKey, log)
		ctx = context.WithValue(ctx, debugKey, o.Debug)
		ri := &routeInfo{}
		ctx = context.WithValue(ctx, routeKey, ri)
		r = r.WithContext(ctx)
		if r.Body != nil {
			// The transport cap is the largest body any route reads (a file
			// import); ReadInput keeps JSON bodies to MaxBodyBytes.
			r.Body = http.MaxBytesReader(tw, r.Body, MaxUploadBytes)
		}
		defer func() {
			if p := recover(); p != nil {
				log.Error("panic", "panic", fmt.Sprint(p), "stack", string(debug.Stack()))
				if tw.status == 0 {
					WriteError(tw, r, fmt.Errorf("panic: %v", p))
				}
			}
			elapsed := time.Since(tw.start)
			log.Info("request", "method", r.Method, "path", r.URL.Path, "status", tw.status,
				"bytes", tw.size, "duration_ms", float64(elapsed.Microseconds())/1000)
			if o.Metrics != nil {
				method := ri.method
				if method == "" {
					method = "ANY" // no route: any method, one series
				}
				status := tw.status
				if status == 0 {
					status = http.StatusOK
				}
				o.Metrics.Record(ctx, Observation{Method: method, Route: ri.route, EmpresaID: ri.empresaID,
					Status: status, Duration: elapsed, TraceID: trace})
			}
		}()
		next.ServeHTTP(tw, r)
	})
}

// Adapt turns a HandlerFunc into an http.Handler that writes returned errors
// in the envelope.
func Adapt(h HandlerFunc) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if err := h(w, r); err != nil {
			WriteError(w, r, err)
		}
	})
}

// BufferWriter holds a response (the first status written, 200 on a
// first Write, and the body) for a wrapper that looks at it before it goes
// out: ETag hashes it, v2's links rewrite it.
type BufferWriter struct {
	HeaderMap http.Header
	Status    int // 0 until written
	Body      bytes.Buffer
}

func (b *BufferWriter) Header() http.Header { return b.HeaderMap }
func (b *BufferWriter) WriteHeader(code int) {
	if b.Status == 0 {
		b.Status = code
	}
}
func (b *BufferWriter) Write(p []byte) (int, error) {
	if b.Status == 0 {
		b.Status = http.StatusOK
	}
	return b.Body.Write(p)
}

// bufferWriters are reused: what they hold is copied to the real writer
// before they go back.
var bufferWriters = sync.Pool{New: func() any { return &BufferWriter{HeaderMap: http.Header{}} }}

func (b *BufferWriter) release() {
	if b.Body.Cap() > maxPooledBody {
		return
	}
	clear(b.HeaderMap)
	b.Status = 0
	b.Body.Reset()
	bufferWriters.Put(b)
}

// ETag buffers successful GET responses, tags them with a strong hash of the
// body and answers 304 when If-None-Match matches. A write's If-Match header
// travels in its context (IfMatch) to the handler, which alone can tell the
// record's current version (CheckIfMatch).
func ETag(h HandlerFunc) HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) error {
		if r.Method != http.MethodGet && r.Method != http.MethodHead {
			if v := strings.TrimSpace(r.Header.Get("If-Match")); v != "" {
				r = r.WithContext(context.WithValue(r.Context(), ifMatchKey{}, v))
			}
			return h(w, r)
		}
		buf := bufferWriters.Get().(*BufferWriter)
		defer buf.release()
		if err := h(buf, r); err != nil {
			return err
		}
		for k, v := range buf.HeaderMap {
			w.Header()[k] = v
		}
		if buf.Status != http.StatusOK {
			w.WriteHeader(buf.Status)
			_, _ = w.Write(buf.Body.Bytes())
			return nil
		}
		// A handler that knows what identifies its answer better than
		// its bytes (the dashboard: the same figures, read from the cache
		// or not) sets the tag itself.
		tag := buf.HeaderMap.Get("ETag")
		if tag == "" {
			tag = ETagOf(buf.Body.Bytes())
		}
		w.Header().Set("ETag", tag)
		w.Header().Set("Cache-Control", "private, no-cache")
		if etagMatches(r.Header.Get("If-None-Match"), tag) {
			w.Header().Del("Content-Type")
			w.WriteHeader(http.StatusNotModified)
			return nil
		}
		w.WriteHeader(http.StatusOK)
		_, _ = w.Write(buf.Body.Bytes())
		return nil
	}
}

// ETagOf is the strong ETag of a GET answer's body.
func ETagOf(body []byte) string {
	sum := sha256.Sum256(body)
	return `"` + hex.EncodeToString(sum[:16]) + `"`
}

type ifMatchKey struct{}

// IfMatch is the If-Match header of the write ctx belongs to ("" when
// absent).
func IfMatch(ctx context.Context) string {
	v, _ := ctx.Value(ifMatchKey{}).(string)
	return v
}

// CheckIfMatch refuses a write (412) whose If-Match header names neither the
// current version of the record nor "*"; without the header it passes.
// current is the data a GET of the record answers now, whose envelope is
// encoded as that GET writes it (its ETag). The comparison is strong (RFC
// 9110 13.1.1): a weak tag never matches.
func CheckIfMatch(ctx context.Context, current any) error {
	header := IfMatch(ctx)
	if header == "" {
		return nil
	}
	body, err := EncodeJSON(Envelope{Success: true, Data: current})
	if err != nil {
		return fmt.Errorf("httpx: if-match: %w", err)
	}
	tag := ETagOf(body)
	for _, part := range strings.Split(header, ",") {
		if part = strings.TrimSpace(part); part == "*" || part == tag {
			return nil
		}
	}
	return apperr.NewPreconditionFailed()
}

func etagMatches(header, tag string) bool {
	for _, part := range strings.Split(header, ",") {
		part = strings.TrimPrefix(strings.TrimSpace(part), "W/")
		if part == "*" || part == strings.TrimPrefix(tag, "W/") {
			return true
		}
	}
	return false
}
