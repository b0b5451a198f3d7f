// Package auth holds the identity rules of the service: password hashing and
// policy, opaque access tokens, the permission catalog with its aliases, the
// predefined roles and the authenticated principal.
package auth

import (
	"errors"
	"fmt"
	"unicode"

	"golang.org/x/crypto/bcrypt"
)

// HashPassword hashes with bcrypt at the given cost (config ERP_BCRYPT_COST).
func HashPassword(password string, cost int) (string, error) {
	if cost < bcrypt.MinCost {
		cost = bcrypt.DefaultCost
	}
	h, err := bcrypt.GenerateFromPassword([]byte(password), cost)
	if err != nil {
		return "", fmt.Errorf("auth: hash password: %w", err)
	}
	return string(h), nil
}

// dummyHash is compared against when the user does not exist, so that a
// login for an unknown e-mail costs as much time as one with a wrong password.
// It is a constant (a hash of "no-existe-este-usuario" at bcrypt.DefaultCost)
// rather than computed at start-up: computing it cost every function's cold
// start about 100 ms (issue 17). TestDummyHashCostsAsMuchAsAUsersHash keeps it honest.
var dummyHash = []byte("$2a$10$AxmHGe42ccF/BMI34E3cP.PHjRPmxUnMqzU6us5NbDF6DMRObE.Lm")

// CheckPassword reports whether password matches hash. An empty hash still
// spends a bcrypt comparison (timing-safe user enumeration defence).
func CheckPassword(hash, password string) bool {
	if hash == "" {
		_ = bcrypt.CompareHashAndPassword(dummyHash, []byte(password))
		return false
	}
	return bcrypt.CompareHashAndPassword([]byte(hash), []byte(password)) == nil
}

// ErrWeakPassword explains the policy in Spanish.
var ErrWeakPassword = errors.New("La contraseña debe tener al menos 8 caracteres e incluir mayúsculas, minúsculas, números y símbolos.")

// CheckPolicy enforces the stored-password policy (SPEC.md Authentication 7):
// at least 8 characters with upper and lower case, a digit and a symbol.
// bcrypt ignores bytes past 72, so longer passwords are refused too.
func CheckPolicy(password string) error {
	if len([]rune(password)) < 8 || len(password) > 72 {
		return ErrWeakPassword
	}
	var upper, lower, digit, symbol bool
	for _, r := range password {
		switch {
		case unicode.IsUpper(r):
			upper = true
		case unicode.IsLower(r):
			lower = true
		case unicode.IsDigit(r):
			digit = true
		case unicode.IsPunct(r) || unicode.IsSymbol(r) || unicode.IsSpace(r):
			symbol = true
		}
	}
	if !upper || !lower || !digit || !symbol {
		return ErrWeakPassword
	}
	return nil
}
