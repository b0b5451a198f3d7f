package exportar

import (
	"net/http"
	"strconv"
	"strings"
)

// Media types of the files the API answers as downloads.
const (
	MediaPDF   = "application/pdf"
	MediaCSV   = "text/csv; charset=utf-8"
	MediaExcel = "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"
)

// Archivo is a file answered as a download (a report, a payslip, an
// exported list): a handler.Escritor, written after the transaction
// committed.
type Archivo struct {
	Nombre, ContentType string
	Datos               []byte
}

// Escribir writes the file as an attachment: 200 with its Content-Type,
// Content-Disposition (a quote would end the filename, so none is kept)
// and Content-Length. A failed write is a client gone away: nothing is
// left to answer.
func (a Archivo) Escribir(w http.ResponseWriter) error {
	h := w.Header()
	h.Set("Content-Type", a.ContentType)
	h.Set("Content-Disposition", `attachment; filename="`+strings.ReplaceAll(a.Nombre, `"`, "")+`"`)
	h.Set("Content-Length", strconv.Itoa(len(a.Datos)))
	w.WriteHeader(http.StatusOK)
	_, _ = w.Write(a.Datos)
	return nil
}
