package catalogo

// CodigosUnidad are the official, case-sensitive UnidadMedida codes of
// Hacienda's v4.4 schemas (UnidadMedidaType, 2026 revision); a unit of
// measure must carry one of them so that invoices validate. The ohm is
// written as the XSD spells it, U+2126 OHM SIGN (not U+03A9 GREEK CAPITAL
// LETTER OMEGA, which looks the same and fails schema validation).
var CodigosUnidad = []string{
	"1", "´", "´´", "°C", "1/m", "A", "A/m", "A/m²", "Acv", "Al", "Alc", "B",
	"Bq", "C", "C/kg", "C/m²", "C/m³", "Cc", "Cd", "cd/m²", "Cm", "cm", "Cu", "D",
	"eV", "F", "F/m", "Fa", "G", "Gal", "Gy", "Gy/s", "h", "H", "H/m", "Hz",
	"I", "J", "J/(kg·K)", "J/(mol·K)", "J/K", "J/kg", "J/m³", "J/mol", "K", "Kat", "kat/m³", "Kg",
	"kg/m³", "Km", "Kw", "kWh", "L", "Lm", "Ln", "Lx", "M", "m/s", "m/s²", "m²",
	"m³", "Min", "mL", "Mm", "Mol", "mol/m³", "N", "N/m", "N·m", "Np", "º", "Os",
	"Otros", "Oz", "Pa", "Pa·s", "Qq", "Rad", "rad/s", "rad/s²", "S", "s", "Sp", "Spe",
	"Sr", "St", "Sv", "t", "T", "U", "Ua", "Unid", "V", "V/m", "W", "W/(m·K)",
	"W/(m²·sr)", "W/m²", "W/sr", "Wb", "\u2126",
}
