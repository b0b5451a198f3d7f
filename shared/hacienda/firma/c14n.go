package firma

import (
	"bytes"
	"sort"
	"strings"
)

// Canonical XML 1.0 (https://www.w3.org/TR/2001/REC-xml-c14n-20010315) and
// Exclusive XML Canonicalization 1.0
// (https://www.w3.org/TR/2002/REC-xml-exc-c14n-20020718/) over the tree of
// arbol.go, for the node-sets XML-DSig produces here: a whole document or
// the subtree of one element, optionally minus one element's subtree (the
// enveloped-signature transform).
//
// Rules implemented:
//   - no XML declaration; PIs and (if requested) comments outside the root,
//     separated from it by LF; no whitespace outside the root otherwise;
//   - empty elements as start/end pairs;
//   - namespace declarations first, sorted by prefix (default first), then
//     attributes sorted by (namespace URI, local name), unqualified first;
//   - inclusive: a namespace in scope is rendered unless the nearest output
//     ancestor already renders it with the same URI; at the apex of a subtree
//     all in-scope namespaces are rendered, and the xml:* attributes of the
//     ancestors are inherited (C14N 1.0 §2.4);
//   - exclusive: only visibly utilized prefixes (the element's and its
//     attributes') plus the InclusiveNamespaces PrefixList, under the same
//     "not already rendered" rule; no xml:* inheritance;
//   - xmlns="" only where an output ancestor renders a non-empty default;
//   - text escapes & < > and CR; attribute values escape & < " TAB LF CR.

const (
	algC14N           = "http://www.w3.org/TR/2001/REC-xml-c14n-20010315"
	algC14NComentario = "http://www.w3.org/TR/2001/REC-xml-c14n-20010315#WithComments"
	algExcC14N        = "http://www.w3.org/2001/10/xml-exc-c14n#"
	algExcC14NComent  = "http://www.w3.org/2001/10/xml-exc-c14n#WithComments"
)

type modoC14N struct {
	exclusivo   bool
	comentarios bool
	prefijos    map[string]bool // exclusive InclusiveNamespaces PrefixList ("" = #default)
}

// modoDe maps a canonicalization algorithm URI to its mode.
func modoDe(alg string) (modoC14N, bool) {
	switch alg {
	case algC14N:
		return modoC14N{}, true
	case algC14NComentario:
		return modoC14N{comentarios: true}, true
	case algExcC14N:
		return modoC14N{exclusivo: true}, true
	case algExcC14NComent:
		return modoC14N{exclusivo: true, comentarios: true}, true
	}
	return modoC14N{}, false
}

type c14n struct {
	buf     bytes.Buffer
	modo    modoC14N
	excluir *elemento
}

// c14nDocumento canonicalizes the whole document, minus excluir's subtree.
func c14nDocumento(doc *documento, excluir *elemento, m modoC14N) []byte {
	c := &c14n{modo: m, excluir: excluir}
	for _, n := range doc.antes {
		if c.fuera(n) {
			c.buf.WriteByte('\n')
		}
	}
	if doc.raiz != excluir {
		c.elemento(doc.raiz, map[string]string{}, map[string]string{}, false)
	}
	for _, n := range doc.despues {
		if c.visible(n) {
			c.buf.WriteByte('\n')
			c.fuera(n)
		}
	}
	return c.buf.Bytes()
}

// c14nSubarbol canonicalizes apex and its descendants (a document subset:
// the namespace context and xml:* attributes of the ancestors count).
func c14nSubarbol(apex *elemento, excluir *elemento, m modoC14N) []byte {
	c := &c14n{modo: m, excluir: excluir}
	if apex == excluir {
		return nil
	}
	var ambito map[string]string
	if apex.padre != nil {
		ambito = apex.padre.enAmbito()
	} else {
		ambito = map[string]string{}
	}
	c.elemento(apex, ambito, map[string]string{}, apex.padre != nil)
	return c.buf.Bytes()
}

func (c *c14n) visible(n nodo) bool {
	_, esCom := n.(comentario)
	return !esCom || c.modo.comentarios
}

// fuera writes a PI or comment at document level; it reports whether
// anything was written.
func (c *c14n) fuera(n nodo) bool {
	if !c.visible(n) {
		return false
	}
	c.nodo(n)
	return true
}

func (c *c14n) nodo(n nodo) {
	switch t := n.(type) {
	case texto:
		escapesTexto.escribir(&c.buf, string(t))
	case comentario:
		if c.modo.comentarios {
			c.buf.WriteString("<!--")
			c.buf.WriteString(string(t))
			c.buf.WriteString("-->")
		}
	case instruccion:
		c.buf.WriteString("<?")
		c.buf.WriteString(t.destino)
		if t.datos != "" {
			c.buf.WriteByte(' ')
			c.buf.WriteString(t.datos)
		}
		c.buf.WriteString("?>")
	}
}

// elemento writes e. ambitoPadre is the namespace scope of e's parent in the
// source tree; renderizados the namespaces the output ancestors render (the
// scope a reader of the output sees). apexConAncestros marks the apex of a
// subset whose ancestors exist (for xml:* inheritance).
func (c *c14n) elemento(e *elemento, ambitoPadre, renderizados map[string]string, apexConAncestros bool) {
	ambito := ambitoPadre
	if len(e.decls) > 0 {
		ambito = make(map[string]string, len(ambitoPadre)+len(e.decls))
		for k, v := range ambitoPadre {
			ambito[k] = v
		}
		for _, d := range e.decls {
			ambito[d.prefijo] = d.uri
		}
	}

	// Namespace declarations to render.
	var candidatos []string
	if c.modo.exclusivo {
		usados := map[string]bool{e.prefijo: true}
		for _, a := range e.attrs {
			if a.prefijo != "" && a.prefijo != "xml" {
				usados[a.prefijo] = true
			}
		}
		for p := range c.modo.prefijos {
			if _, ok := ambito[p]; ok || p == "" {
				usados[p] = true
			}
		}
		for p := range usados {
			candidatos = append(candidatos, p)
		}
	} else {
		for p := range ambito {
			candidatos = append(candidatos, p)
		}
		if _, ok := ambito[""]; !ok {
			candidatos = append(candidatos, "")
		}
	}
	var decls []declNS
	for _, p := range candidatos {
		uri := ambito[p] // "" for an absent default namespace
		if renderizados[p] == uri {
			continue // already in the output scope (or both absent/empty)
		}
		decls = append(decls, declNS{p, uri})
	}
	sort.Slice(decls, func(i, j int) bool { return decls[i].prefijo < decls[j].prefijo })
	hijoRender := renderizados
	if len(decls) > 0 {
		hijoRender = make(map[string]string, len(renderizados)+len(decls))
		for k, v := range renderizados {
			hijoRender[k] = v
		}
		for _, d := range decls {
			hijoRender[d.prefijo] = d.uri
		}
	}

	// Attributes, with their namespace URIs for sorting.
	type attrOrd struct {
		uri string
		a   atributo
	}
	attrs := make([]attrOrd, 0, len(e.attrs))
	tiene := map[string]bool{}
	for _, a := range e.attrs {
		uri := ""
		if a.prefijo == "xml" {
			uri = nsXML
			tiene[a.local] = true
		} else if a.prefijo != "" {
			uri = ambito[a.prefijo]
		}
		attrs = append(attrs, attrOrd{uri, a})
	}
	if apexConAncestros && !c.modo.exclusivo {
		for x := e.padre; x != nil; x = x.padre {
			for _, a := range x.attrs {
				if a.prefijo == "xml" && !tiene[a.local] {
					tiene[a.local] = true
					attrs = append(attrs, attrOrd{nsXML, a})
				}
			}
		}
	}
	sort.SliceStable(attrs, func(i, j int) bool {
		if attrs[i].uri != attrs[j].uri {
			return attrs[i].uri < attrs[j].uri
		}
		return attrs[i].a.local < attrs[j].a.local
	})

	nombre := e.nombre()
	c.buf.WriteByte('<')
	c.buf.WriteString(nombre)
	for _, d := range decls {
		if d.prefijo == "" {
			c.buf.WriteString(` xmlns="`)
		} else {
			c.buf.WriteString(" xmlns:")
			c.buf.WriteString(d.prefijo)
			c.buf.WriteString(`="`)
		}
		escapesAtributo.escribir(&c.buf, d.uri)
		c.buf.WriteByte('"')
	}
	for _, a := range attrs {
		c.buf.WriteByte(' ')
		if a.a.prefijo != "" {
			c.buf.WriteString(a.a.prefijo)
			c.buf.WriteByte(':')
		}
		c.buf.WriteString(a.a.local)
		c.buf.WriteString(`="`)
		escapesAtributo.escribir(&c.buf, a.a.valor)
		c.buf.WriteByte('"')
	}
	c.buf.WriteByte('>')
	for _, h := range e.hijos {
		if x, ok := h.(*elemento); ok {
			if x != c.excluir {
				c.elemento(x, ambito, hijoRender, false)
			}
			continue
		}
		c.nodo(h)
	}
	c.buf.WriteString("</")
	c.buf.WriteString(nombre)
	c.buf.WriteByte('>')
}

// The escapes of Canonical XML 1.0 (section 2.3): text nodes and attribute
// values escape different characters.
var (
	escapesTexto    = escapes{'&': "&amp;", '<': "&lt;", '>': "&gt;", '\r': "&#xD;"}
	escapesAtributo = escapes{'&': "&amp;", '<': "&lt;", '"': "&quot;", '\t': "&#x9;", '\n': "&#xA;", '\r': "&#xD;"}
)

// escapes maps a byte to its replacement ("" keeps it).
type escapes [256]string

func (e *escapes) escribir(b *bytes.Buffer, s string) {
	inicio := 0
	for i := 0; i < len(s); i++ {
		if r := e[s[i]]; r != "" {
			b.WriteString(s[inicio:i])
			b.WriteString(r)
			inicio = i + 1
		}
	}
	b.WriteString(s[inicio:])
}

// prefijosInclusivos parses an InclusiveNamespaces PrefixList.
func prefijosInclusivos(lista string) map[string]bool {
	m := map[string]bool{}
	for _, p := range strings.Fields(lista) {
		if p == "#default" {
			p = ""
		}
		m[p] = true
	}
	return m
}
