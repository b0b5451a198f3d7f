package exportar_test

import (
	"encoding/json"
	"slices"
	"testing"
	"time"

	"github.com/shopspring/decimal"

	"github.com/erpcr/erp/shared/exportar"
)

type refEncabezado struct {
	ID     int64  `json:"id"`
	Nombre string `json:"nombre"`
}

type baseEncabezado struct {
	Creado time.Time `json:"creado_en"`
}

type filaEncabezado struct {
	ID int64 `json:"id"`
	baseEncabezado
	Monto   decimal.Decimal `json:"monto"`
	Cliente *refEncabezado  `json:"cliente"`
	Lineas  []refEncabezado `json:"lineas"`
	Nota    *string         `json:"nota"`
	oculto  int
}

// The header of a struct row comes from its fields as a row's JSON shows
// them: an embedded struct's fields are the row's own, a nested object is
// flattened ("cliente.nombre"), a value that writes its own JSON (a
// decimal, a time) is one column, a list is none.
func TestEncabezadoOfAStructRowIsTheHeaderItsRowsGet(t *testing.T) {
	vacia, ok := exportar.Vacia[filaEncabezado]()
	if !ok {
		t.Fatal("a struct row has a shape")
	}
	got, err := exportar.Encabezado(vacia)
	want := []string{"id", "creado_en", "monto", "cliente.id", "cliente.nombre", "nota"}
	if err != nil || !slices.Equal(got, want) {
		t.Fatalf("Encabezado = %q, %v; want %q", got, err, want)
	}
	nota := "x"
	full, err := exportar.Aplanar([]filaEncabezado{{ID: 1, Cliente: &refEncabezado{ID: 2}, Lineas: []refEncabezado{{ID: 4}}, Nota: &nota, oculto: 3}})
	if err != nil || !slices.Equal(full.Columnas, want) {
		t.Fatalf("a full row's header %q, %v; want %q", full.Columnas, err, want)
	}
	if p, ok := exportar.Vacia[*filaEncabezado](); !ok || p == nil || p.Cliente == nil {
		t.Errorf("a pointer row: %v %v", p, ok)
	}
}

// Raw JSON rows and scalars say nothing about their keys: no shape.
func TestVaciaOfRowsWithoutFieldsHasNoShape(t *testing.T) {
	if _, ok := exportar.Vacia[json.RawMessage](); ok {
		t.Error("json.RawMessage has a shape")
	}
	if _, ok := exportar.Vacia[map[string]any](); ok {
		t.Error("a map has a shape")
	}
	if _, ok := exportar.Vacia[decimal.Decimal](); ok {
		t.Error("a decimal has a shape")
	}
}
