package gateway_test

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"sync"
	"testing"

	"github.com/erpcr/erp/shared/testenv"
)

// fuzzTarget is one route as a client calls it.
type fuzzTarget struct {
	name, method, path, body string
	auth                     bool
}

// oddValues are header values chosen to break parsers: escapes, control
// characters, NUL, bytes that are not UTF-8, unicode, numbers out of range,
// injection-looking text and very long values. The server itself refuses
// some of them (400, 431); none may reach a 500.
var oddValues = []string{
	"", " ", "%", "%00", "a%2", "%zz", "%ff%fe", "\x00", "a\x00b", "\x01", "\x1f", "\x7f", "\t", "a\tb",
	"\xff\xfe", "\xff", "\xc3\x28", "\xed\xa0\x80", "ñandú", "🙂🙂", "\u202e", "null", "-1", "0", "1e3", "0x10",
	"99999999999999999999", "' OR 1=1 --", "<script>alert(1)</script>", "../../etc/passwd", "a:b:c", "[::1]",
	"demo%00.x", "Bearer", "Bearer ", "Bearer 1|", "Bearer \xff|\xfe", "Bearer 99999999999999999999|x",
	"application/json; charset=\xff", "application/json; boundary=\"", "multipart/form-data", "text/plain",
	strings.Repeat("a", 8<<10), strings.Repeat("ñ", 4<<10), strings.Repeat("%", 9000), strings.Repeat("x", 60<<10),
}

var fuzzHeaders = []string{"Host", "X-Empresa-Id", "X-Empresa-Subdominio", "Authorization", "Content-Type", "Idempotency-Key", "X-Trace-Id",
	"X-Span-Id", "Cookie", "User-Agent", "Origin", "If-None-Match", "Accept"}

// TestOddHeadersNeverGive500 sends a deterministic table and a seeded
// random sample of odd header values (and odd paths and queries) over raw
// TCP through the local gateway to real handlers: public login,
// authenticated lists, a show and creates. No answer may be a 500 or
// missing.
func TestOddHeadersNeverGive500(t *testing.T) {
	e, tok := testenv.NewAdmin(t)
	addr := serverAddr(e.Server.URL)
	targets := []fuzzTarget{
		{"login", "POST", "/api/login", `{"email":"fuzz@demo.cr","password":"Incorrecta1!"}`, false},
		{"health", "GET", "/api/health", "", false},
		{"list", "GET", "/api/usuarios?per_page=5&search=admin", "", true},
		{"list-products", "GET", "/api/productos", "", true},
		{"show", "GET", "/api/usuarios/1", "", true},
		{"create", "POST", "/api/roles", `{"nombre":"Rol fuzz"}`, true},
		{"create-sale", "POST", "/api/ventas", `{"fecha_venta":"2026-01-01","tipo_comprobante":"tiquete","detalles":[]}`, true},
	}
	type job struct {
		t           fuzzTarget
		path        string
		header, val string
	}
	var jobs []job
	for _, tg := range targets {
		for _, h := range fuzzHeaders {
			for _, v := range oddValues {
				jobs = append(jobs, job{tg, tg.path, h, v})
			}
		}
	}
	// Odd paths and queries on the same routes.
	for _, p := range []string{"/api/usuarios/%00", "/api/usuarios/%ff", "/api/usuarios/\xff", "/api/usuarios/%2F", "/api/usuarios/1%00",
		"/api/usuarios?search=%00", "/api/usuarios?search=%ff%fe", "/api/usuarios?search=\xff", "/api/usuarios?per_page=%zz&page=-1",
		"/api/usuarios?sort=%00&order=\xfe", "/api/productos?categoria_id=%00", "/api/usuarios?search=" + strings.Repeat("%C3%B1", 1000),
		"/api/login?%00=%00", "/api/nada/%00", "/api/usuarios/99999999999999999999999"} {
		jobs = append(jobs, job{fuzzTarget{name: "path", method: "GET", auth: true}, p, "Accept", "application/json"})
	}
	rng := rand.New(rand.NewPCG(2026, 9))
	alphabet := []string{"a", "Z", "0", "9", "-", ".", ":", "%", "%0", "%00", "%ff", "\x00", "\x01", "\x7f", "\t", " ", "\xff", "\xfe",
		"ñ", "🙂", "\u0301", "|", ",", ";", "=", "\"", "'", "\\", "/", "[", "]", "*"}
	for i := 0; i < 300; i++ {
		var b strings.Builder
		n := rng.IntN(40)
		if rng.IntN(20) == 0 {
			n = 2000 + rng.IntN(15000)
		}
		for j := 0; j < n; j++ {
			b.WriteString(alphabet[rng.IntN(len(alphabet))])
		}
		tg := targets[rng.IntN(len(targets))]
		jobs = append(jobs, job{tg, tg.path, fuzzHeaders[rng.IntN(len(fuzzHeaders))], b.String()})
	}

	var (
		mu       sync.Mutex
		failures []string
		statuses = map[int]int{}
	)
	work := make(chan job)
	var wg sync.WaitGroup
	for w := 0; w < 4; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for j := range work {
				host := "localhost"
				headers := []rawHeader{{"Accept", "application/json"}}
				if j.t.auth && j.header != "Authorization" {
					headers = append(headers, rawHeader{"Authorization", "Bearer " + tok})
				}
				if j.t.body != "" && j.header != "Content-Type" {
					headers = append(headers, rawHeader{"Content-Type", "application/json"})
				}
				if j.header == "Host" {
					host = j.val
				} else {
					headers = append(headers, rawHeader{j.header, j.val})
				}
				res, raw, err := rawRequest(addr, j.t.method, j.path, host, headers, j.t.body)
				mu.Lock()
				switch {
				case err != nil:
					failures = append(failures, fmt.Sprintf("%s %s %s=%.40q: no answer: %v", j.t.method, j.path, j.header, j.val, err))
				case res.StatusCode >= 500:
					failures = append(failures, fmt.Sprintf("%s %s %s=%.40q: %d %.200s", j.t.method, j.path, j.header, j.val, res.StatusCode, raw))
				default:
					statuses[res.StatusCode]++
				}
				mu.Unlock()
			}
		}()
	}
	for _, j := range jobs {
		work <- j
	}
	close(work)
	wg.Wait()
	t.Logf("%d requests; statuses %v", len(jobs), statuses)
	for _, f := range failures {
		t.Error(f)
	}
}
