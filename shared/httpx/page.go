package httpx

import (
	"net/http"
	"strconv"

	"github.com/erpcr/erp/shared/apperr"
)

// Pagination defaults (SPEC.md "Limits": default 15; the maximum, not given
// there, is 100, as in most payment and ERP APIs).
const (
	DefaultPerPage = 15
	MaxPerPage     = 100
)

// PageRequest is the page asked for.
type PageRequest struct {
	Page    int
	PerPage int
}

// Offset is the number of rows to skip.
func (p PageRequest) Offset() int { return (p.Page - 1) * p.PerPage }

// ParsePage reads page and per_page; bad values are a 422 on that parameter.
func ParsePage(r *http.Request) (PageRequest, error) {
	q := r.URL.Query()
	p := PageRequest{Page: 1, PerPage: DefaultPerPage}
	errs := map[string][]string{}
	if v := q.Get("per_page"); v != "" {
		n, err := strconv.Atoi(v)
		if err != nil || n < 1 || n > MaxPerPage {
			errs["per_page"] = []string{"El campo per_page debe ser un número entero entre 1 y " + strconv.Itoa(MaxPerPage) + "."}
		} else {
			p.PerPage = n
		}
	}
	if v := q.Get("page"); v != "" {
		n, err := strconv.Atoi(v)
		if err != nil || n < 1 || n > 1_000_000 {
			errs["page"] = []string{"El campo page debe ser un número entero mayor o igual a 1."}
		} else {
			p.Page = n
		}
	}
	if len(errs) > 0 {
		return p, apperr.NewInvalid(errs)
	}
	return p, nil
}

// Paginacion is where a page stands among all: {current_page, per_page,
// total, last_page, from, to}. Lists answer it beside their data (Page);
// the paginated reports answer it under "paginacion".
type Paginacion struct {
	CurrentPage int  `json:"current_page"`
	PerPage     int  `json:"per_page"`
	Total       int  `json:"total"`
	LastPage    int  `json:"last_page"`
	From        *int `json:"from"`
	To          *int `json:"to"`
}

// Page is the list response: {data, current_page, per_page, total, last_page, from, to}.
type Page[T any] struct {
	Data []T `json:"data"`
	Paginacion
}

// NewPage assembles a page of rows out of total.
func NewPage[T any](req PageRequest, rows []T, total int) Page[T] {
	if rows == nil {
		rows = []T{}
	}
	last := (total + req.PerPage - 1) / req.PerPage
	if last < 1 {
		last = 1
	}
	pg := Page[T]{Data: rows, Paginacion: Paginacion{CurrentPage: req.Page, PerPage: req.PerPage, Total: total, LastPage: last}}
	if len(rows) > 0 {
		from := req.Offset() + 1
		to := req.Offset() + len(rows)
		pg.From, pg.To = &from, &to
	}
	return pg
}
