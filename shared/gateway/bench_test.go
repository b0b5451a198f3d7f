package gateway_test

import (
	"context"
	"strings"
	"testing"

	"github.com/erpcr/erp/shared/auth"
	"github.com/erpcr/erp/shared/config"
	"github.com/erpcr/erp/shared/tenancy"
	"github.com/erpcr/erp/shared/testenv"
)

// BenchmarkListUsuarios measures a whole authenticated list request through
// the local gateway: HTTP, event marshalling, the authorizer (one database
// round trip), the function (transaction, count + page, relations).
func BenchmarkListUsuarios(b *testing.B) {
	e := testenv.New(b)
	tok := e.Admin(1)
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if r := e.Get("/api/usuarios?per_page=15", tok); r.Status != 200 {
			b.Fatalf("status %d", r.Status)
		}
	}
	b.ReportMetric(float64(e.Queries.Load())/float64(b.N), "queries/op")
}

// BenchmarkAuthorizerDecide measures the authorizer's decision alone.
func BenchmarkAuthorizerDecide(b *testing.B) {
	e := testenv.New(b)
	id, secret, _ := auth.ParseToken(e.Admin(1))
	a := &auth.Authorizer{DB: e.Deps.DB}
	ctx := context.Background()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		p, class, err := a.Decide(ctx, id, secret, tenancy.Request{EmpresaID: 1})
		if err != nil || class != nil || p.UsuarioID == 0 {
			b.Fatalf("%v %q", err, class)
		}
	}
}

// BenchmarkLogin includes bcrypt at the test cost (4); production cost is 10.
func BenchmarkLogin(b *testing.B) {
	e := testenv.New(b, func(c *config.Config) { c.LoginMaxAttempts = 0 })
	body := map[string]string{"email": testenv.Admin1, "password": testenv.DemoPassword}
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if r := e.Do(testenv.Req{Method: "POST", Path: "/api/login", Body: body}); r.Status != 200 || !strings.Contains(string(r.Raw), "token") {
			b.Fatalf("status %d", r.Status)
		}
	}
}
