// Command genevent writes a sample API Gateway v2 (payload 2.0) event for a
// route of the route table, as API Gateway would hand it to the function
// after the authorizer ran: `go run ./cmd/genevent -method GET -path
// /api/sucursales/1 > events/sucursales/show.200.json`. Protected routes get
// an authorizer context for the demo Administrador of company 1 (all
// permissions), or the error class given with -error.
package main

import (
	"encoding/json"
	"flag"
	"fmt"
	"net/url"
	"os"
	"strings"

	"github.com/aws/aws-lambda-go/events"

	"github.com/erpcr/erp/shared/auth"
	"github.com/erpcr/erp/shared/routes"
)

// SampleToken is the bearer token sample events carry; the events test
// stores its hash for the demo administrator.
const SampleToken = "900001|MuestraDeEventoSoloParaPruebasLocales0001"

func main() {
	method := flag.String("method", "GET", "HTTP method")
	target := flag.String("path", "/api/health", "path with query, e.g. /api/usuarios?per_page=5")
	body := flag.String("body", "", "JSON body")
	class := flag.String("error", "", "authorizer error class instead of a principal (e.g. invalid_token)")
	flag.Parse()
	u, err := url.Parse(*target)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(2)
	}
	rt, params, _ := routes.Match(*method, u.Path)
	host := "abc123.execute-api.us-east-1.amazonaws.com"
	ev := events.APIGatewayV2HTTPRequest{
		Version: "2.0", RouteKey: rt.Key(), RawPath: u.Path, RawQueryString: u.RawQuery, PathParameters: params,
		Headers: map[string]string{
			"accept": "application/json", "content-type": "application/json", "host": host,
			"user-agent": "curl/8.5.0", "x-forwarded-for": "203.0.113.10", "x-forwarded-proto": "https",
			"x-trace-id": "muestra0000000000000000000000001",
		},
		Body: *body,
		RequestContext: events.APIGatewayV2HTTPRequestContext{
			AccountID: "123456789012", APIID: "abc123", DomainName: host, DomainPrefix: "abc123",
			RequestID: "JKJaXmPLvHcESHA=", RouteKey: rt.Key(), Stage: "$default",
			Time: "21/Nov/2026:12:00:00 +0000", TimeEpoch: 1795262400000,
			HTTP: events.APIGatewayV2HTTPRequestContextHTTPDescription{
				Method: *method, Path: u.Path, Protocol: "HTTP/1.1", SourceIP: "203.0.113.10", UserAgent: "curl/8.5.0",
			},
		},
	}
	if u.RawQuery != "" {
		ev.QueryStringParameters = map[string]string{}
		for k, v := range u.Query() {
			ev.QueryStringParameters[k] = strings.Join(v, ",")
		}
	}
	if !rt.Public {
		ev.Headers["authorization"] = "Bearer " + SampleToken
		ev.Headers["x-empresa-id"] = "1"
		ctx := auth.EncodeError(auth.RefusalOf(*class))
		if *class == "" {
			var perms []string
			for _, p := range auth.Catalog() {
				perms = append(perms, p.Slug)
			}
			ctx = auth.EncodeContext(auth.Principal{UsuarioID: 1, EmpresaID: 1, TokenID: 900001, Permisos: perms, Roles: []string{"administrador"}})
		}
		ev.RequestContext.Authorizer = &events.APIGatewayV2HTTPRequestContextAuthorizerDescription{Lambda: ctx}
	}
	enc := json.NewEncoder(os.Stdout)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false)
	if err := enc.Encode(ev); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
}
