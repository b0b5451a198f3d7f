// Package seed fills the catalogs every run needs (tax regimes, units of
// measure with Hacienda's codes, IVA rates, payment methods, identification
// types, the permission catalog) and, outside production, the two demo
// companies with an Administrador each and, when asked (DemoData, for make
// run), products with stock, customers and a supplier. Every statement is
// an upsert or creates only what is missing, so seeding twice changes
// nothing.
package seed

import (
	"context"
	"errors"
	"fmt"

	"github.com/jackc/pgx/v5"

	"github.com/erpcr/erp/shared/auth"
	"github.com/erpcr/erp/shared/usuarios"
)

// Catalogs upserts the global catalogs. It runs with the owner connection.
func Catalogs(ctx context.Context, conn *pgx.Conn) error {
	b := &pgx.Batch{}
	for _, r := range Regimenes {
		b.Queue(`insert into regimenes_tributarios (codigo, nombre, descripcion) values ($1, $2, $3)
			on conflict (codigo) do update set nombre = excluded.nombre, descripcion = excluded.descripcion`, r[0], r[1], r[2])
	}
	// A unit's code is unique only among the units not deleted (migration
	// 0003): a unit the Administrador deleted stays deleted, and a seeded code
	// whose abbreviation another unit took meanwhile is skipped.
	for _, u := range Unidades {
		b.Queue(`update unidades_medida set nombre = $2, tipo = $3 where codigo = $1 and (nombre <> $2 or tipo <> $3)`, u[0], u[1], u[2])
		b.Queue(`insert into unidades_medida (codigo, nombre, abreviatura, tipo) select $1::text, $2::text, $1::text, $3::text
			where not exists (select 1 from unidades_medida where codigo = $1::text) on conflict do nothing`, u[0], u[1], u[2])
	}
	for _, t := range Impuestos {
		b.Queue(`insert into tipos_impuesto (codigo, codigo_tarifa_iva, nombre, porcentaje, exento) values ($1, $2, $3, $4::numeric, $5)
			on conflict (codigo, codigo_tarifa_iva) do update set nombre = excluded.nombre, porcentaje = excluded.porcentaje, exento = excluded.exento`,
			t.Codigo, t.CodigoTarifaIVA, t.Nombre, t.Porcentaje, t.Exento)
	}
	for _, f := range FormasPago {
		b.Queue(`insert into formas_pago (codigo, nombre) values ($1, $2)
			on conflict (codigo) do update set nombre = excluded.nombre`, f[0], f[1])
	}
	for _, t := range TiposIdentificacion {
		b.Queue(`insert into tipos_identificacion (codigo, codigo_hacienda, nombre, formato) values ($1, $2, $3, $4)
			on conflict (codigo) do update set codigo_hacienda = excluded.codigo_hacienda, nombre = excluded.nombre, formato = excluded.formato`,
			t[0], t[1], t[2], t[3])
	}
	for _, p := range auth.Catalog() {
		b.Queue(`insert into permisos (slug, modulo, accion, descripcion) values ($1, $2, $3, $4)
			on conflict (slug) do update set descripcion = excluded.descripcion`, p.Slug, p.Modulo, p.Accion, p.Descripcion)
	}
	if err := conn.SendBatch(ctx, b).Close(); err != nil {
		return fmt.Errorf("seed: catalogs: %w", err)
	}
	return nil
}

// DemoCompany is one demo tenant.
type DemoCompany struct {
	ID          int64
	Nombre      string
	RazonSocial string
	NitRuc      string
	Subdominio  string
	AdminEmail  string
}

// DemoCompanies are the two demo tenants.
var DemoCompanies = []DemoCompany{
	{ID: 1, Nombre: "Demo S.A.", RazonSocial: "Demo Sociedad Anónima", NitRuc: "3101000001", Subdominio: "demo", AdminEmail: "admin@demo.cr"},
	{ID: 2, Nombre: "Demo Dos S.A.", RazonSocial: "Demo Dos Sociedad Anónima", NitRuc: "3101000002", Subdominio: "demo2", AdminEmail: "admin@demo2.cr"},
}

// ErrProduction refuses demo data in production.
var ErrProduction = errors.New("seed: demo data is refused when ERP_ENV=production")

// Demo creates the demo companies, their predefined roles, a position and an
// Administrador each. passwordHash is the bcrypt hash of the demo password;
// an existing admin keeps its password (the seed never clobbers changes).
func Demo(ctx context.Context, conn *pgx.Conn, env, passwordHash string) error {
	if env == "production" {
		return ErrProduction
	}
	return pgx.BeginFunc(ctx, conn, func(tx pgx.Tx) error {
		for _, c := range DemoCompanies {
			if _, err := tx.Exec(ctx, `insert into empresas (id, nombre, razon_social, nit_ruc, regimen_tributario_id, email, pais, provincia, subdominio)
				values ($1, $2, $3, $4, (select id from regimenes_tributarios where codigo = 'tradicional'), $5, 'Costa Rica', 'San José', $6)
				on conflict (id) do nothing`, c.ID, c.Nombre, c.RazonSocial, c.NitRuc, "info@"+c.Subdominio+".cr", c.Subdominio); err != nil {
				return fmt.Errorf("seed: empresa %d: %w", c.ID, err)
			}
			if err := usuarios.EnsurePredefinedRoles(ctx, tx, c.ID); err != nil {
				return err
			}
			var cargo, user int64
			if err := tx.QueryRow(ctx, `insert into cargos (empresa_id, nombre, descripcion) values ($1, 'Administrador General', 'Responsable del sistema')
				on conflict (empresa_id, nombre) do update set nombre = excluded.nombre returning id`, c.ID).Scan(&cargo); err != nil {
				return fmt.Errorf("seed: cargo: %w", err)
			}
			// An existing admin is not updated (not even its actualizado_en):
			// the insert does nothing and the select finds it. A deleted one
			// is replaced by a new account: its e-mail is free (0030).
			if err := tx.QueryRow(ctx, `with nuevo as (
					insert into usuarios (empresa_id, cargo_id, nombre, apellidos, email, password_hash)
					values ($1, $2, 'Administrador', $3, $4, $5)
					on conflict (lower(email)) where not eliminado do nothing returning id)
				select id from nuevo union all select id from usuarios where lower(email) = lower($4) and not eliminado limit 1`,
				c.ID, cargo, c.Nombre, c.AdminEmail, passwordHash).Scan(&user); err != nil {
				return fmt.Errorf("seed: admin: %w", err)
			}
			if _, err := tx.Exec(ctx, `insert into membresias (empresa_id, usuario_id) values ($1, $2) on conflict do nothing`, c.ID, user); err != nil {
				return fmt.Errorf("seed: membresia: %w", err)
			}
			if _, err := tx.Exec(ctx, `insert into usuario_roles (empresa_id, usuario_id, rol_id)
				select $1, $2, id from roles where empresa_id = $1 and slug = 'administrador' and not eliminado
				on conflict do nothing`, c.ID, user); err != nil {
				return fmt.Errorf("seed: admin role: %w", err)
			}
			if err := demoMasterData(ctx, tx, c.ID); err != nil {
				return err
			}
		}
		_, err := tx.Exec(ctx, `select setval('empresas_id_seq', greatest((select max(id) from empresas), 1))`)
		return err
	})
}

// demoMasterData gives each demo company a principal branch with a principal
// warehouse, a product category and its default settings, so a fresh
// `make run` can record products and sales at once. Only on first seed.
func demoMasterData(ctx context.Context, tx pgx.Tx, empresaID int64) error {
	b := &pgx.Batch{}
	b.Queue(`insert into sucursales (empresa_id, nombre, codigo, provincia, es_principal)
		select $1, 'Sucursal Central', 'CENTRAL', 'San José', true
		where not exists (select 1 from sucursales where empresa_id = $1)`, empresaID)
	b.Queue(`insert into almacenes (empresa_id, sucursal_id, nombre, codigo, es_principal)
		select $1, s.id, 'Almacén Principal', 'PRINCIPAL', true from sucursales s
		where s.empresa_id = $1 and s.es_principal and not s.eliminado
		  and not exists (select 1 from almacenes where empresa_id = $1)`, empresaID)
	b.Queue(`insert into categorias_producto (empresa_id, nombre, descripcion)
		select $1, 'General', 'Categoría por defecto'
		where not exists (select 1 from categorias_producto where empresa_id = $1)`, empresaID)
	for _, c := range DefaultSettings {
		b.Queue(`insert into configuraciones (empresa_id, clave, valor, descripcion) values ($1, $2, $3::jsonb, $4)
			on conflict (empresa_id, clave) do nothing`, empresaID, c[0], c[1], c[2])
	}
	if err := tx.SendBatch(ctx, b).Close(); err != nil {
		return fmt.Errorf("seed: demo master data of empresa %d: %w", empresaID, err)
	}
	return nil
}

// DefaultSettings are every company's settings: clave, JSON value, description.
var DefaultSettings = [][3]string{
	{"inventario.descontar_stock_automatico", "false", "Descontar existencias del almacén principal de la sucursal al vender sin indicar almacén."},
	{"inventario.permitir_stock_negativo", "false", "Permitir ventas y salidas sin existencias suficientes."},
	{"moneda", `"CRC"`, "Moneda de la empresa."},
}
