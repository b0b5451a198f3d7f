package httpx

import (
	"slices"
	"strings"
	"sync"
	"unicode/utf8"
	"unsafe"
)

// Raw is a JSON value already written as the API writes it: the bytes that
// decoding it (DecodeValue) and encoding the result again would give — keys
// sorted, no spaces, numbers as written, strings escaped as encoding/json
// escapes them without HTML escaping. Rows PostgreSQL builds as JSON reach
// the response this way (AppendCanonical) instead of as map[string]any:
// the envelope and page writers splice it, and encoding/json (exports,
// anything else) takes it as it is.
type Raw []byte

// MarshalJSON returns r (null when empty).
func (r Raw) MarshalJSON() ([]byte, error) {
	if len(r) == 0 {
		return []byte("null"), nil
	}
	return r, nil
}

// AppendCanonical appends src, one JSON value, in the form Raw holds: the
// bytes appendValue(DecodeValue(src)) would write, without building the
// tree (PostgreSQL's jsonb prints keys shorter first and spaces after
// colons and commas; Go's maps print them sorted and compact). An object's
// duplicate key keeps its last value, as a map would. On invalid JSON it
// returns an error (dst's contents past its length are then undefined).
func AppendCanonical(dst, src []byte) ([]byte, error) {
	return appendCanonical(dst, src, false, nil)
}

// Member is a key and its value as JSON (nil: null), or, with Omit, a key
// left out.
type Member struct {
	Key   string
	Value []byte
	// Omit leaves the key out, as deleting it from the decoded map would
	// (a later member of the same key puts it back).
	Omit bool
}

// AppendCanonicalObject is AppendCanonical of the object src with extra
// members, each replacing the object's own of the same key (a later extra
// replacing an earlier one), as assigning them to the decoded map would:
// a row and the relations PostgreSQL sent beside it. An Omit member
// deletes the key instead.
func AppendCanonicalObject(dst, src []byte, extra []Member) ([]byte, error) {
	return appendCanonical(dst, src, true, extra)
}

// appendCanonical rewrites src, which must be an object when object is set
// (with extra members).
func appendCanonical(dst, src []byte, object bool, extra []Member) ([]byte, error) {
	c := canons.Get().(*canon)
	defer c.release()
	c.d = Scanner{B: src}
	c.d.Space()
	var out []byte
	var err error
	switch {
	case !object:
		out, err = c.value(dst)
	case c.d.I < len(src) && src[c.d.I] == '{':
		out, err = c.object(dst, extra)
	default:
		err = errRapido
	}
	if err != nil {
		return dst, err
	}
	c.d.Space()
	if c.d.I != len(src) {
		return dst, errRapido
	}
	return out, nil
}

// canon rewrites one value; members is the stack of the objects being
// sorted (a nested object's members above its parent's).
type canon struct {
	d       Scanner
	members []member
	// order is the last sort of an object of many members: the rows of a
	// page have the same keys in the same order, so the sort is done once
	// and its permutation applied to the others (checked key by key).
	order struct {
		keys   []string // the object's keys as read (copies)
		perm   []int    // sorted position i holds the member read at perm[i]
		sorted []member // scratch
	}
}

// orderCached is the size from which an object's sort is kept for the
// next object: a row has tens of keys, a nested relation a few (sorting
// those costs less than comparing their keys).
const orderCached = 8

// member is an object's key and where its value was written in the output
// (omit: nowhere, the key is left out).
type member struct {
	key        string
	start, end int
	omit       bool
	pos        int32 // order read in, for the sort's permutation
}

var canons = sync.Pool{New: func() any { return &canon{members: make([]member, 0, 64)} }}

func (c *canon) release() {
	c.d = Scanner{}
	if cap(c.members) > 4096 {
		return
	}
	c.members = c.members[:0]
	canons.Put(c)
}

func (c *canon) value(b []byte) ([]byte, error) {
	d := &c.d
	if d.I >= len(d.B) {
		return b, errRapido
	}
	switch ch := d.B[d.I]; {
	case ch == '{':
		return c.object(b, nil)
	case ch == '[':
		b = append(b, '[')
		open := len(b)
		err := d.Array(func() error {
			if len(b) > open {
				b = append(b, ',')
			}
			var err error
			b, err = c.value(b)
			return err
		})
		if err != nil {
			return b, err
		}
		return append(b, ']'), nil
	case ch == '"':
		return c.str(b)
	case ch == 't':
		return c.lit(b, "true")
	case ch == 'f':
		return c.lit(b, "false")
	case ch == 'n':
		return c.lit(b, "null")
	case ch == '-' || (ch >= '0' && ch <= '9'):
		n, err := d.number()
		if err != nil {
			return b, err
		}
		return append(b, n...), nil
	}
	return b, errRapido
}

func (c *canon) lit(b []byte, s string) ([]byte, error) {
	if !c.d.Literal(s) {
		return b, errRapido
	}
	return append(b, s...), nil
}

// plain returns the string at d.I (on its quote) when encoding its bytes
// again would give them back unchanged — no escape, no control character,
// valid UTF-8 without U+2028/U+2029, the common case — and moves past it.
// The string views src: it is used only during the call.
func (c *canon) plain() (string, bool) {
	d := &c.d
	start := d.I + 1
	ascii := true
	for j := start; j < len(d.B); j++ {
		ch := d.B[j]
		switch {
		case ch == '"':
			s := d.B[start:j]
			if !ascii && (!utf8.Valid(s) || hasLineSeparator(s)) {
				return "", false
			}
			d.I = j + 1
			return unsafe.String(unsafe.SliceData(s), len(s)), true
		case ch == '\\' || ch < 0x20:
			return "", false
		case ch >= utf8.RuneSelf:
			ascii = false
		}
	}
	return "", false
}

// hasLineSeparator reports whether s holds U+2028 or U+2029 (E2 80 A8/A9),
// which appendString escapes.
func hasLineSeparator(s []byte) bool {
	for i := 0; i+2 < len(s); i++ {
		if s[i] == 0xE2 && s[i+1] == 0x80 && (s[i+2] == 0xA8 || s[i+2] == 0xA9) {
			return true
		}
	}
	return false
}

func (c *canon) str(b []byte) ([]byte, error) {
	start := c.d.I
	if _, ok := c.plain(); ok {
		return append(b, c.d.B[start:c.d.I]...), nil
	}
	s, err := c.d.str()
	if err != nil {
		return b, err
	}
	return appendString(b, s), nil
}

// key reads an object's key (a view of src when it is plain).
func (c *canon) key() (string, error) {
	if s, ok := c.plain(); ok {
		return s, nil
	}
	return c.d.str()
}

// object writes each member's value after b as it reads them (then the
// extra members'), then the object with its members sorted by key over
// that scratch space.
func (c *canon) object(b []byte, extra []Member) ([]byte, error) {
	base, mark := len(b), len(c.members)
	err := c.d.Object(c.key, func(k string) error {
		start := len(b)
		var err error
		if b, err = c.value(b); err == nil {
			c.members = append(c.members, member{key: k, start: start, end: len(b)})
		}
		return err
	})
	if err != nil {
		return b, err
	}
	if len(extra) == 0 && len(c.members) == mark {
		return append(b, '{', '}'), nil
	}
	if len(extra) > 0 {
		outer := c.d
		for _, m := range extra {
			start := len(b)
			if m.Omit {
				c.members = append(c.members, member{key: m.Key, start: start, end: start, omit: true})
				continue
			}
			if m.Value == nil {
				b = append(b, "null"...)
			} else {
				c.d = Scanner{B: m.Value}
				c.d.Space()
				var err error
				if b, err = c.value(b); err != nil {
					return b, err
				}
				if c.d.Space(); c.d.I != len(m.Value) {
					return b, errRapido
				}
			}
			c.members = append(c.members, member{key: m.Key, start: start, end: len(b)})
		}
		c.d = outer
	}
	ms := c.members[mark:]
	c.sort(ms)
	scratch := len(b)
	b = append(b, '{')
	first := true
	for i, m := range ms {
		if i+1 < len(ms) && ms[i+1].key == m.key || m.omit {
			continue // a later duplicate wins, as in a map; an omitted key is deleted
		}
		if !first {
			b = append(b, ',')
		}
		first = false
		b = appendString(b, m.key)
		b = append(b, ':')
		b = append(b, b[m.start:m.end]...)
	}
	b = append(b, '}')
	n := copy(b[base:], b[scratch:])
	c.members = c.members[:mark]
	return b[:base+n], nil
}

// sort orders an object's members by key, stably (a later duplicate is
// the one kept), reusing the last permutation when ms has the same keys in
// the same order as the object it was made for.
func (c *canon) sort(ms []member) {
	byKey := func(x, y member) int { return strings.Compare(x.key, y.key) }
	if len(ms) < orderCached {
		slices.SortStableFunc(ms, byKey)
		return
	}
	o := &c.order
	if len(o.keys) == len(ms) {
		same := true
		for i, m := range ms {
			if o.keys[i] != m.key {
				same = false
				break
			}
		}
		if same {
			o.sorted = o.sorted[:0]
			for _, p := range o.perm {
				o.sorted = append(o.sorted, ms[p])
			}
			copy(ms, o.sorted)
			return
		}
	}
	o.keys = o.keys[:0]
	for i := range ms {
		ms[i].pos = int32(i)
		// A copy: the key may view src, which the next call replaces.
		o.keys = append(o.keys, strings.Clone(ms[i].key))
	}
	slices.SortStableFunc(ms, byKey)
	o.perm = o.perm[:0]
	for _, m := range ms {
		o.perm = append(o.perm, int(m.pos))
	}
}
