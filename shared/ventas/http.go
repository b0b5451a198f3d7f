package ventas

import (
	"context"
	"net/http"

	"github.com/erpcr/erp/shared/auth"
	"github.com/erpcr/erp/shared/db"
	"github.com/erpcr/erp/shared/horacr"
	"github.com/erpcr/erp/shared/plataforma"
	"github.com/erpcr/erp/shared/valid"

	"github.com/erpcr/erp/shared/handler"
	"github.com/erpcr/erp/shared/httpx"
	"github.com/erpcr/erp/shared/lambdahttp"
)

// Handlers returns the group's handlers keyed by route name.
func (s *Service) Handlers() lambdahttp.Handlers {
	update := handler.Action(s.DB, "Venta actualizada correctamente.", decodeCambio, cambiarEstado)
	return lambdahttp.Handlers{
		"ventas.index":             handler.List(s.DB, listaVentas),
		"ventas.store":             handler.Create(s.DB, msgVentaCreada, decodeVenta, crearVenta),
		"ventas.show":              handler.Show(s.DB, Buscar),
		"ventas.update":            update,
		"ventas.patch":             update,
		"ventas.destroy":           handler.Action(s.DB, "Venta anulada y eliminada correctamente.", handler.NoBody, eliminar),
		"cuentas-por-cobrar.index": handler.List(s.DB, listaCuentas),
		"cuentas-por-cobrar.show":  handler.Show(s.DB, BuscarCuenta),
		"cuentas-por-cobrar.pagos": handler.CreateUnder(s.DB, "Pago registrado correctamente.", decodePago, registrarPago),
	}
}

// listaCuentas lists receivables: filters cliente_id, venta_id, estado and
// vencidas=1 (pending and due before today).
func listaCuentas(r *http.Request, p auth.Principal) (handler.Query[CuentaPorCobrar], error) {
	f := httpx.NewFilters(r)
	cliente, venta := f.ID("cliente_id"), f.ID("venta_id")
	estado := f.OneOf("estado", EstadosCuenta)
	vencidas := f.Bool("vencidas")
	order, err := f.SortNewest(cuentaSorts, "c.id")
	if err != nil {
		return handler.Query[CuentaPorCobrar]{}, err
	}
	return handler.Query[CuentaPorCobrar]{Cols: cuentaCols, From: `from cuentas_por_cobrar c where c.empresa_id = $1 and not c.eliminado
		and ($2::bigint is null or c.cliente_id = $2)
		and ($3::bigint is null or c.venta_id = $3)
		and ($4::text is null or c.estado = $4)
		and ($5::boolean is not true or (c.estado = 'pendiente' and c.fecha_vencimiento < ` + horacr.HoySQL + `))`, Order: order + ", c.id desc",
		Args: []any{cliente, venta, estado, vencidas},
		Scan: scanCuenta, Load: func(ctx context.Context, tx *db.Tx, cs []CuentaPorCobrar) error {
			return loadCuentas(ctx, tx, cs, false)
		}}, nil
}

// index lists the tenant's sales. empresa_id is accepted and ignored: the
// tenant is always the active company.
func listaVentas(r *http.Request, p auth.Principal) (handler.Query[Venta], error) {
	f := httpx.NewFilters(r)
	sucursal, cliente := f.ID("sucursal_id"), f.ID("cliente_id")
	desde, hasta := f.Range("fecha_inicio", "fecha_fin")
	estado := f.OneOf("estado", Estados)
	tipo := f.OneOf("tipo_comprobante", TiposComprobante)
	condicion := f.OneOf("condicion_venta", []string{Contado, Credito})
	order, err := f.SortNewest(ventaSorts, "v.id")
	if err != nil {
		return handler.Query[Venta]{}, err
	}
	return handler.Query[Venta]{Cols: ventaCols, From: `from ventas v where v.empresa_id = $1 and not v.eliminado
		and ($2::bigint is null or v.sucursal_id = $2)
		and ($3::bigint is null or v.cliente_id = $3)
		and ($4::date is null or v.fecha_venta >= $4)
		and ($5::date is null or v.fecha_venta <= $5)
		and ($6::text is null or v.estado = $6)
		and ($7::text is null or v.tipo_comprobante = $7)
		and ($8::text is null or v.condicion_venta = $8)
		and ($9::text is null or v.numero_comprobante ilike $9)`, Order: order + ", v.id desc",
		Args: []any{sucursal, cliente, desde, hasta, estado, tipo, condicion, httpx.SearchQuery(r)},
		Scan: scanVenta, Load: func(ctx context.Context, tx *db.Tx, vs []Venta) error {
			return loadVentas(ctx, tx, vs, false)
		}}, nil
}

func decodePago(in *valid.Input) (pagoIn, error) {
	x := pagoIn{in: in}
	x.monto, x.montoOK = in.Decimal("monto", valid.Dec{Required: true, Scale: 2, Min: valid.D("0.01"),
		MinMsg: "El campo monto debe ser mayor que 0."})
	x.fecha, x.fechaOK = in.Date("fecha", false)
	x.formaPago = in.OptionalID("forma_pago_id")
	x.cuentaBancaria = in.OptionalID("cuenta_bancaria_id")
	x.caja = in.OptionalID("caja_id")
	if v, ok := in.String("referencia", valid.Str{Max: 100}); ok {
		x.ref = &v
	}
	return x, in.Err()
}

func decodeVenta(in *valid.Input) (ventaBody, error) {
	x := readVenta(in)
	return ventaBody{in: in, x: x}, in.Err()
}

func decodeCambio(in *valid.Input) (cambio, error) {
	var c cambio
	c.obsSent = in.Has("observaciones")
	if v, ok := in.String("observaciones", valid.Str{Max: 2000}); ok {
		c.obs = &v
	}
	c.estado, c.estadoSent = in.OneOf("estado", false, Estados)
	return c, in.Err()
}

// Grupo is the "ventas" function group (functions/ventas/main.go).
func Grupo(d *plataforma.Deps) lambdahttp.Handlers {
	return (&Service{DB: d.DB}).Handlers()
}
