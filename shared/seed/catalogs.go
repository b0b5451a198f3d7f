package seed

// Regimenes are the tax regimes: codigo, nombre, descripcion.
var Regimenes = [][3]string{
	{"tradicional", "Régimen Tradicional", "Contribuyentes del impuesto sobre el valor agregado y sobre la renta en el régimen general."},
	{"simplificado", "Régimen de Tributación Simplificada", "Pequeños contribuyentes con cálculo simplificado del impuesto."},
	{"especial_agropecuario", "Régimen Especial Agropecuario", "Productores agropecuarios inscritos en el régimen especial."},
	{"no_sujeto", "No sujeto", "Personas o entidades no sujetas a impuestos."},
}

// Unidades are Hacienda's units of measure (v4.4 UnidadMedida, case-sensitive
// official codes): codigo, nombre, tipo.
var Unidades = [][3]string{
	{"Unid", "Unidad", "unidad"},
	{"Sp", "Servicios profesionales", "servicio"},
	{"Spe", "Servicios personales", "servicio"},
	{"St", "Servicios técnicos", "servicio"},
	{"Os", "Otro tipo de servicio", "servicio"},
	{"Kg", "Kilogramo", "masa"},
	{"G", "Gramo", "masa"},
	{"t", "Tonelada", "masa"},
	{"Qq", "Quintal", "masa"},
	{"Oz", "Onza", "masa"},
	{"L", "Litro", "volumen"},
	{"mL", "Mililitro", "volumen"},
	{"Gal", "Galón", "volumen"},
	{"m³", "Metro cúbico", "volumen"},
	{"M", "Metro", "longitud"},
	{"cm", "Centímetro", "longitud"},
	{"Mm", "Milímetro", "longitud"},
	{"Km", "Kilómetro", "longitud"},
	{"Ln", "Pulgada", "longitud"},
	{"m²", "Metro cuadrado", "area"},
	{"h", "Hora", "tiempo"},
	{"D", "Día", "tiempo"},
	{"Min", "Minuto", "tiempo"},
	{"s", "Segundo", "tiempo"},
	{"Al", "Alquiler de uso habitacional", "servicio"},
	{"Alc", "Alquiler de uso comercial", "servicio"},
	{"Cm", "Comisiones", "servicio"},
	{"I", "Intereses", "servicio"},
	{"Acv", "Activo virtual", "unidad"},
	{"kWh", "Kilovatio hora", "energia"},
	{"Otros", "Otros", "unidad"},
}

// Impuesto is an IVA rate of Hacienda's CodigoTarifaIVA table (Impuesto
// Codigo 01, IVA).
type Impuesto struct {
	Codigo          string
	CodigoTarifaIVA string
	Nombre          string
	Porcentaje      string
	Exento          bool
}

// Impuestos are the IVA rates offered.
var Impuestos = []Impuesto{
	{"01", "08", "IVA tarifa general 13%", "13.00", false},
	{"01", "04", "IVA tarifa reducida 4%", "4.00", false},
	{"01", "03", "IVA tarifa reducida 2%", "2.00", false},
	{"01", "02", "IVA tarifa reducida 1%", "1.00", false},
	{"01", "09", "IVA tarifa reducida 0,5%", "0.50", false},
	{"01", "01", "IVA tarifa 0%", "0.00", false},
	{"01", "10", "Exenta", "0.00", true},
}

// FormasPago are Hacienda's TipoMedioPago codes: codigo, nombre.
var FormasPago = [][2]string{
	{"01", "Efectivo"},
	{"02", "Tarjeta"},
	{"03", "Cheque"},
	{"04", "Transferencia o depósito bancario"},
	{"05", "Recaudado por terceros"},
	{"06", "SINPE Móvil"},
	{"07", "Plataforma digital"},
	{"99", "Otros"},
}

// TiposIdentificacion: codigo, Hacienda Identificacion/Tipo, nombre, formato.
var TiposIdentificacion = [][4]string{
	{"fisica", "01", "Cédula física", "9 dígitos, no comienza con 0"},
	{"juridica", "02", "Cédula jurídica", "10 dígitos, comienza con 3"},
	{"dimex", "03", "DIMEX", "11 o 12 dígitos, no comienza con 0"},
	{"nite", "04", "NITE", "10 dígitos, no todos ceros"},
	{"extranjero", "05", "Extranjero no domiciliado", "alfanumérico, hasta 20 caracteres"},
}
