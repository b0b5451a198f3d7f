package tenancy

import "testing"

func TestResolveOrderAndFormats(t *testing.T) {
	cases := []struct {
		name, id, sub, host, base string
		want                      Request
		invalid                   bool
	}{
		{"nothing means home company", "", "", "localhost:3000", "", Request{}, false},
		{"id header", "2", "demo", "demo.erp.cr", "erp.cr", Request{EmpresaID: 2}, false},
		{"id must be a positive integer", "abc", "", "", "", Request{}, true},
		{"zero id is invalid", "0", "", "", "", Request{}, true},
		{"subdomain header before host", "", "Demo2", "demo.erp.cr", "erp.cr", Request{Subdominio: "demo2"}, false},
		{"bad subdomain header", "", "no valido!", "", "", Request{}, true},
		{"host subdomain", "", "", "demo.erp.cr:443", "erp.cr", Request{Subdominio: "demo"}, false},
		{"www ignored", "", "", "www.erp.cr", "erp.cr", Request{}, false},
		{"www.demo", "", "", "www.demo.erp.cr", "erp.cr", Request{Subdominio: "demo"}, false},
		{"demo.api", "", "", "demo.api.erp.cr", "erp.cr", Request{Subdominio: "demo"}, false},
		{"api ignored", "", "", "api.erp.cr", "erp.cr", Request{}, false},
		{"other domain ignored", "", "", "demo.otro.cr", "erp.cr", Request{}, false},
		{"base domain itself", "", "", "erp.cr", "erp.cr", Request{}, false},
		{"no base domain configured", "", "", "demo.erp.cr", "", Request{}, false},
	}
	for _, c := range cases {
		got, err := Resolve(c.id, c.sub, c.host, c.base)
		if (err != nil) != c.invalid || got != c.want {
			t.Errorf("%s: got %+v err %v", c.name, got, err)
		}
	}
}
