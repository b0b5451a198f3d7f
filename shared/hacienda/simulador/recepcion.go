package simulador

import (
	"encoding/base64"
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"
	"regexp"
	"strings"
	"time"
)

// documento is one received document.
type documento struct {
	clave       string
	fecha       string
	callbackURL string
	recibido    time.Time
	xml         []byte
	aceptado    bool
	respuesta   []byte // MensajeHacienda
}

type identificacion struct {
	Tipo   string `json:"tipoIdentificacion"`
	Numero string `json:"numeroIdentificacion"`
}

type cuerpoEnvio struct {
	Clave               string          `json:"clave"`
	Fecha               string          `json:"fecha"`
	Emisor              *identificacion `json:"emisor"`
	Receptor            *identificacion `json:"receptor"`
	CallbackURL         string          `json:"callbackUrl"`
	ConsecutivoReceptor string          `json:"consecutivoReceptor"`
	ComprobanteXML      string          `json:"comprobanteXml"`
}

type cuerpoEstado struct {
	Clave        string `json:"clave"`
	Fecha        string `json:"fecha"`
	IndEstado    string `json:"ind-estado"`
	RespuestaXML string `json:"respuesta-xml,omitempty"`
	CallbackURL  string `json:"callbackUrl,omitempty"`
}

var (
	reClave       = regexp.MustCompile(`^[a-zA-Z0-9]{50}$`)
	reConsecutivo = regexp.MustCompile(`^\d{20}$`)
)

// tiposIdentificacion are the IdentificacionType codes.
var tiposIdentificacion = map[string]bool{"01": true, "02": true, "03": true, "04": true, "05": true, "06": true}

const maxCuerpo = 10 << 20

// errorValidacion answers 400 with X-Error-Cause (the Hacienda shape).
func errorValidacion(w http.ResponseWriter, campo, causa string) {
	w.Header().Set("X-Error-Cause", causa)
	if campo != "" {
		w.Header().Set("validation-exception", campo)
	}
	w.WriteHeader(http.StatusBadRequest)
}

// Comprobante returns the XML received under key (clave, or
// clave-consecutivoReceptor for a Mensaje Receptor), for tests.
func (s *Simulador) Comprobante(key string) ([]byte, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	d, ok := s.documentos[key]
	if !ok {
		return nil, false
	}
	return append([]byte(nil), d.xml...), true
}

func (s *Simulador) recibir(w http.ResponseWriter, r *http.Request) {
	if !s.admitir(w, r) {
		return
	}
	var b cuerpoEnvio
	dec := json.NewDecoder(http.MaxBytesReader(w, r.Body, maxCuerpo))
	if err := dec.Decode(&b); err != nil {
		errorValidacion(w, "body", "El cuerpo de la solicitud no es un JSON válido: "+err.Error())
		return
	}
	if campo, causa := validarCuerpo(&b); causa != "" {
		errorValidacion(w, campo, causa)
		return
	}
	xml, err := base64.StdEncoding.DecodeString(b.ComprobanteXML)
	if err != nil || len(xml) == 0 {
		errorValidacion(w, "comprobanteXml", "El campo comprobanteXml debe contener el XML del comprobante codificado en base64")
		return
	}
	// A Mensaje Receptor shares the clave of the document it answers; it is
	// stored (and consulted) as clave-consecutivoReceptor.
	id := b.Clave
	if b.ConsecutivoReceptor != "" {
		id = b.Clave + "-" + b.ConsecutivoReceptor
	}
	s.mu.Lock()
	_, duplicado := s.documentos[id]
	if !duplicado {
		// Reserve the key so that a concurrent duplicate gets its 400.
		s.documentos[id] = nil
	}
	s.mu.Unlock()
	if duplicado {
		errorValidacion(w, "clave", "El comprobante "+id+" ya fue recibido anteriormente.")
		return
	}

	errores, datos := s.validarDocumento(&b, xml)
	d := &documento{
		clave:       id,
		fecha:       b.Fecha,
		callbackURL: b.CallbackURL,
		recibido:    s.o.Now(),
		xml:         xml,
		aceptado:    len(errores) == 0,
	}
	d.respuesta = mensajeHacienda(&b, datos, errores)
	s.mu.Lock()
	s.documentos[id] = d
	s.mu.Unlock()

	w.Header().Set("Location", ubicacion(r, id))
	w.WriteHeader(http.StatusAccepted)
}

// ubicacion is the absolute URL of GET …/recepcion/{id}.
func ubicacion(r *http.Request, id string) string {
	esquema := "http"
	if r.TLS != nil {
		esquema = "https"
	}
	if p := r.Header.Get("X-Forwarded-Proto"); p != "" {
		esquema = p
	}
	return esquema + "://" + r.Host + strings.TrimRight(r.URL.Path, "/") + "/" + url.PathEscape(id)
}

// validarCuerpo checks the JSON body; it returns the field and cause of the
// first problem.
func validarCuerpo(b *cuerpoEnvio) (string, string) {
	if !reClave.MatchString(b.Clave) {
		return "clave", "El campo clave es requerido y debe tener 50 caracteres alfanuméricos"
	}
	if b.Fecha == "" {
		return "fecha", "El campo fecha es requerido"
	}
	if _, ok := parseFecha(b.Fecha); !ok {
		return "fecha", "El campo fecha debe tener el formato yyyy-MM-dd'T'HH:mm:ssZ"
	}
	if b.Emisor == nil || b.Emisor.Tipo == "" || b.Emisor.Numero == "" {
		return "emisor", "El campo emisor (tipoIdentificacion, numeroIdentificacion) es requerido"
	}
	if c := validarIdentificacion("emisor", b.Emisor); c != "" {
		return "emisor", c
	}
	if b.Receptor != nil {
		if c := validarIdentificacion("receptor", b.Receptor); c != "" {
			return "receptor", c
		}
	}
	if b.ConsecutivoReceptor != "" && !reConsecutivo.MatchString(b.ConsecutivoReceptor) {
		return "consecutivoReceptor", "El campo consecutivoReceptor debe tener 20 dígitos"
	}
	if b.ComprobanteXML == "" {
		return "comprobanteXml", "El campo comprobanteXml es requerido"
	}
	return "", ""
}

func validarIdentificacion(campo string, id *identificacion) string {
	if !tiposIdentificacion[id.Tipo] {
		return fmt.Sprintf("El campo %s.tipoIdentificacion debe ser 01, 02, 03, 04, 05 o 06", campo)
	}
	// The official schema says 12; 2026 alphanumeric cédulas and types
	// 05/06 may need up to 20 (NOTES §5.2, unconfirmed): accept 20, as the
	// MensajeHacienda does.
	if id.Numero == "" || len(id.Numero) > 20 {
		return fmt.Sprintf("El campo %s.numeroIdentificacion es requerido (máximo 20 caracteres)", campo)
	}
	return ""
}

func parseFecha(s string) (time.Time, bool) {
	for _, l := range []string{time.RFC3339Nano, "2006-01-02T15:04:05Z0700"} {
		if t, err := time.Parse(l, s); err == nil {
			return t, true
		}
	}
	return time.Time{}, false
}

// admitir applies the rate limit (per user, or per address before
// authentication) and then requires a valid token; it has answered when it
// returns false.
func (s *Simulador) admitir(w http.ResponseWriter, r *http.Request) bool {
	usuario, ok := s.autenticar(r)
	key := "anon:" + clienteRemoto(r)
	if ok {
		key = "usr:" + usuario
	}
	if !s.limitar(w, key) {
		return false
	}
	if !ok {
		noAutorizado(w)
		return false
	}
	return true
}

// consultar answers GET …/recepcion/{clave}.
func (s *Simulador) consultar(w http.ResponseWriter, r *http.Request, crudo string) {
	if !s.admitir(w, r) {
		return
	}
	id, err := url.PathUnescape(crudo)
	if err != nil {
		id = crudo
	}
	s.mu.Lock()
	d := s.documentos[id]
	s.mu.Unlock()
	if d == nil {
		w.Header().Set("X-Error-Cause", "El comprobante "+id+" no ha sido recibido")
		w.WriteHeader(http.StatusNotFound)
		return
	}
	out := cuerpoEstado{Clave: d.clave, Fecha: d.fecha, CallbackURL: d.callbackURL}
	out.IndEstado = s.estado(d)
	if out.IndEstado == "aceptado" || out.IndEstado == "rechazado" {
		out.RespuestaXML = base64.StdEncoding.EncodeToString(d.respuesta)
	}
	escribirJSON(w, http.StatusOK, out)
}

// estado is the state of d at Now: recibido for the first half of Demora,
// procesando for the second, then the verdict.
func (s *Simulador) estado(d *documento) string {
	t := s.o.Now().Sub(d.recibido)
	switch {
	case s.o.Demora > 0 && t < s.o.Demora/2:
		return "recibido"
	case s.o.Demora > 0 && t < s.o.Demora:
		return "procesando"
	case d.aceptado:
		return "aceptado"
	default:
		return "rechazado"
	}
}
