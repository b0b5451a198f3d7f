package auth

import (
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"strconv"
	"strings"
)

// NewSecret returns the random part of a token: 40 URL-safe characters
// (240 bits of entropy).
func NewSecret() string {
	b := make([]byte, 30)
	if _, err := rand.Read(b); err != nil {
		panic("auth: crypto/rand failed: " + err.Error()) // never happens on supported platforms
	}
	return base64.RawURLEncoding.EncodeToString(b)
}

// HashSecret is what the database keeps: SHA-256 of the random part.
func HashSecret(secret string) []byte {
	sum := sha256.Sum256([]byte(secret))
	return sum[:]
}

// FormatToken joins the row id and the secret into the opaque token the
// client holds: "<id>|<secret>".
func FormatToken(id int64, secret string) string {
	return strconv.FormatInt(id, 10) + "|" + secret
}

// ParseToken splits "<id>|<secret>". ok is false for anything malformed.
func ParseToken(token string) (id int64, secret string, ok bool) {
	idPart, secret, found := strings.Cut(token, "|")
	if !found || secret == "" || len(secret) > 200 {
		return 0, "", false
	}
	id, err := strconv.ParseInt(idPart, 10, 64)
	if err != nil || id <= 0 {
		return 0, "", false
	}
	return id, secret, true
}

// BearerToken extracts the token of an "Authorization: Bearer <token>" value.
func BearerToken(header string) (string, bool) {
	scheme, token, found := strings.Cut(strings.TrimSpace(header), " ")
	if !found || !strings.EqualFold(scheme, "Bearer") {
		return "", false
	}
	token = strings.TrimSpace(token)
	return token, token != ""
}
