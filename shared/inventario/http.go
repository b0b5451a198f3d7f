package inventario

import (
	"context"
	"errors"
	"fmt"
	"net/http"

	"github.com/erpcr/erp/shared/apperr"
	"github.com/erpcr/erp/shared/auth"
	"github.com/erpcr/erp/shared/db"
	"github.com/erpcr/erp/shared/handler"
	"github.com/erpcr/erp/shared/httpx"
	"github.com/erpcr/erp/shared/lambdahttp"
	"github.com/erpcr/erp/shared/plataforma"
	"github.com/erpcr/erp/shared/valid"
)

// Handlers returns the group's handlers keyed by route name.
func (s *Service) Handlers() lambdahttp.Handlers {
	hs := lambdahttp.Handlers{
		"inventario.transferencias.store": handler.Create(s.DB, "Transferencia registrada y procesada correctamente.", decodeTransferencia, transferir),
		"inventario.existencias.index":    handler.List(s.DB, listaExistencias),
	}
	for _, c := range []clase{entradas, salidas} {
		hs["inventario."+c.recurso+".index"] = handler.List(s.DB, lista(c))
		hs["inventario."+c.recurso+".store"] = handler.Create(s.DB, "", decodeMovimiento(c), registrar(c))
		hs["inventario."+c.recurso+".show"] = handler.Show(s.DB, func(ctx context.Context, tx *db.Tx, p auth.Principal, id int64) (Vista, error) {
			return uno(ctx, tx, p, c, id)
		})
		hs["inventario."+c.recurso+".procesar"] = handler.Action(s.DB, c.titulo+" procesada correctamente.", handler.NoBody, procesar(c))
		hs["inventario."+c.recurso+".cancelar"] = handler.Action(s.DB, c.titulo+" cancelada correctamente.", handler.NoBody, cancelar(c))
	}
	return hs
}

// filtrosMovimiento reads the list filters and its order; each bad value
// is a 422 on its parameter, all at once.
func filtrosMovimiento(r *http.Request, c clase) (order string, args []any, err error) {
	f := httpx.NewFilters(r)
	order = "m.fecha desc, m.id desc"
	almacen, producto := f.ID("almacen_id"), f.ID("producto_id")
	desde, hasta := f.Date("fecha_inicio"), f.Date("fecha_fin")
	if desde != nil && hasta != nil && hasta.Before(*desde) {
		f.Fail("fecha_fin", "El campo fecha fin debe ser una fecha posterior o igual a fecha inicio.")
	}
	var tipo, estado *string
	if v := f.Value("tipo"); v != "" {
		t, ok := tipoCanonico(c.clase, v)
		if !ok {
			f.Fail("tipo", msgTipo(c.clase))
		}
		tipo = &t
	}
	if v := f.Value("estado"); v != "" {
		var e string
		for _, s := range []string{Pendiente, Procesada, Cancelada} {
			if fold(s) == fold(v) {
				e = s
			}
		}
		if e == "" {
			f.Fail("estado", "El estado seleccionado no es válido. Valores permitidos: Pendiente, Procesada, Cancelada.")
		}
		estado = &e
	}
	// Newest first unless a sort is asked for; a bad one is reported with
	// the bad filters.
	if r.URL.Query().Get("sort") != "" || r.URL.Query().Get("order") != "" {
		o, err := f.Sort(movimientoSorts, "m.id")
		if err != nil {
			return "", nil, err
		}
		order = o + ", m.id"
	} else if err := f.Err(); err != nil {
		return "", nil, err
	}
	return order, []any{almacen, tipo, estado, desde, hasta, producto, httpx.SearchQuery(r)}, nil
}

// lista lists the movements of a class, newest first unless a sort is
// asked for.
func lista(c clase) handler.QueryFunc[Vista] {
	return func(r *http.Request, p auth.Principal) (handler.Query[Vista], error) {
		order, filtros, err := filtrosMovimiento(r, c)
		if err != nil {
			return handler.Query[Vista]{}, err
		}
		return handler.Query[Vista]{Cols: vistaCols, From: vistaFrom + movimientoWhere, Order: order,
			Args: append([]any{c.clase}, filtros...), Scan: scanVista}, nil
	}
}

// registrar creates a movement of class c (and processes it when asked,
// which needs inventario.actualizar): warehouse, supplier, customer and
// products must be the tenant's, checked in the transaction.
func registrar(c clase) handler.CreateFunc[movimientoInput, handler.Respuesta[Vista]] {
	return func(ctx context.Context, tx *db.Tx, p auth.Principal, x movimientoInput) (handler.Respuesta[Vista], error) {
		var out handler.Respuesta[Vista]
		if x.procesar {
			if err := puedeProcesar(p); err != nil {
				return out, err
			}
		}
		ref, err := cargarReferencias(ctx, tx, []int64{x.almacenID}, x.proveedorID, x.clienteID, x.lineas)
		if err != nil {
			return out, err
		}
		chk := valid.NewInput(nil)
		if !ref.almacenes[x.almacenID] {
			chk.Fail("almacen_id", "El almacén seleccionado no existe en esta empresa.")
		}
		if x.proveedorID != nil && !ref.proveedor {
			chk.Fail("proveedor_id", "El proveedor seleccionado no existe en esta empresa.")
		}
		if x.clienteID != nil && !ref.cliente {
			chk.Fail("cliente_id", "El cliente seleccionado no existe en esta empresa.")
		}
		lineas := validarLineas(chk, ref, x.lineas)
		if err := chk.Err(); err != nil {
			return out, err
		}
		id, err := Crear(ctx, tx, Movimiento{
			Clase: c.clase, Tipo: x.tipo, AlmacenID: x.almacenID, Fecha: x.fecha, UsuarioID: p.UsuarioID,
			ProveedorID: x.proveedorID, ClienteID: x.clienteID, Observaciones: x.observaciones, Lineas: lineas,
			Procesar: x.procesar, PermitirNegativo: ref.permiteNegativo,
		})
		var falta *FaltaStock
		if errors.As(err, &falta) {
			return out, faltaStock(falta)
		}
		if err != nil {
			return out, err
		}
		v, err := buscar(ctx, tx, c.clase, []int64{id})
		if err == nil && len(v) == 0 {
			err = fmt.Errorf("inventario: movimiento %d creado no visible", id)
		}
		if err != nil {
			return out, err
		}
		out = handler.Respuesta[Vista]{Mensaje: c.titulo + " registrada correctamente.", Datos: v[0]}
		if x.procesar {
			out.Mensaje = c.titulo + " registrada y procesada correctamente."
		}
		return out, nil
	}
}

// pendiente locks a movement of the class that must still be pending: one
// already processed or cancelled is a 422 on estado with the action's
// message for that state. permiteNegativo is the company's setting.
func pendiente(ctx context.Context, tx *db.Tx, c clase, id int64, siProcesada, siCancelada string) (permiteNegativo bool, err error) {
	estado, negativo, err := bloquear(ctx, tx, c, id)
	if err != nil {
		return false, err
	}
	switch estado {
	case Procesada:
		return false, apperr.InvalidField("estado", siProcesada)
	case Cancelada:
		return false, apperr.InvalidField("estado", siCancelada)
	}
	return negativo, nil
}

// procesar applies a pending movement's stock.
func procesar(c clase) handler.ActionFunc[struct{}, Vista] {
	return func(ctx context.Context, tx *db.Tx, p auth.Principal, id int64, _ struct{}) (Vista, error) {
		negativo, err := pendiente(ctx, tx, c, id, "La "+c.nombre+" ya fue procesada.", "La "+c.nombre+" está cancelada y no puede procesarse.")
		if err != nil {
			return Vista{}, err
		}
		err = Procesar(ctx, tx, id, negativo)
		var falta *FaltaStock
		if errors.As(err, &falta) {
			return Vista{}, faltaStock(falta)
		}
		if err != nil {
			return Vista{}, err
		}
		return uno(ctx, tx, p, c, id)
	}
}

// cancelar cancels a pending movement.
func cancelar(c clase) handler.ActionFunc[struct{}, Vista] {
	return func(ctx context.Context, tx *db.Tx, p auth.Principal, id int64, _ struct{}) (Vista, error) {
		if _, err := pendiente(ctx, tx, c, id, "No se puede cancelar una "+c.nombre+" procesada.", "La "+c.nombre+" ya está cancelada."); err != nil {
			return Vista{}, err
		}
		if err := Cancelar(ctx, tx, id); err != nil {
			return Vista{}, err
		}
		return uno(ctx, tx, p, c, id)
	}
}

// transferir moves stock between two warehouses of the tenant: an exit of
// type Transferencia from the origin (FIFO, never below zero whatever the
// negative-stock setting, since the entry must carry real batches) and an
// entry of type Transferencia to the destination with exactly the batches
// and costs the exit consumed, linked to each other, both Procesada, in one
// transaction.
func transferir(ctx context.Context, tx *db.Tx, p auth.Principal, x transferenciaInput) (Transferencia, error) {
	if err := puedeProcesar(p); err != nil {
		return Transferencia{}, err
	}
	in := valid.NewInput(nil)
	ref, err := cargarReferencias(ctx, tx, []int64{x.origenID, x.destinoID}, nil, nil, x.lineas)
	if err != nil {
		return Transferencia{}, err
	}
	if !ref.almacenes[x.origenID] {
		in.Fail("almacen_origen_id", "El almacén de origen no existe en esta empresa.")
	}
	if !ref.almacenes[x.destinoID] {
		in.Fail("almacen_destino_id", "El almacén de destino no existe en esta empresa.")
	}
	lineas := validarLineas(in, ref, x.lineas)
	if err := in.Err(); err != nil {
		return Transferencia{}, err
	}
	// Lock the stock rows of both warehouses in one global order, so
	// that transfers in opposite directions cannot deadlock.
	productos := make([]int64, len(lineas))
	for i, l := range lineas {
		productos[i] = l.ProductoID
	}
	if _, err := tx.Exec(ctx, `select 1 from inventarios where empresa_id = $1 and almacen_id = any($2) and producto_id = any($3)
			and not eliminado order by almacen_id, producto_id, fecha_vencimiento nulls last, creado_en, id for update`,
		tx.EmpresaID(), []int64{x.origenID, x.destinoID}, productos); err != nil {
		return Transferencia{}, fmt.Errorf("inventario: bloquear existencias: %w", err)
	}
	salida, err := Crear(ctx, tx, Movimiento{
		Clase: Salida, Tipo: "Transferencia", AlmacenID: x.origenID, Fecha: x.fecha, UsuarioID: p.UsuarioID,
		Observaciones: x.observaciones, Lineas: lineas, Procesar: true,
	})
	var falta *FaltaStock
	if errors.As(err, &falta) {
		return Transferencia{}, faltaStock(falta)
	}
	if err != nil {
		return Transferencia{}, err
	}
	consumido, err := Consumido(ctx, tx, salida)
	if err != nil {
		return Transferencia{}, err
	}
	entrada, err := Crear(ctx, tx, Movimiento{
		Clase: Entrada, Tipo: "Transferencia", AlmacenID: x.destinoID, Fecha: x.fecha, UsuarioID: p.UsuarioID,
		Observaciones: x.observaciones, MovimientoParID: &salida, Lineas: consumido, Procesar: true,
	})
	if err != nil {
		return Transferencia{}, err
	}
	if _, err := tx.Exec(ctx, `update movimientos_inventario set movimiento_par_id = $3 where empresa_id = $1 and id = $2`,
		tx.EmpresaID(), salida, entrada); err != nil {
		return Transferencia{}, fmt.Errorf("inventario: enlazar transferencia: %w", err)
	}
	vs, err := buscar(ctx, tx, "", []int64{salida, entrada})
	if err != nil {
		return Transferencia{}, err
	}
	if len(vs) != 2 {
		return Transferencia{}, fmt.Errorf("inventario: transferencia %d/%d no visible", salida, entrada)
	}
	return Transferencia{Salida: vs[0], Entrada: vs[1]}, nil
}

// existencias lists stock per warehouse and product (pairs that ever had a
// batch row), filtered by almacen_id, producto_id, bajo_minimo and search
// (product name, code, barcode), paginated; lotes=1 adds the batches.
func listaExistencias(r *http.Request, p auth.Principal) (handler.Query[Existencia], error) {
	f := httpx.NewFilters(r)
	almacen, producto := f.ID("almacen_id"), f.ID("producto_id")
	bajo, conLotes := f.Bool("bajo_minimo"), f.Bool("lotes")
	order, err := f.Sort(existenciaSorts, "p.nombre")
	if err != nil {
		return handler.Query[Existencia]{}, err
	}
	q := handler.Query[Existencia]{Cols: existenciaCols, From: existenciaFrom, Order: order + ", s.almacen_id, s.producto_id",
		Args: []any{almacen, producto, bajo, httpx.SearchQuery(r)}, Scan: scanExistencia}
	if conLotes != nil && *conLotes {
		q.Load = func(ctx context.Context, tx *db.Tx, rows []Existencia) error {
			if len(rows) == 0 {
				return nil
			}
			return cargarLotes(ctx, tx, rows)
		}
	}
	return q, nil
}

func decodeMovimiento(c clase) handler.DecodeFunc[movimientoInput] {
	return func(in *valid.Input) (movimientoInput, error) {
		x := readMovimiento(in, c.clase)
		return x, in.Err()
	}
}

func decodeTransferencia(in *valid.Input) (transferenciaInput, error) {
	x := readTransferencia(in)
	return x, in.Err()
}

// Grupo is the "inventario" function group (functions/inventario/main.go).
func Grupo(d *plataforma.Deps) lambdahttp.Handlers {
	return (&Service{DB: d.DB}).Handlers()
}
