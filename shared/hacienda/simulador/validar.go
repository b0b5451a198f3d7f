package simulador

import (
	"bytes"
	"context"
	"encoding/xml"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/erpcr/erp/shared/hacienda/esquemas"
)

const (
	nsDsig = "http://www.w3.org/2000/09/xmldsig#"
	nsBase = "https://cdn.comprobanteselectronicos.go.cr/xml-schemas/v4.4/"
)

// tipoDocumento maps the root element to the document type of positions
// 9-10 of its NumeroConsecutivo (NOTES §1). MensajeReceptor has 05/06/07.
var tipoDocumento = map[string]string{
	"FacturaElectronica":            "01",
	"NotaDebitoElectronica":         "02",
	"NotaCreditoElectronica":        "03",
	"TiqueteElectronico":            "04",
	"FacturaElectronicaCompra":      "08",
	"FacturaElectronicaExportacion": "09",
	"ReciboElectronicoPago":         "10",
}

// datos is what the simulator reads from a document.
type datos struct {
	raiz, ns            string
	clave, consecutivo  string
	emisor, receptor    parte
	totalComprobante    string // ResumenFactura/TotalComprobante (MR: TotalFactura)
	totalImpuesto       string // ResumenFactura/TotalImpuesto (MR: MontoTotalImpuesto)
	consecutivoReceptor string // MR: NumeroConsecutivoReceptor
	firmas              int    // ds:Signature children of the root
}

type parte struct{ nombre, tipo, numero string }

// leer extracts datos from a well-formed UTF-8 XML document.
func leer(b []byte) (datos, error) {
	var d datos
	dec := xml.NewDecoder(bytes.NewReader(b))
	dec.CharsetReader = func(charset string, in io.Reader) (io.Reader, error) {
		switch strings.ToLower(charset) {
		case "utf-8", "utf8":
			return in, nil
		}
		return nil, fmt.Errorf("la codificación declarada es %q y debe ser UTF-8", charset)
	}
	if !utf8.Valid(b) {
		return d, errors.New("el XML no está codificado en UTF-8")
	}
	// The elements read, by path under the root (a comprobante's or a
	// MensajeReceptor's), into their field.
	campos := map[string]*string{
		"Clave": &d.clave, "NumeroConsecutivo": &d.consecutivo, "NumeroConsecutivoReceptor": &d.consecutivoReceptor,
		"Emisor/Nombre": &d.emisor.nombre, "Emisor/Identificacion/Tipo": &d.emisor.tipo,
		"Emisor/Identificacion/Numero": &d.emisor.numero, "NumeroCedulaEmisor": &d.emisor.numero,
		"Receptor/Nombre": &d.receptor.nombre, "Receptor/Identificacion/Tipo": &d.receptor.tipo,
		"Receptor/Identificacion/Numero": &d.receptor.numero, "NumeroCedulaReceptor": &d.receptor.numero,
		"ResumenFactura/TotalComprobante": &d.totalComprobante, "TotalFactura": &d.totalComprobante,
		"ResumenFactura/TotalImpuesto": &d.totalImpuesto, "MontoTotalImpuesto": &d.totalImpuesto,
	}
	var pila []string
	var texto strings.Builder
	for {
		tok, err := dec.Token()
		if err == io.EOF {
			break
		}
		if err != nil {
			return d, err
		}
		switch t := tok.(type) {
		case xml.StartElement:
			if len(pila) == 0 {
				if d.raiz != "" {
					return d, errors.New("hay más de un elemento raíz")
				}
				d.raiz, d.ns = t.Name.Local, t.Name.Space
			}
			if len(pila) == 1 && t.Name.Space == nsDsig && t.Name.Local == "Signature" {
				d.firmas++
			}
			pila = append(pila, t.Name.Local)
			texto.Reset()
		case xml.CharData:
			texto.Write(t)
		case xml.EndElement:
			v := strings.TrimSpace(texto.String())
			texto.Reset()
			ruta := strings.Join(pila[1:], "/")
			if campo, ok := campos[ruta]; ok {
				*campo = v
			}
			pila = pila[:len(pila)-1]
		}
	}
	if d.raiz == "" {
		return d, errors.New("el documento no tiene elemento raíz")
	}
	return d, nil
}

// validarDocumento returns the reasons (Spanish) to reject the document,
// none when it is accepted, and what could be read from it.
func (s *Simulador) validarDocumento(b *cuerpoEnvio, xmlDoc []byte) ([]string, datos) {
	d, err := leer(xmlDoc)
	if err != nil {
		return []string{"El XML del comprobante no está bien formado: " + err.Error()}, d
	}
	if _, ok := esquemas.Archivo[d.raiz]; !ok || d.raiz == "MensajeHacienda" {
		return []string{fmt.Sprintf("El elemento raíz %s no corresponde a un comprobante electrónico v4.4", d.raiz)}, d
	}
	var errores []string
	if want := nsBase + minusculaInicial(d.raiz); d.ns != want {
		errores = append(errores, fmt.Sprintf("El espacio de nombres del documento es %q y debe ser %q", d.ns, want))
	}
	if err := s.o.ValidarXSD(d.raiz, xmlDoc); err != nil {
		errores = append(errores, "El comprobante no cumple con el esquema XSD: "+err.Error())
	}
	if s.o.VerificarFirma != nil {
		if err := s.o.VerificarFirma(xmlDoc); err != nil {
			errores = append(errores, "La firma del comprobante no es válida: "+err.Error())
		}
	} else if d.firmas == 0 {
		errores = append(errores, "El comprobante no está firmado (falta ds:Signature)")
	}
	if d.clave != b.Clave {
		errores = append(errores, fmt.Sprintf("La clave del XML (%s) no coincide con la clave enviada (%s)", d.clave, b.Clave))
	}
	if d.emisor.numero != b.Emisor.Numero {
		errores = append(errores, fmt.Sprintf("La identificación del emisor del XML (%s) no coincide con la enviada (%s)", d.emisor.numero, b.Emisor.Numero))
	}
	if d.raiz != "MensajeReceptor" && d.emisor.tipo != b.Emisor.Tipo {
		errores = append(errores, fmt.Sprintf("El tipo de identificación del emisor del XML (%s) no coincide con el enviado (%s)", d.emisor.tipo, b.Emisor.Tipo))
	}
	if b.Receptor != nil && d.receptor.numero != "" && d.receptor.numero != b.Receptor.Numero {
		errores = append(errores, fmt.Sprintf("La identificación del receptor del XML (%s) no coincide con la enviada (%s)", d.receptor.numero, b.Receptor.Numero))
	}
	if d.raiz == "MensajeReceptor" {
		if b.ConsecutivoReceptor == "" {
			errores = append(errores, "Falta consecutivoReceptor para el Mensaje Receptor")
		} else if d.consecutivoReceptor != b.ConsecutivoReceptor {
			errores = append(errores, fmt.Sprintf("El NumeroConsecutivoReceptor del XML (%s) no coincide con el consecutivoReceptor enviado (%s)", d.consecutivoReceptor, b.ConsecutivoReceptor))
		}
		if c := d.consecutivoReceptor; len(c) == 20 && c[8:10] != "05" && c[8:10] != "06" && c[8:10] != "07" {
			errores = append(errores, fmt.Sprintf("El tipo de documento del NumeroConsecutivoReceptor (%s) debe ser 05, 06 o 07", c[8:10]))
		}
	} else {
		errores = append(errores, validarClave(d)...)
	}
	return errores, d
}

// validarClave checks the clave's structure against the document (NOTES
// §1): 506, emisor id (12, zero-padded; not checked for FEC, whose issuer
// is the buyer), the NumeroConsecutivo, its document type, the situación.
func validarClave(d datos) []string {
	c := d.clave
	if len(c) != 50 {
		return nil // the XSD and the clave comparison already report it
	}
	var errores []string
	if c[:3] != "506" {
		errores = append(errores, "La clave debe iniciar con el código de país 506")
	}
	if d.raiz != "FacturaElectronicaCompra" && d.emisor.numero != "" && len(d.emisor.numero) <= 12 {
		if want := strings.Repeat("0", 12-len(d.emisor.numero)) + d.emisor.numero; c[9:21] != want {
			errores = append(errores, fmt.Sprintf("La identificación en la clave (%s) no corresponde al emisor (%s)", c[9:21], want))
		}
	}
	if d.consecutivo != "" && c[21:41] != d.consecutivo {
		errores = append(errores, fmt.Sprintf("El consecutivo en la clave (%s) no coincide con el NumeroConsecutivo (%s)", c[21:41], d.consecutivo))
	}
	if len(d.consecutivo) == 20 && d.consecutivo[8:10] != tipoDocumento[d.raiz] {
		errores = append(errores, fmt.Sprintf("El tipo de documento del NumeroConsecutivo (%s) no corresponde a %s (%s)", d.consecutivo[8:10], d.raiz, tipoDocumento[d.raiz]))
	}
	if s := c[41]; s < '1' || s > '3' {
		errores = append(errores, fmt.Sprintf("La situación del comprobante en la clave (%c) debe ser 1, 2 o 3", s))
	}
	return errores
}

func minusculaInicial(s string) string {
	if s == "" {
		return s
	}
	return strings.ToLower(s[:1]) + s[1:]
}

// arbolEsquemas is the default validator's extracted schema tree.
type arbolEsquemas struct {
	dir   string
	rutas map[string]string // root -> schema path
}

// validarConXmllint is the default ValidarXSD: xmllint --nonet --noout
// --schema <embedded XSD of raiz>. Without xmllint it logs a warning once
// and accepts.
func (s *Simulador) validarConXmllint(raiz string, doc []byte) error {
	xmllint, schema, err := s.prepararXmllint(raiz)
	if err != nil {
		return err
	}
	if xmllint == "" {
		return nil
	}
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, xmllint, "--nonet", "--noout", "--schema", schema, "-")
	cmd.Stdin = bytes.NewReader(doc)
	var salida bytes.Buffer
	cmd.Stdout, cmd.Stderr = &salida, &salida
	if err := cmd.Run(); err != nil {
		var ee *exec.ExitError
		if !errors.As(err, &ee) {
			return fmt.Errorf("no se pudo ejecutar xmllint: %w", err)
		}
		return errors.New(resumirXmllint(salida.String()))
	}
	return nil
}

func (s *Simulador) prepararXmllint(raiz string) (xmllint, schema string, err error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.xmllintPath == "" {
		p, err := exec.LookPath("xmllint")
		if err != nil {
			if !s.advertido {
				s.advertido = true
				s.o.Log.Warn("simulador: xmllint no está instalado; se omite la validación XSD", "error", err)
			}
			return "", "", nil
		}
		s.xmllintPath = p
	}
	if s.esquemas.dir == "" {
		dir, err := os.MkdirTemp("", "simulador-esquemas-")
		if err != nil {
			return "", "", fmt.Errorf("no se pudieron preparar los esquemas: %w", err)
		}
		s.esquemas = arbolEsquemas{dir: dir, rutas: map[string]string{}}
	}
	if p, ok := s.esquemas.rutas[raiz]; ok {
		return s.xmllintPath, p, nil
	}
	p, err := esquemas.Extraer(s.esquemas.dir, raiz)
	if err != nil {
		return "", "", fmt.Errorf("no hay esquema para %s: %w", raiz, err)
	}
	s.esquemas.rutas[raiz] = p
	return s.xmllintPath, p, nil
}

// resumirXmllint keeps xmllint's error lines (at most 10), without the
// "-:" file prefix and the final "fails to validate".
func resumirXmllint(out string) string {
	var lineas []string
	for _, l := range strings.Split(out, "\n") {
		l = strings.TrimSpace(l)
		if l == "" || strings.HasSuffix(l, "fails to validate") || strings.HasSuffix(l, "validates") {
			continue
		}
		if strings.HasPrefix(l, "-:") {
			l = "línea " + strings.TrimPrefix(l, "-:")
		}
		lineas = append(lineas, l)
	}
	if len(lineas) == 0 {
		return "el documento no es válido"
	}
	if len(lineas) > 10 {
		lineas = append(lineas[:10], fmt.Sprintf("(y %d errores más)", len(lineas)-10))
	}
	return strings.Join(lineas, "; ")
}
