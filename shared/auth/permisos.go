package auth

import (
	"sort"
	"strings"
)

// Actions of the permission scheme {modulo}.{accion}.
var Actions = []string{"crear", "leer", "actualizar", "eliminar"}

// Modules are the 17 modules of SPEC.md, webhooks (the 18th), the treasury
// modules of issue 13 (cuentas_bancarias, cajas, presupuestos; migration
// 0014 grants them to the predefined roles of existing companies), and the
// ones the service needs for its own administration (usuarios, roles).
var Modules = []string{
	"empresas", "sucursales", "almacenes", "productos", "categorias_producto", "clientes",
	"proveedores", "ventas", "compras", "inventario", "cuentas_contables", "asientos_contables",
	"empleados", "nomina", "rutas", "buses", "facturacion_electronica", "webhooks",
	"cuentas_bancarias", "cajas", "presupuestos",
	"usuarios", "roles",
}

var moduleNames = map[string]string{
	"empresas": "empresas", "sucursales": "sucursales", "almacenes": "almacenes",
	"productos": "productos", "categorias_producto": "categorías de producto", "clientes": "clientes",
	"proveedores": "proveedores", "ventas": "ventas", "compras": "órdenes de compra",
	"inventario": "inventario", "cuentas_contables": "cuentas contables",
	"asientos_contables": "asientos contables", "empleados": "empleados", "nomina": "nómina",
	"rutas": "rutas", "buses": "buses", "facturacion_electronica": "facturación electrónica",
	"webhooks": "webhooks", "cuentas_bancarias": "cuentas bancarias", "cajas": "cajas",
	"presupuestos": "presupuestos", "usuarios": "usuarios", "roles": "roles",
}

var actionNames = map[string]string{"crear": "Crear", "leer": "Ver", "actualizar": "Editar", "eliminar": "Eliminar"}

// Permission is one entry of the catalog.
type Permission struct {
	Slug        string `json:"slug"`
	Modulo      string `json:"modulo"`
	Accion      string `json:"accion"`
	Descripcion string `json:"descripcion"`
}

// Catalog returns every permission, sorted by slug.
func Catalog() []Permission {
	out := make([]Permission, 0, len(Modules)*len(Actions))
	for _, m := range Modules {
		for _, a := range Actions {
			out = append(out, Permission{Slug: m + "." + a, Modulo: m, Accion: a, Descripcion: actionNames[a] + " " + moduleNames[m]})
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Slug < out[j].Slug })
	return out
}

var aliasPrefix = map[string]string{"ver-": "leer", "crear-": "crear", "editar-": "actualizar", "eliminar-": "eliminar"}

var known = func() map[string]bool {
	m := map[string]bool{}
	for _, p := range Catalog() {
		m[p.Slug] = true
	}
	return m
}()

// Canonical maps a permission name to its catalog slug. Both schemes of
// SPEC.md are accepted: "productos.leer" and the later "ver-productos"
// (crear-, editar-, eliminar-); module names may use "-" for "_"
// ("ver-categorias-producto"). ok is false for an unknown permission.
func Canonical(name string) (string, bool) {
	name = strings.ToLower(strings.TrimSpace(name))
	if known[name] {
		return name, true
	}
	for prefix, action := range aliasPrefix {
		if rest, found := strings.CutPrefix(name, prefix); found {
			slug := strings.ReplaceAll(rest, "-", "_") + "." + action
			if known[slug] {
				return slug, true
			}
		}
	}
	return "", false
}

// Role is a predefined role with its permission set.
type Role struct {
	Slug        string
	Nombre      string
	Descripcion string
	Permisos    []string
}

func grant(modules []string, actions ...string) []string {
	var out []string
	for _, m := range modules {
		for _, a := range actions {
			out = append(out, m+"."+a)
		}
	}
	return out
}

func join(sets ...[]string) []string {
	seen := map[string]bool{}
	var out []string
	for _, s := range sets {
		for _, p := range s {
			if !seen[p] {
				seen[p] = true
				out = append(out, p)
			}
		}
	}
	sort.Strings(out)
	return out
}

func except(all []string, drop ...string) []string {
	var out []string
	for _, m := range all {
		keep := true
		for _, d := range drop {
			if m == d {
				keep = false
			}
		}
		if keep {
			out = append(out, m)
		}
	}
	return out
}

// PredefinedRoles are created in every company; they cannot be deleted.
// The README documents their permission sets.
func PredefinedRoles() []Role {
	business := except(Modules, "usuarios", "roles", "empresas")
	return []Role{
		{Slug: "administrador", Nombre: "Administrador", Descripcion: "Acceso total a la empresa",
			Permisos: join(grant(Modules, Actions...))},
		{Slug: "gerente", Nombre: "Gerente", Descripcion: "Gestiona toda la operación; consulta usuarios y roles",
			Permisos: join(grant(business, Actions...), grant([]string{"empresas"}, "leer", "actualizar"), grant([]string{"usuarios", "roles"}, "leer"))},
		{Slug: "contador", Nombre: "Contador", Descripcion: "Contabilidad, nómina y facturación electrónica; consulta la operación",
			Permisos: join(
				grant([]string{"cuentas_contables", "asientos_contables", "nomina", "facturacion_electronica",
					"cuentas_bancarias", "cajas", "presupuestos"}, Actions...),
				grant([]string{"empresas", "sucursales", "almacenes", "productos", "categorias_producto", "clientes", "proveedores", "ventas", "compras", "inventario", "empleados"}, "leer"))},
		{Slug: "vendedor", Nombre: "Vendedor", Descripcion: "Registra ventas y clientes",
			Permisos: join(
				grant([]string{"ventas", "clientes"}, "crear", "leer", "actualizar"),
				grant([]string{"facturacion_electronica"}, "crear", "leer"),
				grant([]string{"productos", "categorias_producto", "inventario", "sucursales", "almacenes"}, "leer"))},
		{Slug: "comprador", Nombre: "Comprador", Descripcion: "Gestiona órdenes de compra, proveedores y productos",
			Permisos: join(
				grant([]string{"compras", "proveedores", "productos"}, "crear", "leer", "actualizar"),
				grant([]string{"categorias_producto", "inventario", "sucursales", "almacenes"}, "leer"))},
		{Slug: "bodeguero", Nombre: "Bodeguero", Descripcion: "Mueve inventario entre almacenes",
			Permisos: join(
				grant([]string{"inventario"}, "crear", "leer", "actualizar"),
				grant([]string{"productos", "almacenes"}, "leer", "actualizar"),
				grant([]string{"categorias_producto", "compras", "sucursales", "rutas", "buses"}, "leer"))},
		{Slug: "usuario", Nombre: "Usuario", Descripcion: "Consulta básica del catálogo",
			Permisos: join(grant([]string{"productos", "categorias_producto", "clientes", "sucursales", "almacenes"}, "leer"))},
	}
}

// IsPredefinedRole reports whether slug names a predefined role.
func IsPredefinedRole(slug string) bool {
	for _, r := range PredefinedRoles() {
		if r.Slug == slug {
			return true
		}
	}
	return false
}
