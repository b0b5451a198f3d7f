package tesoreria

import (
	"math/big"
	"strings"
)

// LargoIBAN is the length of a Costa Rican IBAN: CR, two check digits and
// the 18 digits of the account (ISO 13616; SUGEF since 2016).
const LargoIBAN = 22

// NormalizarIBAN drops the spaces and dashes people write an IBAN with
// ("CR05 0152 0200 1026 2840 66") and upper-cases it.
func NormalizarIBAN(s string) string {
	s = strings.ToUpper(strings.TrimSpace(s))
	return strings.NewReplacer(" ", "", "-", "", "\u00a0", "").Replace(s)
}

// ValidarIBAN checks a normalised Costa Rican IBAN and returns the Spanish
// reason it is refused, or "" when it is valid: CR followed by 20 digits
// whose ISO 13616 check (the four first characters moved to the end,
// letters as 10..35, the number mod 97) gives 1.
func ValidarIBAN(iban string) string {
	switch {
	case len(iban) < 2 || iban[:2] != "CR":
		return "El IBAN debe ser de una cuenta de Costa Rica: empieza con CR."
	case len(iban) != LargoIBAN:
		return "El IBAN de Costa Rica tiene 22 caracteres: CR seguido de 20 dígitos."
	case strings.Trim(iban[2:], "0123456789") != "":
		return "El IBAN de Costa Rica tiene 22 caracteres: CR seguido de 20 dígitos."
	case mod97(iban) != 1:
		return "El IBAN no es válido: sus dígitos de control no corresponden (ISO 13616, módulo 97)."
	}
	return ""
}

// mod97 is the ISO 7064 MOD 97-10 remainder of an IBAN of digits and
// upper-case letters.
func mod97(iban string) int64 {
	var b strings.Builder
	for _, c := range iban[4:] + iban[:4] {
		if c >= 'A' && c <= 'Z' {
			b.WriteString(big.NewInt(int64(c-'A') + 10).String())
		} else {
			b.WriteRune(c)
		}
	}
	n, ok := new(big.Int).SetString(b.String(), 10)
	if !ok {
		return -1
	}
	return new(big.Int).Mod(n, big.NewInt(97)).Int64()
}

// DigitosControl computes the two check digits of a Costa Rican account
// of 18 digits: the IBAN is "CR" + DigitosControl(cuenta) + cuenta.
func DigitosControl(cuenta string) string {
	r := mod97("CR00" + cuenta)
	d := 98 - r
	if d < 10 {
		return "0" + big.NewInt(d).String()
	}
	return big.NewInt(d).String()
}
