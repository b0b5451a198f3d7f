package transporte

import (
	"strings"
	"unicode"
)

// NormalizarPlaca validates a Costa Rican plate and returns its stored form:
// upper case, the letter prefix and the number separated by one space.
// Accepted (after dropping spaces and dashes, any case):
//
//   - a letter prefix of 1 to 3 letters and a number of 1 to 6 digits:
//     buses of public service by province (SJB, ALB, CB, HB, PB, GB, LB:
//     "SJB 12345"), special-service buses AB ("AB 1234"), the current
//     private series of three letters and three digits ("BCD 123"), and
//     the other letter-number plates COSEVI issues (taxis "TSJ 1234",
//     cargo "C 123456", light cargo "CL 123456", and so on);
//   - the plain numeric private plates of 1 to 6 digits ("123456").
//
// Letters after digits, more than 3 letters or 6 digits, and any other
// character are refused.
func NormalizarPlaca(s string) (string, string, bool) {
	const msg = "La placa debe tener el formato de Costa Rica: hasta 3 letras seguidas de 1 a 6 dígitos (por ejemplo AB 1234, SJB 12345, BCD 123) o solo de 1 a 6 dígitos (123456)."
	var letras, digitos strings.Builder
	for _, r := range strings.ToUpper(strings.TrimSpace(s)) {
		switch {
		case r == ' ' || r == '-':
		case 'A' <= r && r <= 'Z':
			if digitos.Len() > 0 {
				return "", msg, false
			}
			letras.WriteRune(r)
		case '0' <= r && r <= '9':
			digitos.WriteRune(r)
		case unicode.IsSpace(r):
		default:
			return "", msg, false
		}
	}
	if letras.Len() > 3 || digitos.Len() == 0 || digitos.Len() > 6 {
		return "", msg, false
	}
	if letras.Len() == 0 {
		return digitos.String(), "", true
	}
	return letras.String() + " " + digitos.String(), "", true
}
