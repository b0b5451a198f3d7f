package httpx

import (
	"net/http"
	"net/url"
	"strings"

	"github.com/erpcr/erp/shared/apperr"
)

// ListParams checks what every list reads alike, beside page and per_page
// (ParsePage): the pairs of the query Go cannot read, and activos. Go's
// url.ParseQuery drops a pair holding a semicolon or a bad escape
// ("sort=id;drop", "estado=%zz") without a word, so a list would answer
// 200 as if the parameter had not been sent; here it is a 422 under the
// parameter's name. activos (README: every list) must be a boolean even
// where the rows have no active flag to filter by. The messages are
// collected in errs, to be reported with the list's own ones at once.
func ListParams(r *http.Request, errs apperr.Campos) {
	for _, pair := range strings.Split(r.URL.RawQuery, "&") {
		if pair == "" {
			continue
		}
		key, value, _ := strings.Cut(pair, "=")
		k, kerr := url.QueryUnescape(key)
		_, verr := url.QueryUnescape(value)
		if kerr == nil && verr == nil && !strings.Contains(pair, ";") {
			continue
		}
		name, _, _ := strings.Cut(key, ";")
		if n, err := url.QueryUnescape(name); err == nil {
			name = n
		} else if kerr == nil {
			name = k
		}
		if name = QueryText(name); name == "" {
			name = "consulta"
		}
		errs.Fail(name, "El campo "+name+" tiene un valor que no se puede leer (un punto y coma o un escape % inválido).")
	}
	if _, err := BoolQuery(r, "activos"); err != nil {
		errs.Fail("activos", "El campo activos debe ser verdadero o falso.")
	}
}
