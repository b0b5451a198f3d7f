package inventario

import (
	"context"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/shopspring/decimal"

	"github.com/erpcr/erp/shared/apperr"
	"github.com/erpcr/erp/shared/db"
	"github.com/erpcr/erp/shared/horacr"
	"github.com/erpcr/erp/shared/valid"
)

// MaxLineas bounds the lines of one movement or transfer.
const MaxLineas = 500

// lineaInput is a validated line of a request.
type lineaInput struct {
	productoID int64
	cantidad   decimal.Decimal
	costo      *decimal.Decimal // entries; nil = the product's precio_compra
	lote       string
	vence      *time.Time
}

// movimientoInput is a validated entry or exit request.
type movimientoInput struct {
	tipo          string
	almacenID     int64
	fecha         time.Time
	observaciones *string
	proveedorID   *int64
	clienteID     *int64
	procesar      bool
	lineas        []lineaInput
}

var (
	reglaCantidad = valid.Dec{Required: true, Scale: 3, Positive: true, Limit: decimal.New(1, 13)}
	reglaCosto    = valid.Dec{Scale: 4, Limit: decimal.New(1, 14)}
)

// fold compares type names ignoring case, accents and repeated spaces
// ("devolución  cliente" is "Devolucion Cliente").
func fold(s string) string {
	s = strings.ToLower(strings.Join(strings.Fields(s), " "))
	return strings.NewReplacer("á", "a", "é", "e", "í", "i", "ó", "o", "ú", "u", "ü", "u").Replace(s)
}

// tiposDe lists the types of a class.
func tiposDe(clase string) []string {
	if clase == Salida {
		return TiposSalida
	}
	return TiposEntrada
}

// msgTipo is the message for a type that is not one of the class's.
func msgTipo(clase string) string {
	return "El tipo seleccionado no es válido. Valores permitidos: " + strings.Join(tiposDe(clase), ", ") + "."
}

// tipoCanonico maps a sent type to its canonical spelling for the class.
func tipoCanonico(clase, tipo string) (string, bool) {
	for _, t := range tiposDe(clase) {
		if fold(t) == fold(tipo) {
			return t, true
		}
	}
	return "", false
}

// readLineas reads detalles: at least one line, each an object with
// producto_id and cantidad; entry lines may add costo_unitario, lote and
// fecha_vencimiento. Messages go under detalles.N.campo.
func readLineas(in *valid.Input, entry bool) []lineaInput {
	items, ok := in.List("detalles", true)
	if !ok {
		return nil
	}
	if len(items) == 0 {
		in.Fail("detalles", "Debe incluir al menos un detalle.")
		return nil
	}
	if len(items) > MaxLineas {
		in.Fail("detalles", "No puede incluir más de "+strconv.Itoa(MaxLineas)+" detalles.")
		return nil
	}
	out := make([]lineaInput, 0, len(items))
	for i, raw := range items {
		prefix := "detalles." + strconv.Itoa(i) + "."
		li, ok := in.Elemento("detalles", i, raw, "Cada detalle debe ser un objeto con producto_id y cantidad.")
		if !ok {
			continue
		}
		var l lineaInput
		l.productoID, _ = li.Int("producto_id", valid.Int{Required: true, Min: valid.Min(1)})
		l.cantidad, _ = li.Decimal("cantidad", reglaCantidad)
		if entry {
			if c, ok := li.Decimal("costo_unitario", reglaCosto); ok {
				l.costo = &c
			}
			l.lote, _ = li.String("lote", valid.Str{Max: 100})
			if d, ok := li.Date("fecha_vencimiento", false); ok {
				l.vence = &d
			}
		}
		in.Merge(prefix, li)
		out = append(out, l)
	}
	return out
}

// readMovimiento reads an entry or exit request.
func readMovimiento(in *valid.Input, clase string) movimientoInput {
	var x movimientoInput
	if t, ok := in.String("tipo", valid.Str{Required: true, Max: 30}); ok {
		if x.tipo, ok = tipoCanonico(clase, t); !ok {
			in.Fail("tipo", msgTipo(clase))
		}
	}
	x.almacenID, _ = in.Int("almacen_id", valid.Int{Required: true, Min: valid.Min(1)})
	x.fecha = horacr.Hoy()
	if d, ok := in.Date("fecha", false); ok {
		x.fecha = d
	}
	if v, ok := in.String("observaciones", valid.Str{Max: 2000}); ok {
		x.observaciones = &v
	}
	if v, ok := in.Int("proveedor_id", valid.Int{Min: valid.Min(1)}); ok {
		x.proveedorID = &v
	}
	if v, ok := in.Int("cliente_id", valid.Int{Min: valid.Min(1)}); ok {
		x.clienteID = &v
	}
	x.procesar, _ = in.Bool("procesar", false)
	x.lineas = readLineas(in, clase == Entrada)
	return x
}

// transferenciaInput is a validated transfer request.
type transferenciaInput struct {
	origenID, destinoID int64
	fecha               time.Time
	observaciones       *string
	lineas              []lineaInput
}

func readTransferencia(in *valid.Input) transferenciaInput {
	var x transferenciaInput
	x.origenID, _ = in.Int("almacen_origen_id", valid.Int{Required: true, Min: valid.Min(1)})
	x.destinoID, _ = in.Int("almacen_destino_id", valid.Int{Required: true, Min: valid.Min(1)})
	if x.origenID > 0 && x.origenID == x.destinoID {
		in.Fail("almacen_destino_id", "El almacén de destino debe ser distinto del almacén de origen.")
	}
	x.fecha = horacr.Hoy()
	if d, ok := in.Date("fecha", false); ok {
		x.fecha = d
	}
	if v, ok := in.String("observaciones", valid.Str{Max: 2000}); ok {
		x.observaciones = &v
	}
	x.lineas = readLineas(in, false)
	return x
}

// referencias is what a request names that must exist in the tenant.
type referencias struct {
	almacenes       map[int64]bool
	proveedor       bool
	cliente         bool
	productos       map[int64]productoRef
	permiteNegativo bool
}

type productoRef struct {
	gestionado   bool
	precioCompra decimal.Decimal
}

// sqlPermiteNegativo reads the company setting inventario.permitir_stock_negativo
// (a JSON true, "true" or 1 turns it on).
const sqlPermiteNegativo = `select coalesce((select c.valor in ('true'::jsonb, '"true"'::jsonb, '1'::jsonb) from configuraciones c
	where c.empresa_id = $1 and c.clave = 'inventario.permitir_stock_negativo' and c.activo and not c.eliminado), false)`

// PermiteNegativo reports whether the company lets exits leave stock below
// zero (setting inventario.permitir_stock_negativo).
func PermiteNegativo(ctx context.Context, q *db.Tx) (bool, error) {
	empresaID := q.EmpresaID()
	var ok bool
	if err := q.QueryRow(ctx, sqlPermiteNegativo, empresaID).Scan(&ok); err != nil {
		return false, fmt.Errorf("inventario: configuración: %w", err)
	}
	return ok, nil
}

// cargarReferencias checks warehouses, supplier, customer and products of
// the tenant and reads the negative-stock setting, in one round trip.
func cargarReferencias(ctx context.Context, q *db.Tx, almacenes []int64, proveedorID, clienteID *int64, lineas []lineaInput) (referencias, error) {
	empresaID := q.EmpresaID()
	productos := make([]int64, len(lineas))
	for i, l := range lineas {
		productos[i] = l.productoID
	}
	b := &pgx.Batch{}
	b.Queue(`select id from almacenes where empresa_id = $1 and id = any($2) and not eliminado`, empresaID, almacenes)
	b.Queue(`select exists (select 1 from proveedores where empresa_id = $1 and id = $2 and not eliminado)`, empresaID, proveedorID)
	b.Queue(`select exists (select 1 from clientes where empresa_id = $1 and id = $2 and not eliminado)`, empresaID, clienteID)
	b.Queue(`select id, gestionado_inventario, precio_compra::text from productos where empresa_id = $1 and id = any($2) and not eliminado`, empresaID, productos)
	b.Queue(sqlPermiteNegativo, empresaID)
	br := q.SendBatch(ctx, b)
	defer br.Close()
	ref := referencias{almacenes: map[int64]bool{}, productos: map[int64]productoRef{}}
	rows, _ := br.Query()
	ids, err := pgx.CollectRows(rows, pgx.RowTo[int64])
	if err != nil {
		return ref, fmt.Errorf("inventario: almacenes: %w", err)
	}
	for _, id := range ids {
		ref.almacenes[id] = true
	}
	if err := br.QueryRow().Scan(&ref.proveedor); err != nil {
		return ref, fmt.Errorf("inventario: proveedor: %w", err)
	}
	if err := br.QueryRow().Scan(&ref.cliente); err != nil {
		return ref, fmt.Errorf("inventario: cliente: %w", err)
	}
	rows, _ = br.Query()
	for rows.Next() {
		var id int64
		var p productoRef
		var precio string
		if err := rows.Scan(&id, &p.gestionado, &precio); err != nil {
			rows.Close()
			return ref, fmt.Errorf("inventario: productos: %w", err)
		}
		p.precioCompra, _ = decimal.NewFromString(precio)
		ref.productos[id] = p
	}
	if err := rows.Err(); err != nil {
		return ref, fmt.Errorf("inventario: productos: %w", err)
	}
	if err := br.QueryRow().Scan(&ref.permiteNegativo); err != nil {
		return ref, fmt.Errorf("inventario: configuración: %w", err)
	}
	return ref, nil
}

// validarLineas records a message for every line whose product is not a
// stock-keeping product of the tenant and turns the lines into engine lines
// (an entry line without costo_unitario costs the product's precio_compra).
func validarLineas(in *valid.Input, ref referencias, lineas []lineaInput) []Linea {
	out := make([]Linea, len(lineas))
	for i, l := range lineas {
		key := "detalles." + strconv.Itoa(i) + ".producto_id"
		p, ok := ref.productos[l.productoID]
		switch {
		case l.productoID == 0:
			// already reported by the reader
		case !ok:
			in.Fail(key, "El producto seleccionado no existe en esta empresa.")
		case !p.gestionado:
			in.Fail(key, "El producto seleccionado no lleva control de inventario.")
		}
		costo := p.precioCompra
		if l.costo != nil {
			costo = *l.costo
		}
		out[i] = Linea{ProductoID: l.productoID, Cantidad: l.cantidad, CostoUnitario: costo, Lote: l.lote, FechaVencimiento: l.vence}
	}
	return out
}

// faltaStock turns the engine's report into a 422 on the line's cantidad.
func faltaStock(f *FaltaStock) error {
	return apperr.InvalidField("detalles."+strconv.Itoa(f.Linea)+".cantidad", f.Error())
}
