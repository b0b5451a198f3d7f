package importaciones_test

import (
	"archive/zip"
	"bytes"
	"encoding/csv"
	"fmt"
	"io"
	"mime/multipart"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/xuri/excelize/v2"

	"github.com/erpcr/erp/shared/testenv"
)

// sinLimite turns the imports class off: most tests import more than twice.
var sinLimite = testenv.Limite("imports", 0, time.Hour)

// multipartBody builds the form of an import: archivo (named nombre) and,
// unless empty, modo.
func multipartBody(t testing.TB, nombre string, archivo []byte, modo string) ([]byte, string) {
	t.Helper()
	var buf bytes.Buffer
	mw := multipart.NewWriter(&buf)
	if modo != "" {
		if err := mw.WriteField("modo", modo); err != nil {
			t.Fatal(err)
		}
	}
	fw, err := mw.CreateFormFile("archivo", nombre)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := fw.Write(archivo); err != nil {
		t.Fatal(err)
	}
	if err := mw.Close(); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes(), mw.FormDataContentType()
}

func importar(t testing.TB, e *testenv.Env, tok, tipo, nombre string, archivo []byte, modo string) testenv.Resp {
	t.Helper()
	body, ct := multipartBody(t, nombre, archivo, modo)
	return e.Do(testenv.Req{Method: http.MethodPost, Path: "/api/importaciones/" + tipo, Token: tok, Body: body,
		Headers: map[string]string{"Content-Type": ct}})
}

func csvDe(t testing.TB, filas [][]string) []byte {
	t.Helper()
	var buf bytes.Buffer
	buf.WriteString("\ufeff")
	w := csv.NewWriter(&buf)
	if err := w.WriteAll(filas); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

func contar(t testing.TB, e *testenv.Env, empresa int, tabla string) int64 {
	t.Helper()
	return testenv.Scalar[int64](t, e, `select count(*) from `+tabla+` where empresa_id = $1`, empresa)
}

// errores maps "fila/campo" to the messages of a report.
func errores(r testenv.Resp) map[string][]string {
	out := map[string][]string{}
	list, _ := testenv.Get(r.JSON, "data.errores").([]any)
	for _, x := range list {
		m := x.(map[string]any)
		key := fmt.Sprintf("%v/%v", m["fila"], m["campo"])
		for _, msg := range m["mensajes"].([]any) {
			out[key] = append(out[key], msg.(string))
		}
	}
	return out
}

const cabeceraClientes = "tipo_identificacion,identificacion,nombre,apellidos,email,limite_credito,dias_credito,activo"

// clientesConErrores: row 2 is valid, row 3 a bad cédula, row 4 lacks the
// required identificacion, row 5 repeats row 2's cédula, row 6 is a
// customer the company already has, row 7 a bad boolean and a bad number.
func clientesConErrores(existente string) []byte {
	return []byte(cabeceraClientes + "\n" +
		"fisica,101110111,Ana,Solís,ana@ejemplo.cr,1000.50,30,sí\n" +
		"fisica,12345,Beto,Mora,,,,\n" +
		"fisica,,Carla,Ruiz,,,,\n" +
		"fisica,1-0111-0111,Dora,Vega,,,,no\n" +
		"fisica," + existente + ",Eva,Soto,,,,\n" +
		"juridica,3101999888,,,,abc,,tal vez\n")
}

func TestValidarReportsEveryRowErrorWithTheAPIsMessagesAndWritesNothing(t *testing.T) {
	e, admin := testenv.NewAdmin(t, sinLimite)
	existente := "606660666"
	e.Create(t, admin, "/api/clientes", map[string]any{"tipo_identificacion": "fisica", "identificacion": existente, "nombre": "Existente"})
	antes := contar(t, e, 1, "clientes")

	r := importar(t, e, admin, "clientes", "clientes.csv", clientesConErrores(existente), "")
	if r.Status != http.StatusOK || testenv.Str(r.JSON, "data.modo") != "validar" || testenv.Num(r.JSON, "data.filas") != 6 ||
		testenv.Num(r.JSON, "data.validas") != 1 || testenv.Get(r.JSON, "data.creados") != nil {
		t.Fatalf("%d %s", r.Status, r.Raw)
	}
	// The same messages as POST /api/clientes with the same values.
	api := e.Call(admin, http.MethodPost, "/api/clientes", map[string]any{"tipo_identificacion": "fisica", "identificacion": "12345", "nombre": "Beto"})
	cedula := api.FieldErrors("identificacion")
	if api.Status != http.StatusUnprocessableEntity || len(cedula) == 0 {
		t.Fatalf("API: %d %s", api.Status, api.Raw)
	}
	got := errores(r)
	want := map[string][]string{
		"3/identificacion": cedula,
		"4/identificacion": {"El campo identificacion es obligatorio."},
		"5/identificacion": {"Ya existe un cliente con esa identificación en esta empresa."},
		"6/identificacion": {"Ya existe un cliente con esa identificación en esta empresa."},
		"7/nombre":         {"El campo nombre es obligatorio cuando no se indica razon social."},
		"7/limite_credito": {"El campo limite credito debe ser un número."},
		"7/activo":         {"El campo activo debe ser verdadero o falso."},
	}
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("errores:\n got %v\nwant %v", got, want)
	}
	if despues := contar(t, e, 1, "clientes"); despues != antes {
		t.Errorf("validar wrote %d clientes", despues-antes)
	}
}

func TestAplicarIsAllOrNothing(t *testing.T) {
	e, admin := testenv.NewAdmin(t, sinLimite)
	antes := contar(t, e, 1, "clientes")
	eventos := testenv.Scalar[int64](t, e, `select count(*) from eventos where empresa_id = 1`)

	t.Run("a file with errors writes nothing and answers 422", func(t *testing.T) {
		r := importar(t, e, admin, "clientes", "clientes.csv", clientesConErrores("101110111"), "aplicar")
		if r.Status != http.StatusUnprocessableEntity || testenv.Num(r.JSON, "data.validas") != 1 ||
			len(r.FieldErrors("filas.3.identificacion")) == 0 || r.JSON["success"] != false {
			t.Fatalf("%d %s", r.Status, r.Raw)
		}
		if n := contar(t, e, 1, "clientes"); n != antes {
			t.Errorf("wrote %d clientes", n-antes)
		}
	})

	t.Run("a clean file creates every row", func(t *testing.T) {
		archivo := csvDe(t, [][]string{
			{"tipo_identificacion", "identificacion", "nombre", "apellidos", "telefono", "limite_credito", "activo"},
			{"fisica", "2-0222-0222", "Importado", "Uno", "8888-1234", "1500.25", "sí"},
			{"juridica", "3101777666", "", "", "", "", "no"},
		})
		r := importar(t, e, admin, "clientes", "clientes.csv", archivo, "aplicar")
		// Row 3 (a jurídica) needs a razon_social or a nombre.
		if r.Status != http.StatusUnprocessableEntity || len(r.FieldErrors("filas.3.nombre")) == 0 {
			t.Fatalf("%d %s", r.Status, r.Raw)
		}
		archivo = csvDe(t, [][]string{
			{"tipo_identificacion", "identificacion", "nombre", "apellidos", "razon_social", "telefono", "limite_credito", "activo"},
			{"fisica", "2-0222-0222", "Importado", "Uno", "", "8888-1234", "1500.25", "sí"},
			{"juridica", "3101777666", "", "", "Importadora S.A.", "", "", "no"},
		})
		r = importar(t, e, admin, "clientes", "clientes.csv", archivo, "aplicar")
		if r.Status != http.StatusCreated || testenv.Num(r.JSON, "data.creados") != 2 || testenv.Len(r.JSON, "data.errores") != 0 {
			t.Fatalf("%d %s", r.Status, r.Raw)
		}
		l := e.Get("/api/clientes?search=202220222", admin)
		if testenv.Len(l.JSON, "data") != 1 || testenv.Str(l.JSON, "data.0.telefono") != "88881234" ||
			testenv.Exact(t, l.Raw, "data.0.limite_credito") != "1500.25" || testenv.Get(l.JSON, "data.0.activo") != true {
			t.Fatalf("imported customer: %s", l.Raw)
		}
		l = e.Get("/api/clientes?search=3101777666", admin)
		if testenv.Len(l.JSON, "data") != 1 || testenv.Get(l.JSON, "data.0.activo") != false {
			t.Fatalf("imported company: %s", l.Raw)
		}
		// Like POST /api/clientes, each creation is a ClienteCreado event.
		if n := testenv.Scalar[int64](t, e, `select count(*) from eventos where empresa_id = 1`); n != eventos+2 {
			t.Errorf("eventos: %d new, want 2", n-eventos)
		}
		// The event carries the customer as POST's does (same keys).
		e.Create(t, admin, "/api/clientes", map[string]any{"tipo_identificacion": "fisica", "identificacion": "808880888", "nombre": "Por API"})
		claves := testenv.Column[string](t, e, `select string_agg(k, ',' order by k) from eventos ev, jsonb_object_keys(ev.payload) k
			where ev.empresa_id = 1 and ev.payload->>'identificacion' in ('202220222', '808880888') group by ev.id order by ev.id`)
		if len(claves) != 2 || claves[0] != claves[1] || !strings.Contains(claves[0], "nombre_completo") {
			t.Errorf("event payload keys: %q", claves)
		}
	})
}

func TestAnXLSXFileImportsItsFirstSheet(t *testing.T) {
	e, admin := testenv.NewAdmin(t, sinLimite)
	f := excelize.NewFile()
	defer f.Close()
	rows := [][]any{
		{"nombre", "nit_ruc", "dias_credito", "limite_credito", "activo"},
		{"Proveedor Excel", "3-101-555444", 45, 2500.5, true},
		{},
		{"Otro Excel", "3101555333", 0, 0, "no"},
	}
	for i, row := range rows {
		cell, _ := excelize.CoordinatesToCellName(1, i+1)
		if err := f.SetSheetRow("Sheet1", cell, &row); err != nil {
			t.Fatal(err)
		}
	}
	var buf bytes.Buffer
	if err := f.Write(&buf); err != nil {
		t.Fatal(err)
	}
	r := importar(t, e, admin, "proveedores", "proveedores.xlsx", buf.Bytes(), "aplicar")
	if r.Status != http.StatusCreated || testenv.Num(r.JSON, "data.creados") != 2 || testenv.Num(r.JSON, "data.filas") != 2 {
		t.Fatalf("%d %s", r.Status, r.Raw)
	}
	l := e.Get("/api/proveedores?search=3101555444", admin)
	if testenv.Len(l.JSON, "data") != 1 || testenv.Num(l.JSON, "data.0.dias_credito") != 45 || testenv.Exact(t, l.Raw, "data.0.limite_credito") != "2500.50" {
		t.Fatalf("%s", l.Raw)
	}
	// Row numbers are the sheet's: the blank row 3 is skipped, row 4 keeps its number.
	r = importar(t, e, admin, "proveedores", "proveedores.xlsx", buf.Bytes(), "validar")
	if got := errores(r); len(got["2/nit_ruc"]) == 0 || len(got["4/nit_ruc"]) == 0 {
		t.Fatalf("%d %s", r.Status, r.Raw)
	}
}

func TestBadFilesAndParametersAreRefused(t *testing.T) {
	e, admin := testenv.NewAdmin(t, sinLimite)
	cases := []struct {
		name, tipo, archivo, modo string
		status                    int
		field                     string
	}{
		{"unknown column", "clientes", "identificacion,color\n1,2\n", "", 422, "archivo"},
		{"no header", "clientes", "\n\n", "", 422, "archivo"},
		{"header only", "clientes", "identificacion,nombre\n", "", 422, "archivo"},
		{"binary file", "clientes", "\x00\xff\xfe\x01binario", "", 422, "archivo"},
		{"broken xlsx", "clientes", "PK\x03\x04roto", "", 422, "archivo"},
		{"bad modo", "clientes", "identificacion\n1\n", "borrar", 422, "modo"},
		{"unknown tipo", "facturas", "identificacion\n1\n", "", 404, ""},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			r := importar(t, e, admin, c.tipo, "datos.csv", []byte(c.archivo), c.modo)
			if r.Status != c.status || (c.field != "" && len(r.FieldErrors(c.field)) == 0) {
				t.Fatalf("%d %s", r.Status, r.Raw)
			}
		})
	}
	t.Run("not multipart", func(t *testing.T) {
		r := e.Call(admin, http.MethodPost, "/api/importaciones/clientes", map[string]any{"archivo": "x"})
		if r.Status != http.StatusUnsupportedMediaType {
			t.Fatalf("%d %s", r.Status, r.Raw)
		}
	})
	t.Run("a file over 5 MB is 413", func(t *testing.T) {
		grande := []byte(cabeceraClientes + "\n" + strings.Repeat("fisica,101110111,Ana,Solís,,,,\n", 6<<20/32))
		r := importar(t, e, admin, "clientes", "grande.csv", grande, "validar")
		if r.Status != http.StatusRequestEntityTooLarge {
			t.Fatalf("%d %s", r.Status, r.Raw[:min(len(r.Raw), 300)])
		}
	})
	t.Run("a JSON body over 1 MiB is still 413", func(t *testing.T) {
		r := e.Call(admin, http.MethodPost, "/api/clientes", map[string]any{"observaciones": strings.Repeat("x", 1<<20)})
		if r.Status != http.StatusRequestEntityTooLarge {
			t.Fatalf("%d %s", r.Status, r.Raw)
		}
	})
}

func TestTheTemplateListsTheImportableColumnsAndImportsBack(t *testing.T) {
	e, admin := testenv.NewAdmin(t, sinLimite)
	for _, tipo := range []string{"clientes", "proveedores"} {
		t.Run(tipo+" csv", func(t *testing.T) {
			r := e.Get("/api/importaciones/plantillas/"+tipo, admin)
			if r.Status != http.StatusOK || !strings.HasPrefix(r.Header.Get("Content-Type"), "text/csv") ||
				r.Header.Get("Content-Disposition") != `attachment; filename="plantilla-`+tipo+`.csv"` {
				t.Fatalf("%d %v %s", r.Status, r.Header, r.Raw)
			}
			recs, err := csv.NewReader(bytes.NewReader(bytes.TrimPrefix(r.Raw, []byte("\ufeff")))).ReadAll()
			if err != nil || len(recs) != 2 || len(recs[0]) != len(recs[1]) {
				t.Fatalf("%v %q", err, r.Raw)
			}
			// The example row passes the API's rules.
			v := importar(t, e, admin, tipo, "plantilla.csv", r.Raw, "validar")
			if v.Status != http.StatusOK || testenv.Num(v.JSON, "data.validas") != 1 {
				t.Fatalf("%d %s", v.Status, v.Raw)
			}
		})
	}
	t.Run("productos excel", func(t *testing.T) {
		r := e.Get("/api/importaciones/plantillas/productos?formato=excel", admin)
		if r.Status != http.StatusOK || r.Header.Get("Content-Type") != "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet" {
			t.Fatalf("%d %v", r.Status, r.Header)
		}
		f, err := excelize.OpenReader(bytes.NewReader(r.Raw))
		if err != nil {
			t.Fatal(err)
		}
		defer f.Close()
		rows, err := f.GetRows(f.GetSheetList()[0])
		if err != nil || len(rows) != 2 || rows[0][0] != "categoria_id" || !contiene(rows[0], "precio_venta") {
			t.Fatalf("%v %v", err, rows)
		}
	})
	t.Run("bad formato", func(t *testing.T) {
		if r := e.Get("/api/importaciones/plantillas/clientes?formato=pdf", admin); r.Status != http.StatusUnprocessableEntity {
			t.Fatalf("%d %s", r.Status, r.Raw)
		}
	})
}

func contiene(xs []string, x string) bool {
	for _, y := range xs {
		if y == x {
			return true
		}
	}
	return false
}

func TestImportNeedsTheCreatePermissionOfItsTipo(t *testing.T) {
	e, admin := testenv.NewAdmin(t, sinLimite)
	vendedor := e.UserWith(t, admin, "importador", "clientes.crear")
	lector := e.UserWith(t, admin, "lector", "clientes.leer")
	archivo := []byte("tipo_identificacion,identificacion,nombre\nfisica,303330333,Permitido\n")
	if r := importar(t, e, vendedor, "clientes", "c.csv", archivo, "validar"); r.Status != http.StatusOK {
		t.Fatalf("clientes.crear importing clientes: %d %s", r.Status, r.Raw)
	}
	if r := importar(t, e, vendedor, "productos", "p.csv", []byte("nombre\nX\n"), "validar"); r.Status != http.StatusForbidden {
		t.Fatalf("clientes.crear importing productos: %d %s", r.Status, r.Raw)
	}
	if r := e.Get("/api/importaciones/plantillas/productos", vendedor); r.Status != http.StatusForbidden {
		t.Fatalf("template of productos: %d %s", r.Status, r.Raw)
	}
	if r := importar(t, e, lector, "clientes", "c.csv", archivo, "validar"); r.Status != http.StatusForbidden {
		t.Fatalf("clientes.leer: %d %s", r.Status, r.Raw)
	}
}

func TestImportsCountInTheImportsRateClass(t *testing.T) {
	e, admin := testenv.NewAdmin(t, testenv.Limite("imports", 1, 24*time.Hour))
	archivo := []byte("tipo_identificacion,identificacion,nombre\nfisica,404440444,Limitado\n")
	if r := importar(t, e, admin, "clientes", "c.csv", archivo, "validar"); r.Status != http.StatusOK {
		t.Fatalf("first: %d %s", r.Status, r.Raw)
	}
	if r := importar(t, e, admin, "clientes", "c.csv", archivo, "validar"); r.Status != http.StatusTooManyRequests || r.Header.Get("Retry-After") == "" {
		t.Fatalf("second: %d %s", r.Status, r.Raw)
	}
}

func TestImportedRowsLandInTheCallersCompanyOnly(t *testing.T) {
	e := testenv.NewParallel(t, sinLimite)
	admin1, admin2 := e.Admin(1), e.Admin(2)
	// A cédula company 1 already has is free in company 2.
	existente := "707770777"
	e.Create(t, admin1, "/api/clientes", map[string]any{"tipo_identificacion": "fisica", "identificacion": existente, "nombre": "Empresa Uno"})
	antes1 := contar(t, e, 1, "clientes")
	archivo := []byte("tipo_identificacion,identificacion,nombre\nfisica," + existente + ",Empresa Dos\n")
	r := importar(t, e, admin2, "clientes", "c.csv", archivo, "aplicar")
	if r.Status != http.StatusCreated {
		t.Fatalf("%d %s", r.Status, r.Raw)
	}
	if n := testenv.Scalar[int64](t, e, `select count(*) from clientes where empresa_id = 2 and identificacion = $1`, existente); n != 1 {
		t.Errorf("company 2 has %d", n)
	}
	if n := contar(t, e, 1, "clientes"); n != antes1 {
		t.Errorf("company 1 changed by %d", n-antes1)
	}
	if l := e.Get("/api/clientes?search=Empresa%20Dos", admin1); testenv.Len(l.JSON, "data") != 0 {
		t.Errorf("company 1 sees it: %s", l.Raw)
	}
	// A product row cannot name another company's category.
	cat1 := testenv.Scalar[int64](t, e, `select id from categorias_producto where empresa_id = 1 order by id limit 1`)
	p := importar(t, e, admin2, "productos", "p.csv", []byte(fmt.Sprintf("categoria_id,unidad_medida_id,nombre,tipo,precio_venta\n%d,1,Ajeno,producto,10\n", cat1)), "validar")
	if got := errores(p); fmt.Sprint(got["2/categoria_id"]) != "[La categoría seleccionada no existe en esta empresa.]" {
		t.Fatalf("%d %s", p.Status, p.Raw)
	}
}

// TestImportOf10000Clientes measures one aplicar of 10,000 rows through the
// local gateway (the brief's budget: well under the 29 s HTTP timeout).
func TestImportOf10000Clientes(t *testing.T) {
	if testing.Short() {
		t.Skip("long")
	}
	e, admin := testenv.NewAdmin(t, sinLimite)
	filas := [][]string{{"tipo_identificacion", "identificacion", "nombre", "apellidos", "email", "telefono", "limite_credito", "dias_credito", "activo"}}
	for i := range 10_000 {
		filas = append(filas, []string{"fisica", fmt.Sprintf("5%08d", i), "Cliente", fmt.Sprintf("Masivo %d", i),
			fmt.Sprintf("cliente%d@ejemplo.cr", i), "8888-1234", "1000.00", "30", "sí"})
	}
	archivo := csvDe(t, filas)
	antes := contar(t, e, 1, "clientes")
	inicio := time.Now()
	r := importar(t, e, admin, "clientes", "masivo.csv", archivo, "aplicar")
	dur := time.Since(inicio)
	if r.Status != http.StatusCreated || testenv.Num(r.JSON, "data.creados") != 10_000 {
		t.Fatalf("%d %s", r.Status, r.Raw[:min(len(r.Raw), 500)])
	}
	if n := contar(t, e, 1, "clientes"); n != antes+10_000 {
		t.Errorf("created %d", n-antes)
	}
	t.Logf("10,000 clientes (%d KB) imported with modo=aplicar in %s", len(archivo)>>10, dur.Round(time.Millisecond))
}

func TestTheVersionedPathsServeTheSameImport(t *testing.T) {
	e, admin := testenv.NewAdmin(t, sinLimite)
	for _, v := range []string{"v1", "v2"} {
		t.Run(v, func(t *testing.T) {
			body, ct := multipartBody(t, "c.csv", []byte("tipo_identificacion,identificacion,nombre\nfisica,12,X\n"), "validar")
			r := e.Do(testenv.Req{Method: http.MethodPost, Path: "/api/" + v + "/importaciones/clientes", Token: admin, Body: body,
				Headers: map[string]string{"Content-Type": ct}})
			if r.Status != http.StatusOK || len(errores(r)["2/identificacion"]) == 0 {
				t.Fatalf("%d %s", r.Status, r.Raw)
			}
			p := e.Get("/api/"+v+"/importaciones/plantillas/clientes", admin)
			if p.Status != http.StatusOK || !bytes.HasPrefix(p.Raw, []byte("\ufefftipo_identificacion,")) {
				t.Fatalf("%d %s", p.Status, p.Raw)
			}
		})
	}
}

func TestADatabaseErrorEndsTheReportAtItsRow(t *testing.T) {
	e, admin := testenv.NewAdmin(t, sinLimite)
	// A trigger stands for what only the database catches: a unique index
	// the pre-check cannot see (a concurrent import) or any other refusal.
	e.Exec(`create function importaciones_prueba() returns trigger language plpgsql as $$
		begin
			if new.nombre = 'Duplicado' then
				raise exception 'duplicado' using errcode = 'unique_violation', constraint = 'clientes_empresa_id_identificacion_key';
			elsif new.nombre = 'Roto' then
				raise exception 'roto';
			end if;
			return new;
		end $$`)
	e.Exec(`create trigger importaciones_prueba before insert on clientes for each row execute function importaciones_prueba()`)
	antes := contar(t, e, 1, "clientes")
	cases := []struct {
		name, nombre, campo, mensaje string
	}{
		{"a unique violation blames its field", "Duplicado", "identificacion", "Ya existe un cliente con esa identificación en esta empresa."},
		{"another error blames the row", "Roto", "", ""},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			archivo := []byte("tipo_identificacion,identificacion,nombre\n" +
				"fisica,901110111,Bien\n" +
				"fisica,901110222," + c.nombre + "\n" +
				"fisica,12,Cédula mala sin revisar\n")
			r := importar(t, e, admin, "clientes", "c.csv", archivo, "aplicar")
			list, _ := testenv.Get(r.JSON, "data.errores").([]any)
			if r.Status != http.StatusUnprocessableEntity || len(list) != 1 || testenv.Num(r.JSON, "data.validas") != 1 {
				t.Fatalf("%d %s", r.Status, r.Raw)
			}
			got := list[0].(map[string]any)
			msgs := fmt.Sprint(got["mensajes"])
			if got["fila"] != float64(3) || got["campo"] != c.campo || !strings.Contains(msgs, c.mensaje) ||
				!strings.Contains(msgs, "la importación se detuvo aquí") {
				t.Fatalf("%v", got)
			}
			if n := contar(t, e, 1, "clientes"); n != antes {
				t.Errorf("wrote %d", n-antes)
			}
		})
	}
}

// libroCon is a one-sheet workbook of clientes (header and one valid row)
// with an extra part of the given unzipped size, and, when filas > 0, that
// many more rows appended to the sheet's XML.
func libroCon(t *testing.T, extra string, tamano, filas int) []byte {
	t.Helper()
	x := excelize.NewFile()
	x.SetSheetRow("Sheet1", "A1", &[]any{"tipo_identificacion", "identificacion", "nombre"})
	x.SetSheetRow("Sheet1", "A2", &[]any{"fisica", "101110111", "Ana"})
	var libro bytes.Buffer
	if err := x.Write(&libro); err != nil {
		t.Fatal(err)
	}
	zr, err := zip.NewReader(bytes.NewReader(libro.Bytes()), int64(libro.Len()))
	if err != nil {
		t.Fatal(err)
	}
	var out bytes.Buffer
	zw := zip.NewWriter(&out)
	for _, f := range zr.File {
		rc, err := f.Open()
		if err != nil {
			t.Fatal(err)
		}
		parte, _ := io.ReadAll(rc)
		rc.Close()
		w, _ := zw.Create(f.Name)
		if f.Name == "xl/worksheets/sheet1.xml" && filas > 0 {
			s := string(parte)
			i := strings.Index(s, "</sheetData>")
			io.WriteString(w, s[:i])
			for n := 3; n < filas+3; n++ {
				fmt.Fprintf(w, `<row r="%d"><c r="A%d" t="inlineStr"><is><t>fisica</t></is></c></row>`, n, n)
			}
			io.WriteString(w, s[i:])
			continue
		}
		w.Write(parte)
	}
	if extra != "" {
		w, _ := zw.Create(extra)
		cero := make([]byte, 1<<20)
		for i := 0; i < tamano>>20; i++ {
			w.Write(cero)
		}
	}
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	return out.Bytes()
}

// A workbook is a zip: a small file may unzip to gigabytes. Its declared
// sizes are checked before it is opened, so a "zip bomb" is a 422 (not the
// server reading it into memory), while an ordinary book still imports.
func TestAWorkbookThatUnzipsTooLargeIsRefusedBeforeItIsRead(t *testing.T) {
	e, admin := testenv.NewAdmin(t, sinLimite)
	cases := []struct {
		name    string
		archivo []byte
		status  int
		mensaje string
	}{
		{"an ordinary book with a small extra part imports", libroCon(t, "xl/media/logo.bin", 1<<20, 0), 200, ""},
		{"a part unzipping to 120 MB (over 100 MB in all)", libroCon(t, "xl/media/relleno.bin", 120<<20, 0), 422, "descomprimido es demasiado grande"},
		{"a part just over 16 MB", libroCon(t, "docProps/relleno.xml", 17<<20, 0), 422, "descomprimido es demasiado grande"},
		{"300,000 rows are refused without reading them all", libroCon(t, "", 0, 300_000), 422, "más de 10000 filas"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			inicio := time.Now()
			r := importar(t, e, admin, "clientes", "libro.xlsx", c.archivo, "validar")
			if r.Status != c.status || (c.mensaje != "" && !strings.Contains(fmt.Sprint(r.FieldErrors("archivo")), c.mensaje)) {
				t.Fatalf("%d %s", r.Status, r.Raw)
			}
			if d := time.Since(inicio); d > 5*time.Second {
				t.Errorf("took %v", d)
			}
		})
	}
}

// A multipart body with two files would import one of them by chance: it
// is refused, and nothing is written.
func TestTwoFilesInOneImportAreRefused(t *testing.T) {
	e, admin := testenv.NewAdmin(t, sinLimite)
	antes := contar(t, e, 1, "clientes")
	var buf bytes.Buffer
	mw := multipart.NewWriter(&buf)
	mw.WriteField("modo", "aplicar")
	for _, ced := range []string{"101110111", "101110222"} {
		fw, _ := mw.CreateFormFile("archivo", ced+".csv")
		io.WriteString(fw, "tipo_identificacion,identificacion,nombre\nfisica,"+ced+",Ana\n")
	}
	mw.Close()
	r := e.Do(testenv.Req{Method: http.MethodPost, Path: "/api/importaciones/clientes", Token: admin, Body: buf.Bytes(),
		Headers: map[string]string{"Content-Type": mw.FormDataContentType()}})
	testenv.Expect422(t, r, "archivo")
	if n := contar(t, e, 1, "clientes"); n != antes {
		t.Errorf("wrote %d clientes", n-antes)
	}
}

// A file may carry cells a spreadsheet would run as formulas: they are
// imported as the text they are, and the list's CSV export writes them
// back with a leading apostrophe, so opening the export runs nothing.
func TestFormulaLikeCellsImportAsTextAndExportNeutralized(t *testing.T) {
	e, admin := testenv.NewAdmin(t, sinLimite)
	archivo := csvDe(t, [][]string{
		{"tipo_identificacion", "identificacion", "nombre", "apellidos", "direccion"},
		{"fisica", "101110111", `=HYPERLINK("http://malo.cr","clic")`, "@SUMA", "-1+1"},
	})
	r := importar(t, e, admin, "clientes", "c.csv", archivo, "aplicar")
	if r.Status != http.StatusCreated {
		t.Fatalf("%d %s", r.Status, r.Raw)
	}
	if got := testenv.Scalar[string](t, e, `select nombre from clientes where empresa_id = 1 and identificacion = '101110111'`); got != `=HYPERLINK("http://malo.cr","clic")` {
		t.Fatalf("stored %q", got)
	}
	x := e.Get("/api/clientes?formato=csv&search=101110111", admin)
	if x.Status != http.StatusOK {
		t.Fatalf("%d %s", x.Status, x.Raw)
	}
	rows := testenv.CSVRows(t, x.Raw)
	if len(rows) != 2 {
		t.Fatalf("%q", rows)
	}
	col := map[string]string{}
	for i, h := range rows[0] {
		col[h] = rows[1][i]
	}
	for campo, want := range map[string]string{"nombre": `'=HYPERLINK("http://malo.cr","clic")`, "apellidos": "'@SUMA",
		"direccion": "'-1+1", "identificacion": "101110111"} {
		if col[campo] != want {
			t.Errorf("%s = %q, want %q", campo, col[campo], want)
		}
	}
}

// fila is the row a spreadsheet shows: a quoted field spanning lines keeps
// its record on one row (its text keeps the line break), while a blank
// line is a row of its own; CRLF files number the same.
func TestRowNumbersFollowTheSpreadsheetAcrossQuotedLineBreaks(t *testing.T) {
	e, admin := testenv.NewAdmin(t, sinLimite)
	for _, fin := range []string{"\n", "\r\n"} {
		t.Run(fmt.Sprintf("line end %q", fin), func(t *testing.T) {
			archivo := strings.ReplaceAll("tipo_identificacion,identificacion,nombre,direccion\n"+
				"fisica,101110111,Ana,\"Del parque\n200 m norte\n(casa verde)\"\n"+ // row 2, three lines
				"fisica,12,Beto,Centro\n"+ // row 3: a bad cédula
				"\n"+ // row 4: blank
				"fisica,,Carla,\"a\nb\"\n"+ // row 5: no identificación
				"fisica,13,Dora,x\n", "\n", fin) // row 6
			r := importar(t, e, admin, "clientes", "c.csv", []byte(archivo), "validar")
			got := errores(r)
			if r.Status != http.StatusOK || testenv.Num(r.JSON, "data.filas") != 4 || len(got["3/identificacion"]) == 0 ||
				len(got["5/identificacion"]) == 0 || len(got["6/identificacion"]) == 0 || len(got) != 3 {
				t.Fatalf("%d %v %s", r.Status, got, r.Raw)
			}
		})
	}
	r := importar(t, e, admin, "clientes", "c.csv", []byte("tipo_identificacion,identificacion,nombre,direccion\r\n"+
		"fisica,101110111,Ana,\"Del parque\r\n200 m norte\"\r\n"), "aplicar")
	if r.Status != http.StatusCreated {
		t.Fatalf("%d %s", r.Status, r.Raw)
	}
	if d := testenv.Scalar[string](t, e, `select direccion from clientes where empresa_id = 1 and identificacion = '101110111'`); d != "Del parque\n200 m norte" {
		t.Errorf("direccion %q", d)
	}
}
