package contabilidad_test

import (
	"net/http"
	"testing"

	"github.com/erpcr/erp/shared/testenv"
)

// A new account takes its level from its parent and its nature from its
// type; the chart lists flat or as a tree, with balances at a cut-off
// date (a parent's is its subtree's).
func TestChartAccountsNestUnderGroupingAccountsWithSubtreeBalances(t *testing.T) {
	f := setup(t)
	grupo := f.cuenta("6.2.01")
	r := f.Must(http.StatusCreated, http.MethodPost, "/api/cuentas-contables", map[string]any{
		"codigo": "6.2.01.010", "nombre": "Publicidad", "tipo": "gasto", "padre_id": grupo})
	nueva := id(r)
	if testenv.Num(r.JSON, "data.nivel") != 4 || testenv.Str(r.JSON, "data.naturaleza") != "deudora" ||
		testenv.Get(r.JSON, "data.acepta_movimientos") != true || testenv.Str(r.JSON, "data.padre.codigo") != "6.2.01" ||
		testenv.Str(r.JSON, "data.moneda") != "CRC" {
		t.Fatalf("created: %s", r.Raw)
	}
	r = f.Must(http.StatusCreated, http.MethodPost, "/api/cuentas-contables", map[string]any{
		"codigo": "7", "nombre": "Cuentas de orden", "tipo": "activo", "naturaleza": "acreedora", "acepta_movimientos": false})
	if testenv.Num(r.JSON, "data.nivel") != 1 || testenv.Str(r.JSON, "data.naturaleza") != "acreedora" || testenv.Get(r.JSON, "data.padre_id") != nil {
		t.Fatalf("top-level account: %s", r.Raw)
	}

	f.capital("250000")
	f.Must(http.StatusCreated, http.MethodPost, "/api/asientos-contables", asiento("contabilizado",
		debe(nueva, "1500.50"), haber(f.cuenta("1.1.02.001"), "1500.50")))

	r = f.Must(http.StatusOK, http.MethodGet, "/api/cuentas-contables?arbol=true&fecha_corte=2026-03-31", nil)
	if testenv.Num(r.JSON, "total") != 7 || testenv.Str(r.JSON, "data.0.codigo") != "1" || num(r, "data.0.saldo") != "248499.50" ||
		testenv.Str(r.JSON, "data.0.hijos.0.codigo") != "1.1" || testenv.Str(r.JSON, "data.0.hijos.0.hijos.1.hijos.0.codigo") != "1.1.02.001" ||
		num(r, "data.0.hijos.0.hijos.1.hijos.0.saldo") != "248499.50" || num(r, "data.2.saldo") != "250000.00" ||
		num(r, "data.5.saldo") != "1500.50" || testenv.Len(r.JSON, "data.6.hijos") != 0 {
		t.Fatalf("tree: %.2000s", r.Raw)
	}
	r = f.Must(http.StatusOK, http.MethodGet, "/api/cuentas-contables?fecha_corte=2026-03-14&search=Publicidad", nil)
	if testenv.Num(r.JSON, "total") != 1 || num(r, "data.0.saldo") != "0.00" || testenv.Get(r.JSON, "data.0.hijos") != nil {
		t.Fatalf("balance before the entry: %s", r.Raw)
	}
	r = f.Must(http.StatusOK, http.MethodGet, "/api/cuentas-contables?padre_id="+itoa(grupo), nil)
	if got := testenv.Strs(r, "codigo"); len(got) != 8 || got[6] != "6.2.01.010" || testenv.Get(r.JSON, "data.0.saldo") != nil {
		t.Errorf("children of 6.2.01: %v", got)
	}
	for query, total := range map[string]float64{"tipo=costo": 4, "nivel=1": 7, "acepta_movimientos=false&tipo=patrimonio": 5} {
		if r := f.Must(http.StatusOK, http.MethodGet, "/api/cuentas-contables?"+query, nil); testenv.Num(r.JSON, "total") != total {
			t.Errorf("?%s: total %v, want %v", query, testenv.Num(r.JSON, "total"), total)
		}
	}
	// The list costs the same round trips for a page of 10 and of 100, with balances and as a tree.
	for _, q := range []string{"fecha_corte=2026-03-31", "arbol=true&fecha_corte=2026-03-31"} {
		a := f.E.RoundTrips(t, "/api/cuentas-contables?per_page=10&"+q, f.Admin)
		b := f.E.RoundTrips(t, "/api/cuentas-contables?per_page=100&"+q, f.Admin)
		if a != b {
			t.Errorf("?%s: %d round trips for 10 rows, %d for 100", q, a, b)
		}
	}

	// An account with movements is deactivated, not deleted; one without is deleted.
	testenv.Expect422(t, f.Call(http.MethodDelete, path("cuentas-contables", nueva), nil), "id")
	r = f.Must(http.StatusOK, http.MethodPut, path("cuentas-contables", nueva), map[string]any{"activo": false, "nombre": "Publicidad y mercadeo",
		"codigo": "6.2.01.010", "tipo": "gasto", "padre_id": grupo})
	if testenv.Get(r.JSON, "data.activo") != false || testenv.Str(r.JSON, "data.nombre") != "Publicidad y mercadeo" {
		t.Fatalf("deactivated: %s", r.Raw)
	}
	testenv.Expect422(t, f.Call(http.MethodPost, "/api/asientos-contables", asiento("contabilizado",
		debe(nueva, 1), haber(f.cuenta("1.1.02.001"), 1))), "lineas.0.cuenta_id")
	vacia := id(f.Must(http.StatusCreated, http.MethodPost, "/api/cuentas-contables", map[string]any{
		"codigo": "6.2.01.011", "nombre": "Donaciones", "tipo": "gasto", "padre_id": grupo}))
	f.Must(http.StatusOK, http.MethodDelete, path("cuentas-contables", vacia), nil)
	f.Must(http.StatusNotFound, http.MethodGet, path("cuentas-contables", vacia), nil)
	// Its code is free again.
	f.Must(http.StatusCreated, http.MethodPost, "/api/cuentas-contables", map[string]any{
		"codigo": "6.2.01.011", "nombre": "Donaciones", "tipo": "gasto", "padre_id": grupo})
}

// Each rule of the chart is a 422 under its field.
func TestChartRulesAre422sUnderTheirFields(t *testing.T) {
	f := setup(t)
	grupo, hoja := f.cuenta("6.2.01"), f.cuenta("6.2.01.001")
	otra := testenv.Scalar[int64](t, f.E, `select id from cuentas_contables where empresa_id = 2 and codigo = '6.2.01'`)
	cuenta := func(kv ...any) map[string]any {
		return testenv.With(map[string]any{"codigo": "6.2.01.050", "nombre": "Nueva", "tipo": "gasto", "padre_id": grupo}, kv...)
	}
	f.E.ExpectInvalid(t, f.Admin, http.MethodPost, "/api/cuentas-contables", []testenv.Invalid{
		{"a code taken in the company", cuenta("codigo", "6.2.01.001"), "codigo"},
		{"a code that is not digits and dots", cuenta("codigo", "6.2.A"), "codigo"},
		{"a code outside the parent's", cuenta("codigo", "6.3.01.001"), "codigo"},
		{"a parent that takes postings", cuenta("padre_id", hoja, "codigo", "6.2.01.001.1"), "padre_id"},
		{"another company's parent", cuenta("padre_id", otra), "padre_id"},
		{"a type other than the parent's", cuenta("tipo", "costo"), "tipo"},
		{"an unknown type", cuenta("tipo", "otro"), "tipo"},
		{"an unknown nature", cuenta("naturaleza", "neutra"), "naturaleza"},
		{"an unknown currency", cuenta("moneda", "EUR"), "moneda"},
		{"no name", cuenta("nombre", ""), "nombre"},
		{"no code", cuenta("codigo", nil), "codigo"},
	})
	caja := f.cuenta("1.1.01.001")
	f.E.ExpectInvalid(t, f.Admin, http.MethodPatch, path("cuentas-contables", hoja), []testenv.Invalid{
		{"changing the code", map[string]any{"codigo": "6.2.01.900"}, "codigo"},
		{"changing the type", map[string]any{"tipo": "costo"}, "tipo"},
		{"changing the parent", map[string]any{"padre_id": f.cuenta("6.1.01")}, "padre_id"},
	})
	f.E.ExpectInvalid(t, f.Admin, http.MethodPatch, path("cuentas-contables", grupo), []testenv.Invalid{
		{"a grouping account with subaccounts taking postings", map[string]any{"acepta_movimientos": true}, "acepta_movimientos"},
	})
	f.E.ExpectInvalid(t, f.Admin, http.MethodPatch, path("cuentas-contables", caja), []testenv.Invalid{
		{"deactivating an account of the posting configuration", map[string]any{"activo": false}, "activo"},
		{"making a configured account a grouping one", map[string]any{"acepta_movimientos": false}, "acepta_movimientos"},
	})
	testenv.Expect422(t, f.Call(http.MethodDelete, path("cuentas-contables", caja), nil), "id")
	testenv.Expect422(t, f.Call(http.MethodDelete, path("cuentas-contables", grupo), nil), "id")
	f.capital("10")
	testenv.Expect422(t, f.Call(http.MethodPatch, path("cuentas-contables", f.cuenta("3.1.01.001")), map[string]any{"acepta_movimientos": false}),
		"acepta_movimientos")
	testenv.Expect422(t, f.Call(http.MethodGet, "/api/cuentas-contables?fecha_corte=2026-02-30", nil), "fecha_corte")
	testenv.Expect422(t, f.Call(http.MethodGet, "/api/cuentas-contables?tipo=otro", nil), "tipo")
	testenv.Expect422(t, f.Call(http.MethodGet, "/api/cuentas-contables?sort=saldo", nil), "sort")
}

// The ledger account of a bank account or cash box holds its money: while
// they use it, it stays an active leaf and is not deleted (a sale or
// payment naming them was then refused under lineas.0.cuenta_id, and the
// box could not be closed); a budgeted account is not deleted either.
func TestLedgerAccountsOfTreasuryStayActiveLeavesAndBudgetedOnesStay(t *testing.T) {
	f := setup(t)
	banco := f.Must(http.StatusCreated, http.MethodPost, "/api/cuentas-bancarias", map[string]any{
		"banco": "BN", "numero": "100-1", "iban": "CR05015202001026284066"})
	delBanco := int64(testenv.Num(banco.JSON, "data.cuenta_contable_id"))
	chica := f.cuenta("1.1.01.002")
	caja := id(f.Must(http.StatusCreated, http.MethodPost, "/api/cajas", map[string]any{"sucursal_id": f.Sucursal, "nombre": "Caja 1",
		"cuenta_contable_id": chica}))
	presupuestada := f.cuenta("6.2.01.099")
	f.Must(http.StatusCreated, http.MethodPost, "/api/presupuestos", map[string]any{"anio": 2026, "cuenta_contable_id": presupuestada,
		"montos": []any{1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1}})
	for _, c := range []struct {
		name   string
		cuenta int64
	}{{"a bank account's", delBanco}, {"a cash box's", chica}} {
		t.Run(c.name, func(t *testing.T) {
			f.E.ExpectInvalid(t, f.Admin, http.MethodPatch, path("cuentas-contables", c.cuenta), []testenv.Invalid{
				{"deactivated", map[string]any{"activo": false}, "activo"},
				{"made a grouping account", map[string]any{"acepta_movimientos": false}, "acepta_movimientos"},
			})
			testenv.Expect422(t, f.Call(http.MethodDelete, path("cuentas-contables", c.cuenta), nil), "id")
		})
	}
	testenv.Expect422(t, f.Call(http.MethodDelete, path("cuentas-contables", presupuestada), nil), "id")
	if n := f.Int(`select count(*) from cuentas_contables where id = any($1) and (eliminado or not activo or not acepta_movimientos)`,
		[]int64{delBanco, chica, presupuestada}); n != 0 {
		t.Errorf("%d accounts changed", n)
	}
	// Once the box takes another account, the old one is free again.
	f.Must(http.StatusOK, http.MethodPatch, path("cajas", caja), map[string]any{"cuenta_contable_id": f.cuenta("1.1.01.001")})
	f.Must(http.StatusOK, http.MethodPatch, path("cuentas-contables", chica), map[string]any{"activo": false})
}

// The posting configuration shows each account next to its id; a PUT
// changes any subset, each an active leaf account of the company.
func TestPostingConfigurationChangesOnlyToActiveLeafAccounts(t *testing.T) {
	f := setup(t)
	r := f.Must(http.StatusOK, http.MethodGet, "/api/contabilidad/configuracion", nil)
	if testenv.Num(r.JSON, "data.cuenta_caja_id") != float64(f.cuenta("1.1.01.001")) || testenv.Str(r.JSON, "data.cuenta_caja.codigo") != "1.1.01.001" ||
		testenv.Str(r.JSON, "data.cuenta_costo_ventas.nombre") != "Costo de mercadería vendida" || testenv.Get(r.JSON, "data.empresa_id") != nil {
		t.Fatalf("configuration: %s", r.Raw)
	}
	chica := f.cuenta("1.1.01.002")
	r = f.Must(http.StatusOK, http.MethodPut, "/api/contabilidad/configuracion", map[string]any{"cuenta_caja_id": chica})
	if testenv.Str(r.JSON, "data.cuenta_caja.codigo") != "1.1.01.002" || testenv.Str(r.JSON, "data.cuenta_bancos.codigo") != "1.1.02.001" {
		t.Fatalf("changed: %s", r.Raw)
	}
	inactiva := f.cuenta("6.2.01.099")
	f.E.Exec(`update cuentas_contables set activo = false where id = $1`, inactiva)
	otra := testenv.Scalar[int64](t, f.E, `select id from cuentas_contables where empresa_id = 2 and codigo = '1.1.01.001'`)
	f.E.ExpectInvalid(t, f.Admin, http.MethodPut, "/api/contabilidad/configuracion", []testenv.Invalid{
		{"a grouping account", map[string]any{"cuenta_bancos_id": f.cuenta("1.1.02")}, "cuenta_bancos_id"},
		{"an inactive account", map[string]any{"cuenta_faltante_caja_id": inactiva}, "cuenta_faltante_caja_id"},
		{"another company's account", map[string]any{"cuenta_ventas_id": otra}, "cuenta_ventas_id"},
		{"an unknown account", map[string]any{"cuenta_ventas_id": 99999999}, "cuenta_ventas_id"},
		{"null", map[string]any{"cuenta_ventas_id": nil}, "cuenta_ventas_id"},
		{"not a number", map[string]any{"cuenta_ventas_id": "x"}, "cuenta_ventas_id"},
	})
	if got := testenv.Str(f.Must(http.StatusOK, http.MethodGet, "/api/contabilidad/configuracion", nil).JSON, "data.cuenta_ventas.codigo"); got != "4.1.01.001" {
		t.Errorf("a refused PUT changed the mapping: %s", got)
	}
	if got := f.Text(`select cuenta_caja_id::text from contabilidad_configuracion where empresa_id = 1`); got != itoa(chica) {
		t.Errorf("stored: %s", got)
	}
}

// Periods list the months with entries or a state; closing stamps who and
// when, reopening when; closing twice or reopening an open month is a 422.
func TestPeriodsCloseAndReopen(t *testing.T) {
	f := setup(t)
	f.capital("100")
	r := f.Must(http.StatusOK, http.MethodPost, "/api/periodos-contables/2026/3/cerrar", nil)
	if testenv.Str(r.JSON, "data.estado") != "cerrado" || testenv.Num(r.JSON, "data.cerrado_por") != 1 || testenv.Str(r.JSON, "data.cerrado_en") == "" ||
		testenv.Num(r.JSON, "data.asientos") != 1 || num(r, "data.total_debe") != "100.00" {
		t.Fatalf("closed: %s", r.Raw)
	}
	testenv.Expect422(t, f.Call(http.MethodPost, "/api/periodos-contables/2026/3/cerrar", nil), "estado")
	f.Must(http.StatusOK, http.MethodPost, "/api/periodos-contables/2025/12/cerrar", nil)
	r = f.Must(http.StatusOK, http.MethodGet, "/api/periodos-contables", nil)
	if testenv.Num(r.JSON, "total") != 2 || testenv.Num(r.JSON, "data.0.mes") != 3 || testenv.Num(r.JSON, "data.1.anio") != 2025 ||
		testenv.Num(r.JSON, "data.1.asientos") != 0 {
		t.Fatalf("list: %s", r.Raw)
	}
	r = f.Must(http.StatusOK, http.MethodPost, "/api/periodos-contables/2026/3/reabrir", nil)
	if testenv.Str(r.JSON, "data.estado") != "abierto" || testenv.Str(r.JSON, "data.reabierto_en") == "" {
		t.Fatalf("reopened: %s", r.Raw)
	}
	testenv.Expect422(t, f.Call(http.MethodPost, "/api/periodos-contables/2026/3/reabrir", nil), "estado")
	testenv.Expect422(t, f.Call(http.MethodPost, "/api/periodos-contables/2026/4/reabrir", nil), "estado")
	if r := f.Must(http.StatusOK, http.MethodGet, "/api/periodos-contables?estado=cerrado", nil); testenv.Num(r.JSON, "total") != 1 {
		t.Errorf("closed months: %s", r.Raw)
	}
	f.Must(http.StatusNotFound, http.MethodPost, "/api/periodos-contables/2026/13/cerrar", nil)
	f.Must(http.StatusNotFound, http.MethodPost, "/api/periodos-contables/x/1/cerrar", nil)
	testenv.Expect422(t, f.Call(http.MethodGet, "/api/periodos-contables?anio=20", nil), "anio")
}

// Exchange rates: one per company and date, both rates above zero.
func TestExchangeRatesOnePerDateAboveZero(t *testing.T) {
	f := setup(t)
	r := f.Must(http.StatusCreated, http.MethodPost, "/api/tipos-cambio", map[string]any{"fecha": "2026-03-15", "compra": "505.1", "venta": 511.25})
	if testenv.Str(r.JSON, "data.moneda") != "USD" || testenv.Num(r.JSON, "data.venta") != 511.25 || testenv.Str(r.JSON, "data.fuente") == "" {
		t.Fatalf("created: %s", r.Raw)
	}
	f.E.ExpectInvalid(t, f.Admin, http.MethodPost, "/api/tipos-cambio", []testenv.Invalid{
		{"a date taken", map[string]any{"fecha": "2026-03-15", "compra": 1, "venta": 1}, "fecha"},
		{"a zero rate", map[string]any{"fecha": "2026-03-16", "compra": 0, "venta": 1}, "compra"},
		{"a negative rate", map[string]any{"fecha": "2026-03-16", "compra": 1, "venta": -5}, "venta"},
		{"no date", map[string]any{"compra": 1, "venta": 1}, "fecha"},
		{"another currency", map[string]any{"fecha": "2026-03-16", "compra": 1, "venta": 1, "moneda": "EUR"}, "moneda"},
	})
	// Another company may use the same date.
	f.E.Call(f.E.Admin(2), http.MethodPost, "/api/tipos-cambio", map[string]any{"fecha": "2026-03-15", "compra": 1, "venta": 1})
	if n := f.Int(`select count(*) from tipos_cambio where fecha = '2026-03-15'`); n != 2 {
		t.Errorf("rates of 2026-03-15: %d", n)
	}
}

// Naming an account while its deletion or deactivation is in flight (the
// posting configuration, a bank account, a cash box, a budget) waits for
// it and is then refused: the check read the account without a lock, so
// the write went through and pointed at an account deleted or deactivated
// a moment later (every sale then failed its posting).
func TestNamingAnAccountWhileItIsDeletedWaitsAndIsRefused(t *testing.T) {
	f := setup(t)
	for _, c := range []struct {
		name, codigo, cambio string
		method, path, campo  string
		body                 func(cuenta int64) map[string]any
	}{
		{"the posting configuration", "6.2.01.099", "eliminado = true, activo = false", http.MethodPut, "/api/contabilidad/configuracion",
			"cuenta_consumo_interno_id", func(c int64) map[string]any { return map[string]any{"cuenta_consumo_interno_id": c} }},
		{"a bank account", "1.1.02.001", "activo = false", http.MethodPost, "/api/cuentas-bancarias", "cuenta_contable_id",
			func(c int64) map[string]any {
				return map[string]any{"banco": "BN", "numero": "1", "iban": "CR05015202001026284066", "cuenta_contable_id": c}
			}},
		{"a cash box", "1.1.01.002", "acepta_movimientos = false", http.MethodPost, "/api/cajas", "cuenta_contable_id",
			func(c int64) map[string]any {
				return map[string]any{"sucursal_id": f.Sucursal, "nombre": "Caja", "cuenta_contable_id": c}
			}},
		{"a budget", "6.2.01.001", "eliminado = true, activo = false", http.MethodPost, "/api/presupuestos", "cuenta_contable_id",
			func(c int64) map[string]any {
				return map[string]any{"anio": 2026, "cuenta_contable_id": c, "montos": []any{1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1}}
			}},
	} {
		t.Run(c.name, func(t *testing.T) {
			cuenta := f.cuenta(c.codigo)
			r := f.trasConfirmar(t, `update cuentas_contables set `+c.cambio+` where id = $1`, []any{cuenta}, c.method, c.path, c.body(cuenta))
			testenv.Expect422(t, r, c.campo)
		})
	}
}

// A posting holds the accounts it checked until it commits, and removing
// an account from postings waits for it (migration 0031): before, a
// posting that checked an account just before it was deleted or
// deactivated still wrote its lines there (a deletion did not wait for the
// lines in flight and could not see them; a posting did not wait for a
// deactivation in flight and read the account as active).
func TestAPostingAndTheDeactivationOrDeletionOfItsAccountDoNotInterleave(t *testing.T) {
	f := setup(t)
	gasto, mobiliario := f.cuenta("6.2.01.002"), f.cuenta("1.2.01.001")
	t.Run("a deletion waits for the posting in flight and sees its lines", func(t *testing.T) {
		r := f.trasConfirmar(t, `select contabilidad_registrar(1, '2026-03-15', 'En curso', 'manual', null, jsonb_build_array(
				jsonb_build_object('cuenta_id', $1::bigint, 'debe', 100), jsonb_build_object('cuenta_id', $2::bigint, 'haber', 100)))`,
			[]any{gasto, mobiliario}, http.MethodDelete, path("cuentas-contables", gasto), nil)
		testenv.Expect422(t, r, "id")
		if n := f.Int(`select count(*) from cuentas_contables where id = $1 and not eliminado`, gasto); n != 1 {
			t.Errorf("the account with the posted lines was deleted")
		}
	})
	t.Run("posting a draft waits for the deactivation in flight and is refused", func(t *testing.T) {
		otro := f.cuenta("6.2.01.001")
		borrador := id(f.Must(http.StatusCreated, http.MethodPost, "/api/asientos-contables",
			asiento("borrador", debe(otro, "50.00"), haber(mobiliario, "50.00"))))
		// What PUT activo=false does: the row for update, then the change.
		r := f.trasConfirmar(t, `update cuentas_contables c set activo = false
				from (select id from cuentas_contables where id = $1 for update) k where c.id = k.id`,
			[]any{otro}, http.MethodPost, path("asientos-contables", borrador, "contabilizar"), nil)
		testenv.Expect422(t, r, "lineas.0.cuenta_id")
		if n := f.Int(`select count(*) from asientos_contables where id = $1 and estado = 'borrador'`, borrador); n != 1 {
			t.Errorf("the draft was posted onto an account deactivated meanwhile")
		}
	})
}

// No account is created under an inactive parent, and an account with
// lines keeps its naturaleza and tipo: a new nature would flip the sign of
// its history in every balance (before, both were accepted).
func TestAnAccountWithLinesKeepsItsNatureAndNoneIsCreatedUnderAnInactiveParent(t *testing.T) {
	f := setup(t)
	inactivo := id(f.Must(http.StatusCreated, http.MethodPost, "/api/cuentas-contables", map[string]any{
		"codigo": "6.2.02", "nombre": "Gastos viejos", "tipo": "gasto", "padre_id": f.cuenta("6.2"),
		"acepta_movimientos": false, "activo": false}))
	testenv.Expect422(t, f.Call(http.MethodPost, "/api/cuentas-contables", map[string]any{
		"codigo": "6.2.02.001", "nombre": "Nueva", "tipo": "gasto", "padre_id": inactivo}), "padre_id")
	f.capital("10")
	capital := f.cuenta("3.1.01.001")
	f.E.ExpectInvalid(t, f.Admin, http.MethodPatch, path("cuentas-contables", capital), []testenv.Invalid{
		{"changing the nature of an account with lines", map[string]any{"naturaleza": "deudora"}, "naturaleza"},
		{"changing the type of an account with lines", map[string]any{"tipo": "pasivo"}, "tipo"},
	})
	if n := f.Int(`select count(*) from cuentas_contables where id = $1 and naturaleza = 'acreedora' and tipo = 'patrimonio'`, capital); n != 1 {
		t.Errorf("the account with lines changed its nature or type")
	}
	// The same nature, and a new one on an account without lines, are fine.
	f.Must(http.StatusOK, http.MethodPatch, path("cuentas-contables", capital), map[string]any{"naturaleza": "acreedora", "nombre": "Capital"})
	r := f.Must(http.StatusOK, http.MethodPatch, path("cuentas-contables", f.cuenta("6.2.01.001")), map[string]any{"naturaleza": "acreedora"})
	if got := testenv.Str(r.JSON, "data.naturaleza"); got != "acreedora" {
		t.Errorf("naturaleza = %q, want acreedora", got)
	}
}
