package firma

import (
	"bytes"
	"encoding/xml"
	"errors"
	"fmt"
	"io"
	"strings"
	"unicode/utf8"
)

// The small XML tree the package signs, verifies and canonicalizes. It keeps
// what the XPath data model of C14N needs: element prefixes as written, the
// namespace declarations where they appear, attributes with their prefixes,
// text (entities and character references resolved, CDATA folded into
// text), processing instructions and comments.

const (
	nsXML   = "http://www.w3.org/XML/1998/namespace"
	nsXMLNS = "http://www.w3.org/2000/xmlns/"

	// maxProfundidad bounds nesting (C14N recurses per level); v4.4
	// documents and their signatures stay under 15 levels.
	maxProfundidad = 512
)

type nodo interface{ esNodo() }

type elemento struct {
	prefijo, local string
	decls          []declNS   // xmlns / xmlns:p on this element, as written
	attrs          []atributo // other attributes, as written
	hijos          []nodo
	padre          *elemento
}

type declNS struct{ prefijo, uri string } // prefijo "" = default namespace

type atributo struct{ prefijo, local, valor string }

type texto string

type instruccion struct{ destino, datos string }

type comentario string

func (*elemento) esNodo()   {}
func (texto) esNodo()       {}
func (instruccion) esNodo() {}
func (comentario) esNodo()  {}

// documento is a parsed document: the root plus the PIs and comments outside
// it (the XML declaration is not a node).
type documento struct {
	antes   []nodo
	raiz    *elemento
	despues []nodo
}

func (e *elemento) nombre() string {
	if e.prefijo == "" {
		return e.local
	}
	return e.prefijo + ":" + e.local
}

// uriDe resolves a prefix ("" = default namespace) in the scope of e.
func (e *elemento) uriDe(prefijo string) (string, bool) {
	if prefijo == "xml" {
		return nsXML, true
	}
	for x := e; x != nil; x = x.padre {
		for _, d := range x.decls {
			if d.prefijo == prefijo {
				return d.uri, true
			}
		}
	}
	return "", prefijo == ""
}

// ns is the namespace URI of e's name.
func (e *elemento) ns() string {
	u, _ := e.uriDe(e.prefijo)
	return u
}

// es reports whether e is {uri}local.
func (e *elemento) es(uri, local string) bool { return e.local == local && e.ns() == uri }

// enAmbito returns every namespace in scope at e (prefix -> URI; a default
// namespace undeclared with xmlns="" maps "" to "").
func (e *elemento) enAmbito() map[string]string {
	m := map[string]string{}
	var cadena []*elemento
	for x := e; x != nil; x = x.padre {
		cadena = append(cadena, x)
	}
	for i := len(cadena) - 1; i >= 0; i-- {
		for _, d := range cadena[i].decls {
			m[d.prefijo] = d.uri
		}
	}
	return m
}

// attr returns the value of an unprefixed attribute.
func (e *elemento) attr(local string) (string, bool) {
	for _, a := range e.attrs {
		if a.prefijo == "" && a.local == local {
			return a.valor, true
		}
	}
	return "", false
}

// hijosElem returns the child elements of e.
func (e *elemento) hijosElem() []*elemento {
	var r []*elemento
	for _, h := range e.hijos {
		if x, ok := h.(*elemento); ok {
			r = append(r, x)
		}
	}
	return r
}

// hijo returns the first child element {uri}local, or nil.
func (e *elemento) hijo(uri, local string) *elemento {
	for _, h := range e.hijosElem() {
		if h.es(uri, local) {
			return h
		}
	}
	return nil
}

// ruta follows a path of child elements, each {uri}local.
func (e *elemento) ruta(pasos ...[2]string) *elemento {
	x := e
	for _, p := range pasos {
		if x = x.hijo(p[0], p[1]); x == nil {
			return nil
		}
	}
	return x
}

// textoPlano concatenates the text children of e (not of descendants).
func (e *elemento) textoPlano() string {
	var b strings.Builder
	for _, h := range e.hijos {
		if t, ok := h.(texto); ok {
			b.WriteString(string(t))
		}
	}
	return b.String()
}

// agregar appends child c to e.
func (e *elemento) agregar(c nodo) {
	if x, ok := c.(*elemento); ok {
		x.padre = e
	}
	e.hijos = append(e.hijos, c)
}

// recorrer visits e and its descendant elements in document order.
func (e *elemento) recorrer(f func(*elemento)) {
	f(e)
	for _, h := range e.hijos {
		if x, ok := h.(*elemento); ok {
			x.recorrer(f)
		}
	}
}

// leer parses UTF-8 XML into a tree. DOCTYPE declarations are refused (an
// internal subset could default attributes or define entities, which would
// change the canonical form); so are encodings other than UTF-8, unbound
// prefixes and duplicate attributes.
func leer(b []byte) (*documento, error) {
	b = bytes.TrimPrefix(b, []byte("\xef\xbb\xbf"))
	if !utf8.Valid(b) {
		return nil, errors.New("el documento no es UTF-8 válido")
	}
	b = normalizarAtributos(b)
	d := xml.NewDecoder(bytes.NewReader(b))
	d.Strict = true
	doc := &documento{}
	var pila []*elemento
	primero := true
	for {
		tok, err := d.RawToken()
		if err == io.EOF {
			break
		}
		if err != nil {
			return nil, fmt.Errorf("XML mal formado: %v", err)
		}
		inicio := primero
		primero = false
		var padre *elemento
		if len(pila) > 0 {
			padre = pila[len(pila)-1]
		}
		switch t := tok.(type) {
		case xml.StartElement:
			if padre == nil && doc.raiz != nil {
				return nil, errors.New("XML mal formado: más de un elemento raíz")
			}
			if len(pila) >= maxProfundidad {
				return nil, fmt.Errorf("XML demasiado anidado (más de %d niveles)", maxProfundidad)
			}
			e, err := nuevoElemento(t, padre)
			if err != nil {
				return nil, err
			}
			if padre == nil {
				doc.raiz = e
			} else {
				padre.agregar(e)
			}
			pila = append(pila, e)
		case xml.EndElement:
			if padre == nil || t.Name.Space != padre.prefijo || t.Name.Local != padre.local {
				return nil, fmt.Errorf("XML mal formado: cierre inesperado </%s>", nombreXML(t.Name))
			}
			pila = pila[:len(pila)-1]
		case xml.CharData:
			if padre == nil {
				if len(bytes.TrimLeft(t, " \t\r\n")) > 0 {
					return nil, errors.New("XML mal formado: texto fuera del elemento raíz")
				}
				continue
			}
			padre.hijos = append(padre.hijos, texto(t))
		case xml.Comment:
			n := comentario(finesDeLinea(string(t)))
			agregarFuera(doc, padre, n)
		case xml.ProcInst:
			if t.Target == "xml" {
				if !inicio {
					return nil, errors.New("XML mal formado: declaración XML fuera del inicio")
				}
				continue
			}
			agregarFuera(doc, padre, instruccion{t.Target, finesDeLinea(string(t.Inst))})
		case xml.Directive:
			return nil, errors.New("declaraciones <!DOCTYPE>/<!...> no soportadas")
		}
	}
	if doc.raiz == nil {
		return nil, errors.New("XML mal formado: sin elemento raíz")
	}
	if len(pila) > 0 {
		return nil, fmt.Errorf("XML mal formado: <%s> sin cerrar", pila[len(pila)-1].nombre())
	}
	return doc, nil
}

func agregarFuera(doc *documento, padre *elemento, n nodo) {
	switch {
	case padre != nil:
		padre.hijos = append(padre.hijos, n)
	case doc.raiz == nil:
		doc.antes = append(doc.antes, n)
	default:
		doc.despues = append(doc.despues, n)
	}
}

func nombreXML(n xml.Name) string {
	if n.Space == "" {
		return n.Local
	}
	return n.Space + ":" + n.Local
}

func nuevoElemento(t xml.StartElement, padre *elemento) (*elemento, error) {
	e := &elemento{prefijo: t.Name.Space, local: t.Name.Local, padre: padre}
	if e.prefijo == "xmlns" || e.local == "" || strings.Contains(e.local, ":") {
		return nil, fmt.Errorf("XML mal formado: nombre de elemento %q", nombreXML(t.Name))
	}
	vistos := map[string]bool{}
	for _, a := range t.Attr {
		q := nombreXML(a.Name)
		if vistos[q] {
			return nil, fmt.Errorf("XML mal formado: atributo %q repetido en <%s>", q, e.nombre())
		}
		vistos[q] = true
		switch {
		case a.Name.Space == "" && a.Name.Local == "xmlns":
			e.decls = append(e.decls, declNS{"", a.Value})
		case a.Name.Space == "xmlns":
			if a.Value == "" {
				return nil, fmt.Errorf("XML mal formado: xmlns:%s vacío", a.Name.Local)
			}
			if a.Name.Local == "xml" {
				if a.Value != nsXML {
					return nil, errors.New("XML mal formado: xmlns:xml con otro URI")
				}
				continue // the xml namespace is never rendered by C14N
			}
			if a.Name.Local == "xmlns" || a.Value == nsXML || a.Value == nsXMLNS {
				return nil, fmt.Errorf("XML mal formado: declaración xmlns:%s", a.Name.Local)
			}
			e.decls = append(e.decls, declNS{a.Name.Local, a.Value})
		default:
			e.attrs = append(e.attrs, atributo{a.Name.Space, a.Name.Local, a.Value})
		}
	}
	if _, ok := e.uriDe(e.prefijo); !ok {
		return nil, fmt.Errorf("XML mal formado: prefijo %q sin declarar", e.prefijo)
	}
	// Expanded attribute names must be unique too (p:a and q:a with p, q bound
	// to the same URI).
	exp := map[string]bool{}
	for _, a := range e.attrs {
		uri := ""
		if a.prefijo != "" {
			u, ok := e.uriDe(a.prefijo)
			if !ok {
				return nil, fmt.Errorf("XML mal formado: prefijo %q sin declarar", a.prefijo)
			}
			uri = u
		}
		k := uri + " " + a.local
		if exp[k] {
			return nil, fmt.Errorf("XML mal formado: atributo {%s}%s repetido", uri, a.local)
		}
		exp[k] = true
	}
	return e, nil
}

// finesDeLinea applies XML end-of-line handling (CRLF and lone CR become LF)
// to comments and PIs, which encoding/xml returns raw.
func finesDeLinea(s string) string {
	if !strings.Contains(s, "\r") {
		return s
	}
	return strings.ReplaceAll(strings.ReplaceAll(s, "\r\n", "\n"), "\r", "\n")
}

// normalizarAtributos applies attribute-value normalization (XML 1.0 §3.3.3,
// CDATA attributes, no DTD) that encoding/xml skips: a literal TAB, LF, CR or
// CRLF inside a quoted attribute value becomes one space, while the same
// characters written as references (&#9; &#10; &#13;) are kept. It scans
// tags only, skipping comments, CDATA sections and PIs, and returns b itself
// when nothing changes.
func normalizarAtributos(b []byte) []byte {
	var out []byte // nil until the first change
	ultimo := 0    // b[ultimo:i] not yet copied to out
	i := 0
	saltar := func(fin string, desde int) int {
		j := bytes.Index(b[desde:], []byte(fin))
		if j < 0 {
			return len(b)
		}
		return desde + j + len(fin)
	}
	for i < len(b) {
		if b[i] != '<' {
			i++
			continue
		}
		r := b[i:]
		switch {
		case bytes.HasPrefix(r, []byte("<!--")):
			i = saltar("-->", i+4)
		case bytes.HasPrefix(r, []byte("<![CDATA[")):
			i = saltar("]]>", i+9)
		case bytes.HasPrefix(r, []byte("<?")):
			i = saltar("?>", i+2)
		case bytes.HasPrefix(r, []byte("<!")):
			i += 2 // DOCTYPE: refused by the parser anyway
		default:
			var q byte
			j := i + 1
			for ; j < len(b); j++ {
				c := b[j]
				if q == 0 {
					if c == '"' || c == '\'' {
						q = c
					} else if c == '>' {
						break
					}
					continue
				}
				if c == q {
					q = 0
					continue
				}
				if c == '\t' || c == '\n' || c == '\r' {
					if out == nil {
						out = make([]byte, 0, len(b))
					}
					out = append(out, b[ultimo:j]...)
					out = append(out, ' ')
					if c == '\r' && j+1 < len(b) && b[j+1] == '\n' {
						j++
					}
					ultimo = j + 1
				}
			}
			i = j + 1
		}
	}
	if out == nil {
		return b
	}
	return append(out, b[ultimo:]...)
}
