package httpx

import (
	"net/http"
	"strconv"
	"strings"

	"github.com/erpcr/erp/shared/apperr"
)

// PathID reads the {id} path value; anything that is not a positive integer
// cannot name a record, so it is simply not found.
func PathID(r *http.Request) (int64, error) {
	id, err := strconv.ParseInt(r.PathValue("id"), 10, 64)
	if err != nil || id <= 0 {
		return 0, apperr.NewNotFound("Registro no encontrado.")
	}
	return id, nil
}

// LikePattern turns user input into a contains-pattern for (I)LIKE with the
// wildcards escaped.
func LikePattern(s string) string {
	r := strings.NewReplacer(`\`, `\\`, `%`, `\%`, `_`, `\_`)
	return "%" + r.Replace(s) + "%"
}

// SearchQuery reads ?search= as a LIKE pattern (nil when absent).
func SearchQuery(r *http.Request) *string {
	v := QueryText(r.URL.Query().Get("search"))
	if v == "" {
		return nil
	}
	p := LikePattern(v)
	return &p
}

// QueryText is a query parameter's value as SQL text: trimmed, and with NUL
// and invalid UTF-8, which PostgreSQL text cannot hold (the query would fail
// with a 500), turned into U+FFFD; no stored text contains them, so a filter
// on it matches nothing.
func QueryText(v string) string {
	return strings.ToValidUTF8(strings.ReplaceAll(strings.TrimSpace(v), "\x00", "\uFFFD"), "\uFFFD")
}

// BoolQuery reads a boolean query parameter (1/true/si, 0/false/no); nil
// when absent, 422 when unreadable.
func BoolQuery(r *http.Request, name string) (*bool, error) {
	v := r.URL.Query().Get(name)
	if v == "" {
		return nil, nil
	}
	switch strings.ToLower(v) {
	case "1", "true", "si", "sí":
		b := true
		return &b, nil
	case "0", "false", "no":
		b := false
		return &b, nil
	}
	return nil, apperr.InvalidField(name, "El campo "+name+" debe ser verdadero o falso.")
}

// SortQuery maps ?sort=&order= to an ORDER BY expression from a whitelist
// (column name -> SQL expression); def is used when sort is absent. The
// result always ends with a direction.
func SortQuery(r *http.Request, allowed map[string]string, def string) (string, error) {
	col := r.URL.Query().Get("sort")
	expr := def
	if col != "" {
		e, ok := allowed[col]
		if !ok {
			return "", apperr.InvalidField("sort", "El campo sort no admite el valor "+col+".")
		}
		expr = e
	}
	switch strings.ToLower(r.URL.Query().Get("order")) {
	case "", "asc":
		return expr + " asc", nil
	case "desc":
		return expr + " desc", nil
	}
	return "", apperr.InvalidField("order", "El campo order debe ser asc o desc.")
}
