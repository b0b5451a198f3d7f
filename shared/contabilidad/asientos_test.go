package contabilidad_test

import (
	"net/http"
	"testing"

	"github.com/erpcr/erp/shared/testenv"
)

// A manual entry's life: a draft without a number, edited (its lines
// replaced), posted with the next AS number, annulled by a reversing entry
// that points at it; a posted entry is neither edited nor deleted.
func TestManualEntryFromDraftToPostedToAnnulled(t *testing.T) {
	f := setup(t)
	banco, capital, caja := f.cuenta("1.1.02.001"), f.cuenta("3.1.01.001"), f.cuenta("1.1.01.001")
	r := f.Must(http.StatusCreated, http.MethodPost, "/api/asientos-contables",
		asiento("", debe(caja, "100000.50"), haber(capital, 90000)))
	a := id(r)
	if testenv.Get(r.JSON, "data.numero") != nil || testenv.Str(r.JSON, "data.estado") != "borrador" ||
		testenv.Str(r.JSON, "data.origen") != "manual" || testenv.Len(r.JSON, "data.lineas") != 2 ||
		testenv.Str(r.JSON, "data.lineas.0.cuenta.codigo") != "1.1.01.001" || num(r, "data.lineas.0.debe") != "100000.50" ||
		num(r, "data.lineas.1.haber") != "90000.00" || num(r, "data.total_debe") != "100000.50" {
		t.Fatalf("draft: %s", r.Raw)
	}
	// An unbalanced draft cannot be posted: the database's rule, under lineas.
	testenv.Expect422(t, f.Call(http.MethodPost, path("asientos-contables", a, "contabilizar"), nil), "lineas")

	r = f.Must(http.StatusOK, http.MethodPut, path("asientos-contables", a), map[string]any{
		"descripcion": "Aporte de capital en banco", "lineas": []any{debe(banco, "250000"), haber(capital, "250000")}})
	if testenv.Str(r.JSON, "data.lineas.0.cuenta.codigo") != "1.1.02.001" || testenv.Len(r.JSON, "data.lineas") != 2 ||
		testenv.Str(r.JSON, "data.descripcion") != "Aporte de capital en banco" {
		t.Fatalf("edited draft: %s", r.Raw)
	}
	r = f.Must(http.StatusOK, http.MethodPost, path("asientos-contables", a, "contabilizar"), nil)
	if testenv.Str(r.JSON, "data.numero") != "AS-2026-000001" || testenv.Str(r.JSON, "data.estado") != "contabilizado" ||
		num(r, "data.total_debe") != "250000.00" || testenv.Str(r.JSON, "data.contabilizado_en") == "" {
		t.Fatalf("posted: %s", r.Raw)
	}
	testenv.Expect422(t, f.Call(http.MethodPatch, path("asientos-contables", a), map[string]any{"descripcion": "x"}), "estado")
	testenv.Expect422(t, f.Call(http.MethodDelete, path("asientos-contables", a), nil), "estado")
	testenv.Expect422(t, f.Call(http.MethodPost, path("asientos-contables", a, "contabilizar"), nil), "estado")

	r = f.Must(http.StatusOK, http.MethodPost, path("asientos-contables", a, "anular"), map[string]any{"fecha": "2026-03-20"})
	rev := id(r)
	if rev == a || testenv.Num(r.JSON, "data.reversa_de_id") != float64(a) || testenv.Str(r.JSON, "data.numero") != "AS-2026-000002" ||
		testenv.Str(r.JSON, "data.fecha") != "2026-03-20" || num(r, "data.lineas.0.haber") != "250000.00" ||
		testenv.Str(r.JSON, "data.origen") != "anulacion" {
		t.Fatalf("reversing entry: %s", r.Raw)
	}
	r = f.Must(http.StatusOK, http.MethodGet, path("asientos-contables", a), nil)
	if testenv.Str(r.JSON, "data.estado") != "anulado" || testenv.Num(r.JSON, "data.reversado_por_id") != float64(rev) {
		t.Fatalf("annulled original: %s", r.Raw)
	}
	testenv.Expect422(t, f.Call(http.MethodPost, path("asientos-contables", a, "anular"), nil), "estado")
	if got := f.Text(`select sum(debe - haber)::text from asiento_lineas where empresa_id = 1 and cuenta_id = $1`, banco); got != "0.00" {
		t.Errorf("bank after the annulment: %s", got)
	}

	// A draft is deleted; then it is gone.
	d := id(f.Must(http.StatusCreated, http.MethodPost, "/api/asientos-contables", asiento("borrador", debe(caja, 1), haber(capital, 1))))
	f.Must(http.StatusOK, http.MethodDelete, path("asientos-contables", d), nil)
	f.Must(http.StatusNotFound, http.MethodGet, path("asientos-contables", d), nil)
}

// Each rule of an entry is a 422 under its key, checked in Go before any
// write where it is cheap and by the database otherwise.
func TestEntryRulesAre422sUnderTheirKeys(t *testing.T) {
	f := setup(t)
	caja, capital, grupo := f.cuenta("1.1.01.001"), f.cuenta("3.1.01.001"), f.cuenta("1.1.01")
	inactiva := f.cuenta("1.1.01.002")
	f.E.Exec(`update cuentas_contables set activo = false where id = $1`, inactiva)
	otra := testenv.Scalar[int64](t, f.E, `select id from cuentas_contables where empresa_id = 2 and codigo = '1.1.01.001'`)
	f.E.ExpectInvalid(t, f.Admin, http.MethodPost, "/api/asientos-contables", []testenv.Invalid{
		{"fewer than two lines", asiento("contabilizado", debe(caja, 10)), "lineas"},
		{"no lines", asiento("borrador"), "lineas"},
		{"unbalanced", asiento("contabilizado", debe(caja, 10), haber(capital, 9)), "lineas"},
		{"a line with both debe and haber", asiento("borrador", map[string]any{"cuenta_id": caja, "debe": 1, "haber": 1}, haber(capital, 1)), "lineas.0.debe"},
		{"a line with neither", asiento("borrador", debe(caja, 1), map[string]any{"cuenta_id": capital}), "lineas.1.debe"},
		{"a negative amount", asiento("borrador", debe(caja, -1), haber(capital, 1)), "lineas.0.debe"},
		{"three decimals", asiento("borrador", debe(caja, "1.005"), haber(capital, 1)), "lineas.0.debe"},
		{"a line without account", asiento("borrador", map[string]any{"debe": 1}, haber(capital, 1)), "lineas.0.cuenta_id"},
		{"a grouping account", asiento("contabilizado", debe(grupo, 1), haber(capital, 1)), "lineas.0.cuenta_id"},
		{"an inactive account", asiento("contabilizado", debe(inactiva, 1), haber(capital, 1)), "lineas.0.cuenta_id"},
		{"another company's account", asiento("contabilizado", debe(caja, 1), haber(otra, 1)), "lineas.1.cuenta_id"},
		{"an unknown branch", asiento("borrador", testenv.With(debe(caja, 1), "sucursal_id", 999999), haber(capital, 1)), "lineas.0.sucursal_id"},
		{"no fecha", testenv.With(asiento("borrador", debe(caja, 1), haber(capital, 1)), "fecha", nil), "fecha"},
		{"no descripcion", testenv.With(asiento("borrador", debe(caja, 1), haber(capital, 1)), "descripcion", " "), "descripcion"},
		{"an unknown estado", asiento("anulado", debe(caja, 1), haber(capital, 1)), "estado"},
		{"colones at another rate", testenv.With(asiento("borrador", debe(caja, 1), haber(capital, 1)), "tipo_cambio", 500), "tipo_cambio"},
		{"dollars without a rate for the date", testenv.With(asiento("borrador", debe(caja, 1), haber(capital, 1)), "moneda", "USD"), "tipo_cambio"},
	})
	if n := f.Int(`select count(*) from asientos_contables where empresa_id = 1 and origen = 'manual'`); n != 0 {
		t.Errorf("refused entries left %d rows", n)
	}

	t.Run("a closed period refuses posting", func(t *testing.T) {
		f.Must(http.StatusOK, http.MethodPost, "/api/periodos-contables/2026/3/cerrar", nil)
		r := f.Call(http.MethodPost, "/api/asientos-contables", asiento("contabilizado", debe(caja, 1), haber(capital, 1)))
		testenv.Expect422(t, r, "fecha")
		if got := testenv.Str(r.JSON, "errors.fecha.0"); got != "El período contable 2026-03 está cerrado; no se puede contabilizar en él." {
			t.Errorf("message: %s", got)
		}
		// A draft may be dated in it; posting it waits for the reopening.
		d := id(f.Must(http.StatusCreated, http.MethodPost, "/api/asientos-contables", asiento("borrador", debe(caja, 1), haber(capital, 1))))
		testenv.Expect422(t, f.Call(http.MethodPost, path("asientos-contables", d, "contabilizar"), nil), "fecha")
		f.Must(http.StatusOK, http.MethodPost, "/api/periodos-contables/2026/3/reabrir", nil)
		f.Must(http.StatusOK, http.MethodPost, path("asientos-contables", d, "contabilizar"), nil)
	})
	t.Run("an automatic entry is reversed through its document", func(t *testing.T) {
		venta := f.Int(`select contabilidad_registrar(1, '2026-03-16', 'Venta FAC-1', 'venta', 1,
			jsonb_build_array(jsonb_build_object('cuenta_id', $1::bigint, 'debe', 10), jsonb_build_object('cuenta_id', $2::bigint, 'haber', 10)))`,
			caja, f.cuenta("4.1.01.001"))
		testenv.Expect422(t, f.Call(http.MethodPost, path("asientos-contables", venta, "anular"), nil), "origen")
	})
	t.Run("dollars take the registered rate of the date", func(t *testing.T) {
		f.Must(http.StatusCreated, http.MethodPost, "/api/tipos-cambio", map[string]any{"fecha": "2026-03-15", "compra": "505.10", "venta": "511.25"})
		r := f.Must(http.StatusCreated, http.MethodPost, "/api/asientos-contables",
			testenv.With(asiento("contabilizado", debe(caja, 511.25), haber(capital, 511.25)), "moneda", "USD"))
		if testenv.Str(r.JSON, "data.moneda") != "USD" || num(r, "data.tipo_cambio") != "511.25" {
			t.Errorf("dollar entry: %s", r.Raw)
		}
	})
}

// Entries are listed newest first with their filters.
func TestEntryListFilters(t *testing.T) {
	f := setup(t)
	a := id(f.capital("1000"))
	caja, capital := f.cuenta("1.1.01.001"), f.cuenta("3.1.01.001")
	b := id(f.Must(http.StatusCreated, http.MethodPost, "/api/asientos-contables",
		testenv.With(asiento("borrador", debe(caja, 5), haber(capital, 5)), "descripcion", "Fondo de caja chica", "fecha", "2026-04-02")))
	for _, c := range []struct {
		query string
		want  []int
	}{
		{"origen=manual", []int{int(b), int(a)}},
		{"estado=borrador", []int{int(b)}},
		{"fecha_inicio=2026-04-01", []int{int(b)}},
		{"fecha_fin=2026-03-31&origen=manual", []int{int(a)}},
		{"search=AS-2026", []int{int(a)}},
		{"search=caja%20chica", []int{int(b)}},
		{"cuenta_id=" + itoa(f.cuenta("1.1.02.001")), []int{int(a)}},
	} {
		r := f.Must(http.StatusOK, http.MethodGet, "/api/asientos-contables?"+c.query, nil)
		if got := testenv.IDs(r); !equal(got, c.want) {
			t.Errorf("?%s: %v, want %v", c.query, got, c.want)
		}
	}
	testenv.Expect422(t, f.Call(http.MethodGet, "/api/asientos-contables?estado=x", nil), "estado")
	testenv.Expect422(t, f.Call(http.MethodGet, "/api/asientos-contables?fecha_inicio=2026-04-02&fecha_fin=2026-04-01", nil), "fecha_fin")
}

// Annulling an entry reverses it even when one of its accounts was
// deactivated since: the reversal only takes back what the entry put
// there (before, the annulment was a 422 under lineas.0.cuenta_id, a key
// its body does not have). The inactive account still takes no new entry.
func TestAnnullingAnEntryReversesItOnAnAccountDeactivatedSince(t *testing.T) {
	f := setup(t)
	gasto, mobiliario := f.cuenta("6.2.01.002"), f.cuenta("1.2.01.001")
	a := id(f.Must(http.StatusCreated, http.MethodPost, "/api/asientos-contables",
		asiento("contabilizado", debe(gasto, "700.00"), haber(mobiliario, "700.00"))))
	f.Must(http.StatusOK, http.MethodPatch, path("cuentas-contables", gasto), map[string]any{"activo": false})

	r := f.Must(http.StatusOK, http.MethodPost, path("asientos-contables", a, "anular"), nil)
	if testenv.Num(r.JSON, "data.reversa_de_id") != float64(a) || testenv.Num(r.JSON, "data.lineas.0.cuenta_id") != float64(gasto) ||
		num(r, "data.lineas.0.haber") != "700.00" || testenv.Str(r.JSON, "data.estado") != "contabilizado" {
		t.Fatalf("reversing entry: %s", r.Raw)
	}
	if got := f.Text(`select sum(debe - haber)::text from asiento_lineas where empresa_id = 1 and cuenta_id = $1`, gasto); got != "0.00" {
		t.Errorf("the inactive account after the annulment: %s", got)
	}
	testenv.Expect422(t, f.Call(http.MethodPost, "/api/asientos-contables",
		asiento("contabilizado", debe(gasto, "1.00"), haber(mobiliario, "1.00"))), "lineas.0.cuenta_id")
}
