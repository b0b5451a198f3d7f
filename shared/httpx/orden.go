package httpx

import "net/http"

// SortNewest is SortQuery for the lists that show the newest first: with
// neither ?sort= nor ?order=, the order is def descending; otherwise as
// SortQuery (def ascending unless ?order=desc).
func SortNewest(r *http.Request, allowed map[string]string, def string) (string, error) {
	if q := r.URL.Query(); q.Get("sort") == "" && q.Get("order") == "" {
		return def + " desc", nil
	}
	return SortQuery(r, allowed, def)
}
