package secrets

import "testing"

func TestFromRDSSecret(t *testing.T) {
	u, err := FromRDSSecret(`{"username":"erp_app","password":"p@ss:w/rd","host":"proxy.example","port":5432,"dbname":"erp"}`)
	if err != nil || u != "postgres://erp_app:p%40ss%3Aw%2Frd@proxy.example:5432/erp?sslmode=require" {
		t.Fatalf("%s %v", u, err)
	}
	if _, err := FromRDSSecret(`{"password":"x"}`); err == nil {
		t.Errorf("a secret without host and username was accepted")
	}
	if _, err := FromRDSSecret(`no json`); err == nil {
		t.Errorf("garbage accepted")
	}
}

func TestFromRDSSecretViaTheProxy(t *testing.T) {
	doc := `{"username":"erp_app","password":"x","host":"cluster.example","port":"6432","dbname":"erp"}`
	u, err := FromRDSSecretVia(doc, "proxy.example")
	if err != nil || u != "postgres://erp_app:x@proxy.example:6432/erp?sslmode=require" {
		t.Fatalf("%s %v", u, err)
	}
	if u, _ := FromRDSSecretVia(doc, ""); u != "postgres://erp_app:x@cluster.example:6432/erp?sslmode=require" {
		t.Errorf("without a proxy the secret's host stays: %s", u)
	}
}
