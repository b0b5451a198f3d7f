package recepcion

import (
	"bytes"
	"encoding/xml"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"
)

// Mensaje codes of a MensajeHacienda.
const (
	MensajeAceptado  = 1
	MensajeRechazado = 3
)

// Mensaje is the light reading of a MensajeHacienda (Hacienda's answer,
// the respuesta-xml of GET /recepcion/{clave}). The signature is not
// checked here. Amounts are the decimal text as written ("" if absent).
type Mensaje struct {
	Clave                      string
	NombreEmisor               string
	TipoIdentificacionEmisor   string
	NumeroCedulaEmisor         string
	NombreReceptor             string
	TipoIdentificacionReceptor string
	NumeroCedulaReceptor       string
	Mensaje                    int // 1 aceptado, 3 rechazado
	EstadoMensaje              string
	DetalleMensaje             string
	MontoTotalImpuesto         string
	TotalFactura               string
}

// Aceptado reports Mensaje == 1.
func (m Mensaje) Aceptado() bool { return m.Mensaje == MensajeAceptado }

// Rechazado reports Mensaje == 3.
func (m Mensaje) Rechazado() bool { return m.Mensaje == MensajeRechazado }

// LeerMensaje parses a MensajeHacienda. It fails on malformed XML, another
// root element, or a missing/unknown Mensaje code.
func LeerMensaje(b []byte) (Mensaje, error) {
	var m Mensaje
	d := xml.NewDecoder(bytes.NewReader(b))
	d.CharsetReader = lectorCharset
	raiz := false
	prof := 0
	var actual string
	var texto strings.Builder
	mensaje := ""
	// The text elements, each read as it is (trimmed) into its field.
	campos := map[string]*string{
		"Clave": &m.Clave, "NombreEmisor": &m.NombreEmisor, "TipoIdentificacionEmisor": &m.TipoIdentificacionEmisor,
		"NumeroCedulaEmisor": &m.NumeroCedulaEmisor, "NombreReceptor": &m.NombreReceptor,
		"TipoIdentificacionReceptor": &m.TipoIdentificacionReceptor, "NumeroCedulaReceptor": &m.NumeroCedulaReceptor,
		"EstadoMensaje": &m.EstadoMensaje, "MontoTotalImpuesto": &m.MontoTotalImpuesto, "TotalFactura": &m.TotalFactura,
	}
	for {
		tok, err := d.Token()
		if err == io.EOF {
			break
		}
		if err != nil {
			return m, fmt.Errorf("recepcion: MensajeHacienda ilegible: %w", err)
		}
		switch t := tok.(type) {
		case xml.StartElement:
			prof++
			if prof == 1 {
				if t.Name.Local != "MensajeHacienda" {
					return m, fmt.Errorf("recepcion: se esperaba MensajeHacienda y la raíz es %s", t.Name.Local)
				}
				raiz = true
			}
			if prof == 2 {
				actual = t.Name.Local
				texto.Reset()
			}
		case xml.CharData:
			if prof == 2 {
				texto.Write(t)
			}
		case xml.EndElement:
			if prof == 2 {
				v := texto.String()
				tv := strings.TrimSpace(v)
				switch actual {
				case "Mensaje":
					mensaje = tv
				case "DetalleMensaje":
					// Hacienda separates lines with &#13;: normalise to \n.
					v = strings.ReplaceAll(v, "\r\n", "\n")
					m.DetalleMensaje = strings.TrimSpace(strings.ReplaceAll(v, "\r", "\n"))
				default:
					if campo, ok := campos[actual]; ok {
						*campo = tv
					}
				}
			}
			prof--
		}
	}
	if !raiz {
		return m, errors.New("recepcion: MensajeHacienda vacío")
	}
	n, err := strconv.Atoi(mensaje)
	if err != nil || (n != MensajeAceptado && n != MensajeRechazado) {
		return m, fmt.Errorf("recepcion: MensajeHacienda con Mensaje %q (se espera 1 o 3)", mensaje)
	}
	m.Mensaje = n
	return m, nil
}

// lectorCharset accepts UTF-8 and ISO-8859-1/Windows-1252 declarations
// (the latter decoded as Latin-1).
func lectorCharset(charset string, in io.Reader) (io.Reader, error) {
	switch strings.ToLower(charset) {
	case "utf-8", "utf8", "us-ascii", "ascii":
		return in, nil
	}
	if esLatin1(charset) {
		b, err := io.ReadAll(in)
		if err != nil {
			return nil, err
		}
		return bytes.NewReader(latin1(make([]byte, 0, len(b)+len(b)/4), b)), nil
	}
	return nil, fmt.Errorf("codificación %q no soportada", charset)
}
