package firma

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
)

// Documents that exercise the C14N rules: namespace (re)declarations and
// undeclarations, attribute ordering by namespace URI, escaping, CR in text
// and attributes, CDATA, PIs and comments inside and outside the root,
// attribute-value normalization of literal whitespace, CRLF input, UTF-8.
var documentosC14N = map[string]string{
	"espacios de nombres": `<?xml version="1.0" encoding="UTF-8"?>
<?antes datos  del pi ?>
<!-- comentario antes -->
<a:raiz xmlns:a="urn:a" xmlns="urn:defecto" xmlns:b="urn:b" b:z="1" a:y="2" x="3" xml:lang="es" c="0">
  <hijo xmlns="" attr="v&quot;&#9;&#10;&#13;q">texto &amp; &lt; &gt; &#13; ' "</hijo>
  <b:c xmlns:b="urn:b" xmlns:c="urn:c"><c:d xmlns:a="urn:a2" a:k="v"/></b:c>
  <![CDATA[ <cdata> & ]]> ]]&gt;
  <e attr='comillas "dobles" y &apos;simples&apos;' />
  <?dentro?>
  <!-- comentario dentro -->
  <f xmlns="urn:defecto">redundante</f>
  <g xmlns="urn:otro"><h xmlns="urn:defecto"/><i xmlns=""><j/></i></g>
  <b:k xmlns:b="urn:b2" b:z="1" z="2" xmlns:z="urn:b" z:z="3"/>
</a:raiz>
<!-- después -->
<?despues?>
`,
	"normalización de atributos": "<r xmlns=\"urn:r\" a=\"x\ny\tz\r\nw\rv\" b=\"p&#10;q&#9;r&#13;s\" c='>'>\r\n<s d=\"  dos  espacios  \"/>\r\ntexto\rcon CR\r\n</r>",
	"factura": `<?xml version="1.0" encoding="utf-8"?>
<FacturaElectronica xmlns:xsd="http://www.w3.org/2001/XMLSchema" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" xmlns="https://cdn.comprobanteselectronicos.go.cr/xml-schemas/v4.4/facturaElectronica" xsi:schemaLocation="https://cdn.comprobanteselectronicos.go.cr/xml-schemas/v4.4/facturaElectronica x.xsd">
	<Emisor><Nombre>Emergencias Médicas &amp; Cía</Nombre></Emisor>
	<Otros><OtroTexto codigo="NumeroOrden" /><OtroTexto codigo="a&lt;b">x</OtroTexto></Otros>
</FacturaElectronica>`,
}

// xmllint --c14n and --exc-c14n (libxml2, both WITH comments) are the
// reference for whole documents.
func TestC14NComoXmllint(t *testing.T) {
	xmllint, err := exec.LookPath("xmllint")
	if err != nil {
		t.Skip("xmllint no está instalado (CI lo instala: apt-get install libxml2-utils)")
	}
	dir := t.TempDir()
	for nombre, src := range documentosC14N {
		f := filepath.Join(dir, "doc.xml")
		if err := os.WriteFile(f, []byte(src), 0o600); err != nil {
			t.Fatal(err)
		}
		doc, err := leer([]byte(src))
		if err != nil {
			t.Fatalf("%s: %v", nombre, err)
		}
		for _, v := range []struct {
			flag string
			modo modoC14N
		}{
			{"--c14n", modoC14N{comentarios: true}},
			{"--exc-c14n", modoC14N{exclusivo: true, comentarios: true}},
		} {
			want, err := exec.Command(xmllint, v.flag, f).Output()
			if err != nil {
				t.Fatalf("%s: xmllint %s: %v", nombre, v.flag, err)
			}
			got := c14nDocumento(doc, nil, v.modo)
			if !bytes.Equal(got, want) {
				t.Errorf("%s %s:\n got: %q\nwant: %q", nombre, v.flag, got, want)
			}
		}
	}
}

// Subsets: the apex of a fragment carries the namespace context of its
// ancestors (inclusive) or only what it uses (exclusive).
func TestC14NSubarbol(t *testing.T) {
	src := `<r xmlns="urn:r" xmlns:xsi="urn:xsi" xml:lang="es"><ds:S xmlns:ds="urn:ds"><ds:K Id="k"><ds:X>1</ds:X></ds:K><o><x:P xmlns:x="urn:x" xml:lang="en"><x:Q/></x:P></o></ds:S></r>`
	doc, err := leer([]byte(src))
	if err != nil {
		t.Fatal(err)
	}
	s := doc.raiz.hijosElem()[0]
	k := s.hijosElem()[0]
	p := s.hijosElem()[1].hijosElem()[0]
	casos := []struct {
		e    *elemento
		modo modoC14N
		want string
	}{
		{k, modoC14N{}, `<ds:K xmlns="urn:r" xmlns:ds="urn:ds" xmlns:xsi="urn:xsi" Id="k" xml:lang="es"><ds:X>1</ds:X></ds:K>`},
		{k, modoC14N{exclusivo: true}, `<ds:K xmlns:ds="urn:ds" Id="k"><ds:X>1</ds:X></ds:K>`},
		{k, modoC14N{exclusivo: true, prefijos: prefijosInclusivos("#default xsi")}, `<ds:K xmlns="urn:r" xmlns:ds="urn:ds" xmlns:xsi="urn:xsi" Id="k"><ds:X>1</ds:X></ds:K>`},
		{p, modoC14N{}, `<x:P xmlns="urn:r" xmlns:ds="urn:ds" xmlns:x="urn:x" xmlns:xsi="urn:xsi" xml:lang="en"><x:Q></x:Q></x:P>`},
		{p, modoC14N{exclusivo: true}, `<x:P xmlns:x="urn:x" xml:lang="en"><x:Q></x:Q></x:P>`},
	}
	for i, c := range casos {
		if got := string(c14nSubarbol(c.e, nil, c.modo)); got != c.want {
			t.Errorf("caso %d:\n got: %s\nwant: %s", i, got, c.want)
		}
	}
	// Enveloped: the document without S.
	if got, want := string(c14nDocumento(doc, s, modoC14N{})), `<r xmlns="urn:r" xmlns:xsi="urn:xsi" xml:lang="es"></r>`; got != want {
		t.Errorf("enveloped:\n got: %s\nwant: %s", got, want)
	}
}

func TestNormalizarAtributos(t *testing.T) {
	casos := map[string]string{
		"<a b=\"1\n2\">x\ny</a>":               "<a b=\"1 2\">x\ny</a>",
		"<a b='1\r\n2\t3'/>":                   "<a b='1 2 3'/>",
		"<!-- \"\n\" --><a b=\"\n\"/>":         "<!-- \"\n\" --><a b=\" \"/>",
		"<a><![CDATA[ <b c=\"\n\"> ]]></a>":    "<a><![CDATA[ <b c=\"\n\"> ]]></a>",
		"<?p a=\"\n\"?><a b=\">\n\"/>":         "<?p a=\"\n\"?><a b=\"> \"/>",
		"<a\nb=\"x\"\n/>":                      "<a\nb=\"x\"\n/>",
		"<a b=\"sin cambios\">texto\t</a>":     "<a b=\"sin cambios\">texto\t</a>",
		"<a b=\"&#10;\" c=\"\r\">\r\n</a>\r\n": "<a b=\"&#10;\" c=\" \">\r\n</a>\r\n",
	}
	for in, want := range casos {
		if got := string(normalizarAtributos([]byte(in))); got != want {
			t.Errorf("%q: got %q, want %q", in, got, want)
		}
	}
}
