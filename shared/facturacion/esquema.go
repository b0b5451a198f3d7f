package facturacion

import "github.com/erpcr/erp/shared/esquema"

// Esquemas are the request bodies of the group's routes, by route name, as
// decodeConfiguracion, readEmisor and readGenerar read them (the OpenAPI
// document; esquema_test.go proves the two agree).
var Esquemas = map[string]esquema.Cuerpo{
	"hacienda.configuracion.update": esquemaConfiguracion,
	"hacienda.generar": {Campos: []esquema.Campo{
		{Nombre: "venta_id", Tipo: esquema.Entero, Requerido: true, Minimo: "1", Ejemplo: 1},
		{Nombre: "tipo_documento", Tipo: esquema.Texto, Valores: TiposDocumento,
			Descripcion: "01 factura, 02 nota de débito, 03 nota de crédito, 04 tiquete; por omisión el de la venta."},
		{Nombre: "situacion", Tipo: esquema.Texto, Valores: []string{"1", "2", "3", "normal", "contingencia", "sin_internet"},
			Descripcion: "Por omisión normal."},
	}},
}

var esquemaConfiguracion = esquema.Cuerpo{
	Descripcion: "Actualización parcial: solo cambian los campos enviados; null borra uno opcional. Los secretos nunca se devuelven.",
	Campos: []esquema.Campo{
		{Nombre: "ambiente", Tipo: esquema.Texto, Valores: Ambientes, Ejemplo: "staging"},
		{Nombre: "codigo_actividad", Tipo: esquema.Texto, MaxLargo: 6, Patron: `^[0-9][0-9.]{5}$`, Ejemplo: "4711.1"},
		{Nombre: "proveedor_sistemas", Tipo: esquema.Texto, MaxLargo: 20, Patron: `^[A-Za-z0-9]{1,20}$`},
		{Nombre: "usuario", Tipo: esquema.Texto, MaxLargo: 255, Descripcion: "Usuario del ATV de Hacienda."},
		{Nombre: "clave", Tipo: esquema.Texto, MaxLargo: 255, Formato: "password"},
		{Nombre: "certificado", Tipo: esquema.Texto, MaxLargo: MaxCertificado, Formato: "byte",
			Descripcion: "Archivo .p12 en base64; se verifica con el pin."},
		{Nombre: "pin", Tipo: esquema.Texto, MaxLargo: 128, Formato: "password"},
		{Nombre: "emisor", Tipo: esquema.Objeto, Campos: []esquema.Campo{
			{Nombre: "tipo_identificacion", Tipo: esquema.Texto, Valores: []string{"01", "02", "03", "04"}},
			{Nombre: "numero_identificacion", Tipo: esquema.Texto, Descripcion: "De 9 a 12 letras o dígitos (se ignoran guiones)."},
			{Nombre: "nombre", Tipo: esquema.Texto, MinLargo: 5, MaxLargo: 100},
			{Nombre: "nombre_comercial", Tipo: esquema.Texto, MinLargo: 3, MaxLargo: 80},
			{Nombre: "provincia", Tipo: esquema.Texto, Patron: `^[1-7]$`},
			{Nombre: "canton", Tipo: esquema.Texto, Patron: `^[0-9]{2}$`},
			{Nombre: "distrito", Tipo: esquema.Texto, Patron: `^[0-9]{2}$`},
			{Nombre: "barrio", Tipo: esquema.Texto, MinLargo: 5, MaxLargo: 50},
			{Nombre: "otras_senas", Tipo: esquema.Texto, MinLargo: 5, MaxLargo: 250},
			{Nombre: "telefono", Tipo: esquema.Texto, Descripcion: "Al menos 8 dígitos (se ignoran +506 y separadores)."},
			{Nombre: "correo_electronico", Tipo: esquema.Texto, MaxLargo: 160, Formato: "email"},
		}},
		{Nombre: "sucursales", Tipo: esquema.Lista, Descripcion: "Establecimiento y terminal de cada sucursal.", Campos: []esquema.Campo{
			{Nombre: "sucursal_id", Tipo: esquema.Entero, Requerido: true, Minimo: "1", Ejemplo: 1},
			{Nombre: "establecimiento", Tipo: esquema.Entero, Requerido: true, Minimo: "1", Maximo: "999", Ejemplo: 1},
			{Nombre: "terminal", Tipo: esquema.Entero, Requerido: true, Minimo: "1", Maximo: "99999", Ejemplo: 1},
		}},
	},
}
