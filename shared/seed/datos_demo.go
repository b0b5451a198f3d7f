package seed

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/shopspring/decimal"

	"github.com/erpcr/erp/shared/db"
	"github.com/erpcr/erp/shared/horacr"
	"github.com/erpcr/erp/shared/inventario"
)

// DemoProducto is a demo product. Codigo identifies it; a product is created
// once, with its opening stock, and never again (not even after the
// Administrador deletes it).
type DemoProducto struct {
	Codigo, Nombre, Categoria string
	Unidad                    string // unidades_medida.codigo
	TarifaIVA                 string // tipos_impuesto.codigo_tarifa_iva (Impuesto 01)
	CodigoCabys               string // 13 digits (demo values of the right shape)
	Tipo                      string // producto | servicio
	PrecioCompra, PrecioVenta string
	StockMinimo               int
	// Lotes is the opening stock in the principal warehouse (none for a
	// service).
	Lotes []DemoLote
}

// DemoLote is a batch of opening stock.
type DemoLote struct {
	Lote, Vence string // Vence: AAAA-MM-DD
	Cantidad    string
}

// DemoCliente is a demo customer, identified by its identificacion.
type DemoCliente struct {
	TipoIdentificacion, Identificacion string
	Nombre, Apellidos, RazonSocial     string
	Email, Telefono, Provincia         string
	DiasCredito                        int
	LimiteCredito                      string
}

// DemoProveedor is a demo supplier, identified by its nit_ruc.
type DemoProveedor struct {
	Nombre, RazonSocial, NitRuc, Email, Telefono string
	ContactoNombre                               string
	DiasCredito                                  int
}

// DemoCategorias are the categories of the demo products: nombre, descripcion.
var DemoCategorias = [][2]string{
	{"Abarrotes", "Alimentos y productos de consumo."},
	{"Limpieza", "Artículos de limpieza e higiene."},
	{"Servicios", "Servicios prestados por la empresa."},
}

// DemoProductos are the same in both demo companies. Codes, names and
// customers avoid the values the README's walk-through creates (CAF-01,
// Bebidas, 102340567, 3101123456), so it runs on top of them.
var DemoProductos = []DemoProducto{
	{Codigo: "ARROZ-1KG", Nombre: "Arroz blanco 1 kg", Categoria: "Abarrotes", Unidad: "Unid", TarifaIVA: "02", CodigoCabys: "2316100000100",
		Tipo: "producto", PrecioCompra: "950.00", PrecioVenta: "1350.00", StockMinimo: 10,
		Lotes: []DemoLote{{Lote: "ARZ-2601", Vence: "2027-06-30", Cantidad: "60"}, {Lote: "ARZ-2602", Vence: "2027-12-31", Cantidad: "40"}}},
	{Codigo: "FRIJOL-1KG", Nombre: "Frijoles negros 1 kg", Categoria: "Abarrotes", Unidad: "Unid", TarifaIVA: "02", CodigoCabys: "0171200000100",
		Tipo: "producto", PrecioCompra: "1400.00", PrecioVenta: "1950.00", StockMinimo: 10,
		Lotes: []DemoLote{{Lote: "FRJ-2601", Vence: "2027-09-30", Cantidad: "80"}}},
	{Codigo: "AZUCAR-2KG", Nombre: "Azúcar 2 kg", Categoria: "Abarrotes", Unidad: "Unid", TarifaIVA: "02", CodigoCabys: "2351000000200",
		Tipo: "producto", PrecioCompra: "1700.00", PrecioVenta: "2300.00", StockMinimo: 5,
		Lotes: []DemoLote{{Lote: "AZU-2601", Vence: "2028-03-31", Cantidad: "50"}}},
	{Codigo: "JABON-3", Nombre: "Jabón de baño (paquete de 3)", Categoria: "Limpieza", Unidad: "Unid", TarifaIVA: "08", CodigoCabys: "3532100000300",
		Tipo: "producto", PrecioCompra: "1200.00", PrecioVenta: "1990.00", StockMinimo: 5,
		Lotes: []DemoLote{{Lote: "JAB-2601", Cantidad: "40"}}},
	{Codigo: "SERV-INST", Nombre: "Servicio de instalación (hora)", Categoria: "Servicios", Unidad: "h", TarifaIVA: "08", CodigoCabys: "8710000000100",
		Tipo: "servicio", PrecioCompra: "0.00", PrecioVenta: "15000.00"},
}

// DemoClientes are the same in both demo companies.
var DemoClientes = []DemoCliente{
	{TipoIdentificacion: "fisica", Identificacion: "109870654", Nombre: "María", Apellidos: "Fernández Rojas",
		Email: "maria.fernandez@ejemplo.cr", Telefono: "88112233", Provincia: "San José"},
	{TipoIdentificacion: "fisica", Identificacion: "205550888", Nombre: "Carlos", Apellidos: "Jiménez Vargas",
		Email: "carlos.jimenez@ejemplo.cr", Telefono: "87004455", Provincia: "Alajuela", DiasCredito: 15, LimiteCredito: "200000.00"},
	{TipoIdentificacion: "juridica", Identificacion: "3101555777", RazonSocial: "Comercial La Esquina S.A.",
		Email: "compras@laesquina.ejemplo.cr", Telefono: "22334455", Provincia: "Heredia", DiasCredito: 30, LimiteCredito: "1000000.00"},
}

// DemoProveedores are the same in both demo companies.
var DemoProveedores = []DemoProveedor{
	{Nombre: "Distribuidora Central", RazonSocial: "Distribuidora Central S.A.", NitRuc: "3101456789",
		Email: "ventas@distcentral.ejemplo.cr", Telefono: "22556677", ContactoNombre: "Laura Solano", DiasCredito: 30},
}

// DemoData gives each demo company (seeded by Demo first) products with
// opening stock in its principal warehouse, customers and a supplier, so the
// README's walk-through (sales, purchase orders, inventory, invoicing) can
// be tried at once. It connects to adminURL (the owner) and works company
// by company in one tenant-bound transaction. Each record is created once:
// a product when no product of the company (deleted or not) has its codigo,
// a customer by identificacion, a supplier by nit_ruc; so seeding twice
// changes nothing and what the Administrador deleted stays deleted. The
// opening stock of the products created is one processed entry of type
// Ajuste Positivo recorded by inventario.Crear (document ENT-…, batches
// with expiry), exactly as POST /api/inventario/entradas with procesar does.
// Refused in production.
func DemoData(ctx context.Context, adminURL, env string) error {
	if strings.EqualFold(env, "production") {
		return ErrProduction
	}
	pool, err := db.Open(ctx, db.Options{URL: adminURL, MaxConns: 1})
	if err != nil {
		return err
	}
	defer pool.Close()
	for _, c := range DemoCompanies {
		if err := pool.WithTx(ctx, db.Scope{EmpresaID: c.ID}, func(tx *db.Tx) error {
			return demoCompanyData(ctx, tx, c)
		}); err != nil {
			return fmt.Errorf("seed: demo data of empresa %d: %w", c.ID, err)
		}
	}
	return nil
}

func demoCompanyData(ctx context.Context, tx *db.Tx, c DemoCompany) error {
	var admin int64
	err := tx.QueryRow(ctx, `select id from usuarios where lower(email) = lower($1) and not eliminado`, c.AdminEmail).Scan(&admin)
	if errors.Is(err, pgx.ErrNoRows) {
		return nil // the demo company was not seeded
	}
	if err != nil {
		return err
	}
	if err := demoTerceros(ctx, tx); err != nil {
		return err
	}
	return demoProductos(ctx, tx, admin)
}

func demoTerceros(ctx context.Context, tx *db.Tx) error {
	empresaID := tx.EmpresaID()
	b := &pgx.Batch{}
	for _, k := range DemoClientes {
		b.Queue(`insert into clientes (empresa_id, tipo_identificacion, identificacion, nombre, apellidos, razon_social, email, telefono,
				provincia, dias_credito, limite_credito)
			select $1, $2::text, $3::text, nullif($4, ''), nullif($5, ''), nullif($6, ''), $7, $8, $9, $10, coalesce(nullif($11, ''), '0')::numeric
			where not exists (select 1 from clientes where empresa_id = $1 and identificacion = $3::text)`,
			empresaID, k.TipoIdentificacion, k.Identificacion, k.Nombre, k.Apellidos, k.RazonSocial, k.Email, k.Telefono,
			k.Provincia, k.DiasCredito, k.LimiteCredito)
	}
	for _, p := range DemoProveedores {
		b.Queue(`insert into proveedores (empresa_id, nombre, razon_social, nit_ruc, email, telefono, pais, contacto_nombre, dias_credito)
			select $1, $2, $3, $4::text, $5, $6, 'Costa Rica', $7, $8
			where not exists (select 1 from proveedores where empresa_id = $1 and nit_ruc = $4::text)`,
			empresaID, p.Nombre, p.RazonSocial, p.NitRuc, p.Email, p.Telefono, p.ContactoNombre, p.DiasCredito)
	}
	if err := tx.SendBatch(ctx, b).Close(); err != nil {
		return fmt.Errorf("clientes y proveedores: %w", err)
	}
	return nil
}

// demoProductos creates the demo products the company never had, the
// categories they need (when no category of that name is active), and
// their opening stock.
func demoProductos(ctx context.Context, tx *db.Tx, admin int64) error {
	empresaID := tx.EmpresaID()
	codigos := make([]string, len(DemoProductos))
	for i, p := range DemoProductos {
		codigos[i] = p.Codigo
	}
	rows, _ := tx.Query(ctx, `select codigo from productos where empresa_id = $1 and codigo = any($2)`, empresaID, codigos)
	existing, err := pgx.CollectRows(rows, pgx.RowTo[string])
	if err != nil {
		return fmt.Errorf("productos: %w", err)
	}
	had := map[string]bool{}
	for _, c := range existing {
		had[c] = true
	}
	var nuevos []DemoProducto
	for _, p := range DemoProductos {
		if !had[p.Codigo] {
			nuevos = append(nuevos, p)
		}
	}
	if len(nuevos) == 0 {
		return nil
	}
	needed := map[string]bool{}
	for _, p := range nuevos {
		needed[p.Categoria] = true
	}
	b := &pgx.Batch{}
	for _, cat := range DemoCategorias {
		if needed[cat[0]] {
			b.Queue(`insert into categorias_producto (empresa_id, nombre, descripcion) select $1, $2::text, $3
				where not exists (select 1 from categorias_producto where empresa_id = $1 and lower(nombre) = lower($2::text) and not eliminado)`,
				empresaID, cat[0], cat[1])
		}
	}
	if err := tx.SendBatch(ctx, b).Close(); err != nil {
		return fmt.Errorf("categorías: %w", err)
	}

	var lineas []inventario.Linea
	for _, p := range nuevos {
		var id int64
		err := tx.QueryRow(ctx, `insert into productos (empresa_id, categoria_id, unidad_medida_id, tipo_impuesto_id, codigo_cabys, nombre, codigo,
				tipo, precio_compra, precio_venta, stock_minimo, gestionado_inventario)
			values ($1,
				(select id from categorias_producto where empresa_id = $1 and lower(nombre) = lower($2) and not eliminado order by id limit 1),
				coalesce((select id from unidades_medida where codigo = $3 and not eliminado),
					(select id from unidades_medida where codigo = 'Unid' and not eliminado),
					(select min(id) from unidades_medida where not eliminado)),
				(select id from tipos_impuesto where codigo = '01' and codigo_tarifa_iva = $4),
				$5, $6, $7, $8::text, $9::numeric, $10::numeric, $11, $8::text = 'producto')
			returning id`,
			empresaID, p.Categoria, p.Unidad, p.TarifaIVA, p.CodigoCabys, p.Nombre, p.Codigo, p.Tipo, p.PrecioCompra, p.PrecioVenta, p.StockMinimo).Scan(&id)
		if err != nil {
			return fmt.Errorf("producto %s: %w", p.Codigo, err)
		}
		costo := decimal.RequireFromString(p.PrecioCompra)
		for _, l := range p.Lotes {
			linea := inventario.Linea{ProductoID: id, Cantidad: decimal.RequireFromString(l.Cantidad), CostoUnitario: costo, Lote: l.Lote}
			if l.Vence != "" {
				v, err := time.Parse(time.DateOnly, l.Vence)
				if err != nil {
					return fmt.Errorf("producto %s: vencimiento: %w", p.Codigo, err)
				}
				linea.FechaVencimiento = &v
			}
			lineas = append(lineas, linea)
		}
	}
	if len(lineas) == 0 {
		return nil
	}
	var almacen int64
	err = tx.QueryRow(ctx, `select id from almacenes where empresa_id = $1 and es_principal and not eliminado`, empresaID).Scan(&almacen)
	if errors.Is(err, pgx.ErrNoRows) {
		return nil // no principal warehouse: products without stock
	}
	if err != nil {
		return fmt.Errorf("almacén principal: %w", err)
	}
	// Dated today in Costa Rica, as the API dates a movement sent without fecha.
	obs := "Inventario inicial de demostración."
	if _, err := inventario.Crear(ctx, tx, inventario.Movimiento{
		Clase: inventario.Entrada, Tipo: "Ajuste Positivo", AlmacenID: almacen, UsuarioID: admin,
		Fecha:         horacr.Hoy(),
		Observaciones: &obs, Lineas: lineas, Procesar: true,
	}); err != nil {
		return fmt.Errorf("inventario inicial: %w", err)
	}
	return nil
}
