package tesoreria_test

import (
	"net/http"
	"strings"
	"testing"

	"github.com/erpcr/erp/shared/tesoreria"
	"github.com/erpcr/erp/shared/testenv"
)

// iban builds a valid Costa Rican IBAN from 18 account digits.
func iban(cuenta string) string { return "CR" + tesoreria.DigitosControl(cuenta) + cuenta }

func TestIBANCheckDigitsFollowISO13616Mod97(t *testing.T) {
	valido := iban("015202001026284066")
	if valido != "CR05015202001026284066" {
		t.Fatalf("computed %s, want the published example CR05015202001026284066", valido)
	}
	otro := iban("010200009876543210")
	cases := []struct {
		name, iban string
		ok         bool
	}{
		{"published example", valido, true},
		{"another computed account", otro, true},
		{"with spaces as printed", "CR05 0152 0200 1026 2840 66", true},
		{"lower case", strings.ToLower(valido), true},
		{"check digits off by one", "CR06015202001026284066", false},
		{"two account digits swapped", "CR05015202001026284606", false},
		{"one digit short", valido[:21], false},
		{"one digit long", valido + "1", false},
		{"not Costa Rica", "GB82WEST12345698765432", false},
		{"letters in the account", "CR0501520200102628406A", false},
		{"empty", "", false},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			msg := tesoreria.ValidarIBAN(tesoreria.NormalizarIBAN(c.iban))
			if (msg == "") != c.ok {
				t.Errorf("%q: message %q, want valid=%v", c.iban, msg, c.ok)
			}
		})
	}
}

func TestBankAccountsValidateTheIBANAndGetALedgerAccountUnderBanks(t *testing.T) {
	f := setup(t)
	valido := iban("015202001026284066")
	base := map[string]any{"banco": "Banco Nacional", "numero": "100-01-000-1", "iban": valido, "moneda": "CRC"}
	f.E.ExpectInvalid(t, f.Admin, http.MethodPost, "/api/cuentas-bancarias", []testenv.Invalid{
		{"wrong check digits", testenv.With(base, "iban", "CR06015202001026284066"), "iban"},
		{"wrong length", testenv.With(base, "iban", "CR0501520200102628406"), "iban"},
		{"not Costa Rican", testenv.With(base, "iban", "GB82WEST12345698765432"), "iban"},
		{"missing", testenv.With(base, "iban", testenv.Absent), "iban"},
		{"unknown currency", testenv.With(base, "moneda", "EUR"), "moneda"},
		{"ledger account of another group", testenv.With(base, "cuenta_contable_id",
			f.Int(`select id from cuentas_contables where empresa_id = 1 and codigo = '1.1.01.001'`)), "cuenta_contable_id"},
		{"grouping ledger account", testenv.With(base, "cuenta_contable_id",
			f.Int(`select id from cuentas_contables where empresa_id = 1 and codigo = '1.1.02'`)), "cuenta_contable_id"},
	})

	r := f.Must(http.StatusCreated, http.MethodPost, "/api/cuentas-bancarias", testenv.With(base, "iban", "cr05 0152 0200 1026 2840 66"))
	if testenv.Str(r.JSON, "data.iban") != valido || testenv.Str(r.JSON, "data.cuenta_contable.codigo") != "1.1.02.002" ||
		testenv.Str(r.JSON, "data.cuenta_contable.nombre") != "Banco Nacional 100-01-000-1" || exact(t, r, "data.saldo") != "0.00" {
		t.Fatalf("created: %s", r.Raw)
	}
	// The same IBAN twice is refused; the seeded 1.1.02.001 can be named.
	testenv.Expect422(t, f.Call(http.MethodPost, "/api/cuentas-bancarias", base), "iban")
	principal := f.Int(`select id from cuentas_contables where empresa_id = 1 and codigo = '1.1.02.001'`)
	r2 := f.Must(http.StatusCreated, http.MethodPost, "/api/cuentas-bancarias", map[string]any{
		"banco": "BAC", "numero": "200", "iban": iban("010200009876543210"), "moneda": "USD", "cuenta_contable_id": principal})
	if int64(testenv.Num(r2.JSON, "data.cuenta_contable_id")) != principal {
		t.Fatalf("named ledger account: %s", r2.Raw)
	}
	// A third account gets the next code; one ledger account holds one bank account.
	testenv.Expect422(t, f.Call(http.MethodPost, "/api/cuentas-bancarias", map[string]any{
		"banco": "BCR", "numero": "300", "iban": iban("015201001012345678"), "cuenta_contable_id": principal}), "cuenta_contable_id")
	r3 := f.Must(http.StatusCreated, http.MethodPost, "/api/cuentas-bancarias", map[string]any{
		"banco": "BCR", "numero": "300", "iban": iban("015201001012345678")})
	if testenv.Str(r3.JSON, "data.cuenta_contable.codigo") != "1.1.02.003" {
		t.Fatalf("third: %s", r3.Raw)
	}
	if r := f.E.Get("/api/cuentas-bancarias?search=bcr", f.Admin); testenv.Num(r.JSON, "total") != 1 {
		t.Fatalf("search: %s", r.Raw)
	}
	u := f.Must(http.StatusOK, http.MethodPatch, path("cuentas-bancarias", id(r3)), map[string]any{"titular": "Demo S.A.", "activo": false})
	if testenv.Str(u.JSON, "data.titular") != "Demo S.A." || testenv.Get(u.JSON, "data.activo") != false {
		t.Fatalf("patch: %s", u.Raw)
	}
	f.Must(http.StatusOK, http.MethodDelete, path("cuentas-bancarias", id(r3)), nil)
	f.Must(http.StatusNotFound, http.MethodGet, path("cuentas-bancarias", id(r3)), nil)
}

// A customer payment naming a bank account is posted to that account's
// ledger account: the account's saldo is the payment. A reconciliation ties
// when the statement shows the book balance less the unreconciled lines.
func TestPaymentsNamingABankAccountMoveItsBalanceAndReconciliationsTieOrAre422(t *testing.T) {
	f := setup(t)
	cuenta := id(f.Must(http.StatusCreated, http.MethodPost, "/api/cuentas-bancarias", map[string]any{
		"banco": "Banco Nacional", "numero": "100-01", "iban": iban("015202001026284066")}))
	venta := id(f.Must(http.StatusCreated, http.MethodPost, "/api/ventas", f.venta(2, "cliente_id", f.cliente)))
	cxc := f.cuentaPorCobrar(venta)
	// An unknown bank account is a 422 under its key, and nothing is paid.
	testenv.Expect422(t, f.Call(http.MethodPost, path("cuentas-por-cobrar", cxc, "/pagos"), map[string]any{
		"monto": 1000, "forma_pago_id": f.forma("04"), "cuenta_bancaria_id": 999999}), "cuenta_bancaria_id")
	for _, monto := range []int{1000, 260} {
		f.Must(http.StatusCreated, http.MethodPost, path("cuentas-por-cobrar", cxc, "/pagos"), map[string]any{
			"monto": monto, "forma_pago_id": f.forma("04"), "cuenta_bancaria_id": cuenta})
	}
	r := f.Must(http.StatusOK, http.MethodGet, path("cuentas-bancarias", cuenta), nil)
	if exact(t, r, "data.saldo") != "1260.00" || testenv.Len(r.JSON, "data.movimientos_pendientes") != 2 {
		t.Fatalf("bank account after the payments: %s", r.Raw)
	}
	// The seeded banks account is untouched: the money went to this one.
	if got := f.Saldo("1.1.02.001"); got != "0.00" {
		t.Errorf("1.1.02.001 = %s, want 0.00", got)
	}
	if got := f.Saldo("1.1.02.002"); got != "1260.00" {
		t.Errorf("1.1.02.002 = %s, want 1260.00", got)
	}
	primera := int64(testenv.Num(r.JSON, "data.movimientos_pendientes.0.id"))
	segunda := int64(testenv.Num(r.JSON, "data.movimientos_pendientes.1.id"))

	conciliar := path("cuentas-bancarias", cuenta, "/conciliaciones")
	// The statement shows only the first payment (1000): it must say 1000.
	no := f.Call(http.MethodPost, conciliar, map[string]any{"fecha_corte": "2099-12-31", "saldo_estado_cuenta": 1100, "movimientos": []int64{primera}})
	testenv.Expect422(t, no, "saldo_estado_cuenta")
	if msg := no.FieldErrors("saldo_estado_cuenta")[0]; !strings.Contains(msg, "1260.00") || !strings.Contains(msg, "debería mostrar 1000.00") {
		t.Errorf("message: %s", msg)
	}
	testenv.Expect422(t, f.Call(http.MethodPost, conciliar, map[string]any{"fecha_corte": "2099-12-31", "saldo_estado_cuenta": 1000,
		"movimientos": []int64{primera, 99999999}}), "movimientos.1")
	si := f.Must(http.StatusCreated, http.MethodPost, conciliar, map[string]any{
		"fecha_corte": "2099-12-31", "saldo_estado_cuenta": "1000.00", "movimientos": []int64{primera}})
	for k, want := range map[string]string{"saldo_libros": "1260.00", "saldo_estado_cuenta": "1000.00", "total_conciliado": "1000.00",
		"total_no_conciliado": "260.00", "diferencia": "260.00"} {
		if got := exact(t, si, "data."+k); got != want {
			t.Errorf("%s = %s, want %s", k, got, want)
		}
	}
	if testenv.Len(si.JSON, "data.movimientos_no_conciliados") != 1 ||
		int64(testenv.Num(si.JSON, "data.movimientos_no_conciliados.0.id")) != segunda {
		t.Errorf("the difference is the outstanding line: %s", si.Raw)
	}
	// A line is reconciled once; the next statement reconciles the rest.
	testenv.Expect422(t, f.Call(http.MethodPost, conciliar, map[string]any{"fecha_corte": "2099-12-31", "saldo_estado_cuenta": 1260,
		"movimientos": []int64{primera, segunda}}), "movimientos.0")
	f.Must(http.StatusCreated, http.MethodPost, conciliar, map[string]any{"fecha_corte": "2099-12-31", "saldo_estado_cuenta": 1260,
		"movimientos": []int64{segunda}})
	l := f.Must(http.StatusOK, http.MethodGet, conciliar, nil)
	if testenv.Num(l.JSON, "total") != 2 || exact(t, l, "data.0.diferencia") != "0.00" {
		t.Fatalf("list: %s", l.Raw)
	}
	if r := f.Call(http.MethodGet, path("cuentas-bancarias", cuenta), nil); testenv.Len(r.JSON, "data.movimientos_pendientes") != 0 {
		t.Errorf("pending after reconciling everything: %s", r.Raw)
	}
	// An account with money cannot be deleted.
	testenv.Expect422(t, f.Call(http.MethodDelete, path("cuentas-bancarias", cuenta), nil), "saldo")
}

// A cash box's session counts its cash sales and payments; the closing
// count's faltante is posted to the faltante account against the box's
// cash account, and a closed box refuses sales.
func TestCashBoxSessionClosesWithAFaltantePostedAndAClosedBoxRefusesSales(t *testing.T) {
	f := setup(t)
	caja := id(f.Must(http.StatusCreated, http.MethodPost, "/api/cajas", map[string]any{"sucursal_id": f.Sucursal, "nombre": "Caja 1", "codigo": "C1"}))
	efectivo := f.forma("01")
	// No open session yet.
	testenv.Expect422(t, f.Call(http.MethodPost, "/api/ventas", f.venta(1, "caja_id", caja, "forma_pago_id", efectivo)), "caja_id")
	testenv.Expect422(t, f.Call(http.MethodPost, path("cajas", caja, "/cerrar"), map[string]any{"monto_contado": 0}), "estado")

	a := f.Must(http.StatusOK, http.MethodPost, path("cajas", caja, "/abrir"), map[string]any{"monto_inicial": "20000.00"})
	if testenv.Str(a.JSON, "data.sesion_abierta.estado") != "abierta" || exact(t, a, "data.sesion_abierta.monto_inicial") != "20000.00" {
		t.Fatalf("open: %s", a.Raw)
	}
	testenv.Expect422(t, f.Call(http.MethodPost, path("cajas", caja, "/abrir"), map[string]any{"monto_inicial": 1}), "estado")
	testenv.Expect422(t, f.Call(http.MethodPost, path("cajas", caja, "/abrir"), map[string]any{}), "monto_inicial")

	// A cash sale (1130), a receivable collected in cash (500), a supplier paid in cash (300).
	v := f.Must(http.StatusCreated, http.MethodPost, "/api/ventas", f.venta(1, "caja_id", caja, "forma_pago_id", efectivo))
	if int64(testenv.Num(v.JSON, "data.caja_sesion_id")) == 0 || int64(testenv.Num(v.JSON, "data.sucursal_id")) != f.Sucursal {
		t.Fatalf("sale: %s", v.Raw)
	}
	credito := id(f.Must(http.StatusCreated, http.MethodPost, "/api/ventas", f.venta(1, "cliente_id", f.cliente)))
	f.Must(http.StatusCreated, http.MethodPost, path("cuentas-por-cobrar", f.cuentaPorCobrar(credito), "/pagos"), map[string]any{
		"monto": 500, "forma_pago_id": efectivo, "caja_id": caja})
	f.Must(http.StatusCreated, http.MethodPost, path("cuentas-por-pagar", f.cuentaPorPagar("800"), "/pagos"), map[string]any{
		"monto": 300, "fecha": "2026-03-10", "forma_pago_id": efectivo, "caja_id": caja})

	c := f.Must(http.StatusOK, http.MethodPost, path("cajas", caja, "/cerrar"), map[string]any{"monto_contado": "21000.00"})
	for k, want := range map[string]string{"ventas_efectivo": "1130.00", "cobros_efectivo": "500.00", "pagos_efectivo": "300.00",
		"monto_esperado": "21330.00", "monto_contado": "21000.00", "diferencia": "-330.00"} {
		if got := exact(t, c, "data."+k); got != want {
			t.Errorf("%s = %s, want %s", k, got, want)
		}
	}
	if testenv.Str(c.JSON, "data.resultado") != "faltante" || testenv.Str(c.JSON, "data.estado") != "cerrada" ||
		!strings.HasPrefix(testenv.Str(c.JSON, "data.asiento_numero"), "AS-") {
		t.Fatalf("close: %s", c.Raw)
	}
	// Faltantes de caja is debited 330; Caja general got the sale, the
	// collection, less the supplier payment and the faltante.
	for codigo, want := range map[string]string{"6.2.01.004": "330.00", "1.1.01.001": "1000.00", "4.2.01.001": "0.00"} {
		if got := f.Saldo(codigo); got != want {
			t.Errorf("account %s = %s, want %s", codigo, got, want)
		}
	}
	if n := f.Int(`select count(*) from asientos_contables where empresa_id = 1 and origen = 'caja' and total_debe = 330`); n != 1 {
		t.Errorf("caja entries: %d", n)
	}
	// The closed box refuses sales and payments; a new session counts from zero.
	testenv.Expect422(t, f.Call(http.MethodPost, "/api/ventas", f.venta(1, "caja_id", caja, "forma_pago_id", efectivo)), "caja_id")
	if n := f.Int(`select count(*) from ventas where empresa_id = 1`); n != 2 {
		t.Errorf("the refused sale left a row: %d sales", n)
	}
	f.Must(http.StatusOK, http.MethodPost, path("cajas", caja, "/abrir"), map[string]any{"monto_inicial": 100})
	s := f.Must(http.StatusOK, http.MethodPost, path("cajas", caja, "/cerrar"), map[string]any{"monto_contado": "150.50"})
	if testenv.Str(s.JSON, "data.resultado") != "sobrante" || exact(t, s, "data.diferencia") != "50.50" || f.Saldo("4.2.01.001") != "-50.50" {
		t.Fatalf("sobrante: %s", s.Raw)
	}
	d := f.Must(http.StatusOK, http.MethodGet, path("cajas", caja), nil)
	if testenv.Len(d.JSON, "data.sesiones") != 2 || testenv.Get(d.JSON, "data.sesion_abierta") != nil {
		t.Errorf("detail: %s", d.Raw)
	}

	// The branch counts its boxes and sales and lists its boxes.
	b := f.Must(http.StatusOK, http.MethodGet, path("sucursales", f.Sucursal), nil)
	if testenv.Num(b.JSON, "data.cajas_count") != 1 || testenv.Num(b.JSON, "data.ventas_count") != 1 ||
		testenv.Len(b.JSON, "data.cajas") != 1 || testenv.Str(b.JSON, "data.cajas.0.nombre") != "Caja 1" {
		t.Errorf("branch: %s", b.Raw)
	}
	l := f.Must(http.StatusOK, http.MethodGet, "/api/sucursales", nil)
	if testenv.Num(l.JSON, "data.0.cajas_count") != 1 || testenv.Num(l.JSON, "data.0.ventas_count") != 1 {
		t.Errorf("branch list: %s", l.Raw)
	}
}

func TestBudgetVersusActualGivesVariancePerAccount(t *testing.T) {
	f := setup(t)
	ventas := f.Int(`select id from cuentas_contables where empresa_id = 1 and codigo = '4.1.01.001'`)
	gastos := f.Int(`select id from cuentas_contables where empresa_id = 1 and codigo = '6.2'`)
	montos := []any{1000, 1000, 5000, 1000, 1000, 1000, 1000, 1000, 1000, 1000, 1000, "1000.50"}
	f.E.ExpectInvalid(t, f.Admin, http.MethodPost, "/api/presupuestos", []testenv.Invalid{
		{"eleven months", map[string]any{"anio": 2026, "cuenta_contable_id": ventas, "montos": montos[:11]}, "montos"},
		{"negative month", map[string]any{"anio": 2026, "cuenta_contable_id": ventas, "montos": append(append([]any{}, montos[:11]...), -1)}, "montos.11"},
		{"unknown account", map[string]any{"anio": 2026, "cuenta_contable_id": 999999, "montos": montos}, "cuenta_contable_id"},
		{"no year", map[string]any{"cuenta_contable_id": ventas, "montos": montos}, "anio"},
	})
	p := f.Must(http.StatusCreated, http.MethodPost, "/api/presupuestos", map[string]any{"anio": 2026, "cuenta_contable_id": ventas, "montos": montos})
	if exact(t, p, "data.total") != "16000.50" || exact(t, p, "data.montos.2") != "5000.00" {
		t.Fatalf("budget: %s", p.Raw)
	}
	testenv.Expect422(t, f.Call(http.MethodPost, "/api/presupuestos", map[string]any{"anio": 2026, "cuenta_contable_id": ventas, "montos": montos}),
		"cuenta_contable_id")
	f.Must(http.StatusCreated, http.MethodPost, "/api/presupuestos", map[string]any{"anio": 2026, "cuenta_contable_id": gastos,
		"montos": []any{0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0}})
	// March: sales of 4 x 1000 (revenue 4000, IVA aside); a sale in April does not count.
	f.Must(http.StatusCreated, http.MethodPost, "/api/ventas", f.venta(4))
	f.Must(http.StatusCreated, http.MethodPost, "/api/ventas", testenv.With(f.venta(1), "fecha_venta", "2026-04-02"))

	r := f.Must(http.StatusOK, http.MethodGet, "/api/reportes/presupuesto-vs-real?anio=2026&mes=3", nil)
	if testenv.Str(r.JSON, "data.tipo") != "presupuesto_vs_real" || testenv.Num(r.JSON, "data.parametros.mes") != 3 ||
		testenv.Str(r.JSON, "data.secciones.0.tipo") != "ingreso" {
		t.Fatalf("report: %s", r.Raw)
	}
	for k, want := range map[string]string{
		"data.secciones.0.cuentas.0.presupuesto": "5000.00", "data.secciones.0.cuentas.0.real": "4000.00",
		"data.secciones.0.cuentas.0.variacion": "-1000.00", "data.secciones.0.cuentas.0.variacion_porcentaje": "-20.00",
		"data.secciones.1.cuentas.0.real": "0.00", "data.secciones.1.cuentas.0.variacion_porcentaje": "null",
		"data.totales.presupuesto": "5000.00", "data.totales.real": "4000.00",
	} {
		if got := exact(t, r, k); got != want {
			t.Errorf("%s = %s, want %s", k, got, want)
		}
	}
	y := f.Must(http.StatusOK, http.MethodGet, "/api/reportes/presupuesto-vs-real?anio=2026", nil)
	if exact(t, y, "data.secciones.0.cuentas.0.real") != "5000.00" || exact(t, y, "data.secciones.0.cuentas.0.variacion_porcentaje") != "-68.75" {
		t.Errorf("year: %s", y.Raw)
	}
	testenv.Expect422(t, f.Call(http.MethodGet, "/api/reportes/presupuesto-vs-real?anio=2026&mes=13", nil), "mes")
	testenv.Expect422(t, f.Call(http.MethodGet, "/api/reportes/presupuesto-vs-real", nil), "anio")
}

// Another company sees none of it: 404 on ids, empty lists and report; a
// user without cajas.* gets 403.
func TestTreasuryIsIsolatedPerCompanyAndNeedsItsPermissions(t *testing.T) {
	f := setup(t)
	cuenta := id(f.Must(http.StatusCreated, http.MethodPost, "/api/cuentas-bancarias", map[string]any{
		"banco": "BN", "numero": "1", "iban": iban("015202001026284066")}))
	caja := id(f.Must(http.StatusCreated, http.MethodPost, "/api/cajas", map[string]any{"sucursal_id": f.Sucursal, "nombre": "Caja"}))
	presupuesto := id(f.Must(http.StatusCreated, http.MethodPost, "/api/presupuestos", map[string]any{"anio": 2026,
		"cuenta_contable_id": f.Int(`select id from cuentas_contables where empresa_id = 1 and codigo = '4.1.01.001'`),
		"montos":             []any{1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1}}))

	otra := f.E.Admin(2)
	for _, c := range []struct{ method, path string }{
		{http.MethodGet, path("cuentas-bancarias", cuenta)}, {http.MethodPatch, path("cuentas-bancarias", cuenta)},
		{http.MethodDelete, path("cuentas-bancarias", cuenta)}, {http.MethodGet, path("cuentas-bancarias", cuenta, "/conciliaciones")},
		{http.MethodGet, path("cajas", caja)}, {http.MethodPost, path("cajas", caja, "/cerrar")},
		{http.MethodDelete, path("presupuestos", presupuesto)}, {http.MethodGet, path("presupuestos", presupuesto)},
	} {
		body := map[string]any{"monto_contado": 0}
		if r := f.E.Call(otra, c.method, c.path, body); r.Status != http.StatusNotFound {
			t.Errorf("%s %s from company 2: %d %s", c.method, c.path, r.Status, r.Raw)
		}
	}
	if r := f.E.Call(otra, http.MethodPost, path("cajas", caja, "/abrir"), map[string]any{"monto_inicial": 1}); r.Status != http.StatusNotFound {
		t.Errorf("open from company 2: %d %s", r.Status, r.Raw)
	}
	// Company 2 naming company 1's box in its own sale: the box does not exist for it.
	testenv.Expect422(t, f.E.Call(otra, http.MethodPost, "/api/ventas", map[string]any{"fecha_venta": "2026-03-10", "tipo_comprobante": "tiquete",
		"caja_id": caja, "detalles": []any{map[string]any{"producto_id": f.Int(`insert into productos (empresa_id, categoria_id, unidad_medida_id, nombre, tipo, precio_venta)
			select 2, c.id, u.id, 'S', 'servicio', 1 from categorias_producto c, unidades_medida u where c.empresa_id = 2 and u.codigo = 'Unid' returning id`),
			"cantidad": 1, "precio_unitario": 1}}}), "caja_id")
	for _, p := range []string{"/api/cuentas-bancarias", "/api/cajas", "/api/presupuestos"} {
		if r := f.E.Get(p, otra); r.Status != http.StatusOK || testenv.Num(r.JSON, "total") != 0 {
			t.Errorf("%s from company 2: %d %s", p, r.Status, r.Raw)
		}
	}
	if r := f.E.Get("/api/reportes/presupuesto-vs-real?anio=2026", otra); r.Status != http.StatusOK || testenv.Len(r.JSON, "data.secciones") != 0 {
		t.Errorf("report from company 2: %s", r.Raw)
	}

	vendedor := f.E.UserWith(t, f.Admin, "sincajas", "ventas.leer", "ventas.crear")
	for _, c := range []struct{ method, path string }{
		{http.MethodGet, "/api/cajas"}, {http.MethodGet, path("cajas", caja)}, {http.MethodPost, path("cajas", caja, "/abrir")},
		{http.MethodPost, path("cajas", caja, "/cerrar")}, {http.MethodPost, "/api/cajas"},
		{http.MethodGet, "/api/cuentas-bancarias"}, {http.MethodGet, "/api/reportes/presupuesto-vs-real?anio=2026"},
	} {
		if r := f.E.Call(vendedor, c.method, c.path, map[string]any{"monto_inicial": 1}); r.Status != http.StatusForbidden {
			t.Errorf("%s %s without the permission: %d %s", c.method, c.path, r.Status, r.Raw)
		}
	}
	lector := f.E.UserWith(t, f.Admin, "lectorcajas", "cajas.leer")
	if r := f.E.Get("/api/cajas", lector); r.Status != http.StatusOK {
		t.Errorf("cajas.leer lists: %d", r.Status)
	}
	if r := f.E.Call(lector, http.MethodPost, path("cajas", caja, "/abrir"), map[string]any{"monto_inicial": 1}); r.Status != http.StatusForbidden {
		t.Errorf("cajas.leer opens: %d %s", r.Status, r.Raw)
	}
}

// Migration 0014 gives the treasury permissions to the predefined roles of
// the companies that existed before it (new companies get them from
// usuarios.EnsurePredefinedRoles): tesoreria_conceder_permisos, which the
// migration runs, restores them once removed, and Contador holds them.
func TestExistingCompaniesGetTheTreasuryPermissions(t *testing.T) {
	f := setup(t)
	contar := func() int64 {
		return f.Int(`select count(*) from rol_permisos rp join roles r on r.id = rp.rol_id join permisos p on p.id = rp.permiso_id
			where r.empresa_id = 1 and r.slug in ('administrador', 'contador', 'gerente') and p.modulo in ('cuentas_bancarias', 'cajas', 'presupuestos')`)
	}
	if n := contar(); n != 36 {
		t.Fatalf("treasury grants of the three roles: %d, want 36", n)
	}
	f.E.Exec(`delete from rol_permisos rp using permisos p where p.id = rp.permiso_id and p.modulo in ('cuentas_bancarias', 'cajas', 'presupuestos')`)
	f.E.Exec(`select tesoreria_conceder_permisos()`)
	if n := contar(); n != 36 {
		t.Fatalf("after the migration's grant: %d, want 36", n)
	}
	if n := f.Int(`select count(*) from rol_permisos rp join roles r on r.id = rp.rol_id join permisos p on p.id = rp.permiso_id
		where r.empresa_id = 1 and r.slug = 'vendedor' and p.modulo = 'cajas'`); n != 0 {
		t.Errorf("vendedor got %d cajas permissions", n)
	}
}

// Naming a cash box or bank account costs a sale no round trip: the box's
// session and the references are checked by the insert's trigger.
func TestASaleNamingACashBoxCostsTheSameRoundTrips(t *testing.T) {
	f := setup(t)
	caja := id(f.Must(http.StatusCreated, http.MethodPost, "/api/cajas", map[string]any{"sucursal_id": f.Sucursal, "nombre": "Caja"}))
	cuenta := id(f.Must(http.StatusCreated, http.MethodPost, "/api/cuentas-bancarias", map[string]any{
		"banco": "BN", "numero": "1", "iban": iban("015202001026284066")}))
	f.Must(http.StatusOK, http.MethodPost, path("cajas", caja, "/abrir"), map[string]any{"monto_inicial": 0})
	vender := func(kv ...any) int64 {
		before := f.E.Queries.Load()
		f.Must(http.StatusCreated, http.MethodPost, "/api/ventas", f.venta(1, kv...))
		return f.E.Queries.Load() - before
	}
	sin := vender()
	conCaja := vender("caja_id", caja, "forma_pago_id", f.forma("01"))
	conBanco := vender("cuenta_bancaria_id", cuenta, "forma_pago_id", f.forma("04"))
	if conCaja != sin || conBanco != sin {
		t.Errorf("round trips: %d without, %d with a cash box, %d with a bank account", sin, conCaja, conBanco)
	}
	t.Logf("a sale: %d round trips, with or without caja_id/cuenta_bancaria_id", sin)
}

// A bank account's detail view lists its unreconciled movements a page of
// 500 at a time, oldest first, with their count and last page; before, it
// listed all of them (a year not reconciled could pass Lambda's 6 MB).
func TestABankAccountShowsItsUnreconciledMovementsAPageAtATime(t *testing.T) {
	f := setup(t)
	cuenta := id(f.Must(http.StatusCreated, http.MethodPost, "/api/cuentas-bancarias", map[string]any{
		"banco": "BN", "numero": "1", "iban": iban("015202001026284066")}))
	libro := f.Int(`select cuenta_contable_id from cuentas_bancarias where id = $1`, cuenta)
	// 1201 deposits of 1.00 in one entry (owner SQL: the API's entries are smaller).
	f.Int(`select contabilidad_registrar(1, '2026-03-01', 'Depósitos', 'manual', null,
		(select jsonb_agg(jsonb_build_object('cuenta_id', $1::bigint, 'debe', 1)) from generate_series(1, 1201))
		|| jsonb_build_array(jsonb_build_object('cuenta_id', (select id from cuentas_contables where empresa_id = 1 and codigo = '3.1.01.001'),
			'haber', 1201)))`, libro)
	primeras := testenv.Column[int64](t, f.E, `select id from asiento_lineas where cuenta_id = $1 order by id limit 500`, libro)
	pagina := func(q string, n int, total int64, ultima int64) testenv.Resp {
		t.Helper()
		r := f.Must(http.StatusOK, http.MethodGet, path("cuentas-bancarias", cuenta)+q, nil)
		if testenv.Len(r.JSON, "data.movimientos_pendientes") != n || testenv.Num(r.JSON, "data.movimientos_pendientes_total") != float64(total) ||
			testenv.Num(r.JSON, "data.movimientos_pendientes_ultima_pagina") != float64(ultima) || exact(t, r, "data.saldo") != "1201.00" {
			t.Fatalf("%s: %d lines, total %v, last page %v", q, testenv.Len(r.JSON, "data.movimientos_pendientes"),
				testenv.Get(r.JSON, "data.movimientos_pendientes_total"), testenv.Get(r.JSON, "data.movimientos_pendientes_ultima_pagina"))
		}
		return r
	}
	r := pagina("", 500, 1201, 3)
	if int64(testenv.Num(r.JSON, "data.movimientos_pendientes.0.id")) != primeras[0] ||
		int64(testenv.Num(r.JSON, "data.movimientos_pendientes.499.id")) != primeras[499] ||
		testenv.Num(r.JSON, "data.movimientos_pendientes_pagina") != 1 {
		t.Errorf("page 1 is not the oldest 500 lines")
	}
	pagina("?movimientos_pagina=3", 201, 1201, 3)
	pagina("?movimientos_pagina=4", 0, 1201, 3)
	pagina("?movimientos_pagina=9223372036854775807", 0, 1201, 3)
	for _, q := range []string{"0", "-1", "abc", "1.5", "9223372036854775808"} {
		testenv.Expect422(t, f.Call(http.MethodGet, path("cuentas-bancarias", cuenta)+"?movimientos_pagina="+q, nil), "movimientos_pagina")
	}
	// Reconciling the first page takes it off the list.
	f.Must(http.StatusCreated, http.MethodPost, path("cuentas-bancarias", cuenta, "/conciliaciones"), map[string]any{
		"fecha_corte": "2026-03-31", "saldo_estado_cuenta": 500, "movimientos": primeras})
	pagina("", 500, 701, 2)
}
