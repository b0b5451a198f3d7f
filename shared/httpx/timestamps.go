package httpx

import "bytes"

// Timestamps in responses have one format: RFC 3339 in UTC ending in `Z`,
// with the fraction of a second as time.RFC3339Nano prints it (trailing
// zeros trimmed, no dot when nothing is left): 2026-11-24T11:00:00.12Z,
// 2026-11-24T11:00:00Z.
//
// Go prints a UTC time.Time that way already. Rows built as JSON by
// PostgreSQL (to_jsonb) print timestamptz as 2026-11-24T11:00:00.12+00:00
// (the pool's sessions run in UTC, so the offset is always +00:00) and has no
// setting for `Z`; a to_char with a fixed number of digits keeps trailing
// zeros (…:00.120000Z). NormalizeTimestamps rewrites both in the body about
// to be written.

var (
	offsetUTC = []byte(`+00:00"`) // PostgreSQL's UTC timestamps
	endZ      = []byte(`Z"`)
)

const (
	minTimestamp  = len(`2006-01-02T15:04:05Z`)
	maxFracDigits = 9
)

// NormalizeTimestamps rewrites, in place, the JSON string values of the
// exact shape "YYYY-MM-DDTHH:MM:SS(.fraction)?(+00:00|Z)" to the same instant
// ending in `Z` with the fraction's trailing zeros trimmed, and returns the
// (possibly shorter) body. Only values of object keys that name timestamps
// are touched (keys ending in `_en` or `_at`, or starting with `fecha`), so a
// user's free text never changes; strings inside strings (escaped quotes)
// are skipped as the JSON grammar says. Values in another offset are left
// alone (a Costa Rica time like fecha_emision -06:00 keeps its offset).
// A body with nothing to rewrite (no `+00:00"`, no `0Z"`) is returned as is
// without being scanned.
//
// body must be valid JSON (the encoder's output); on anything else the
// function still never writes outside the body, and rewrites nothing that is
// not a string value following a timestamp key and a colon.
func NormalizeTimestamps(body []byte) []byte {
	if !bytes.Contains(body, offsetUTC) && !zeroBeforeZ(body) {
		return body
	}
	n := len(body)
	w := 0      // write position: everything before it is final
	copied := 0 // read position up to which body has been moved to w
	i := 0
	for i < n {
		q := bytes.IndexByte(body[i:], '"')
		if q < 0 {
			break
		}
		start := i + q
		end := stringEnd(body, start+1)
		if end < 0 {
			break
		}
		k := skipSpace(body, end+1)
		if k >= n || body[k] != ':' {
			// A value (or an element of an array): not after a timestamp key.
			i = end + 1
			continue
		}
		// A key.
		i = k + 1
		if !isTimestampKey(body[start+1 : end]) {
			continue
		}
		v := skipSpace(body, k+1)
		if v >= n || body[v] != '"' {
			continue
		}
		vend := stringEnd(body, v+1)
		if vend < 0 {
			break
		}
		i = vend + 1
		val := body[v+1 : vend]
		keep, ok := canonicalLength(val)
		if !ok {
			continue
		}
		// Move what precedes the value, then the value's kept prefix and Z.
		w += copy(body[w:], body[copied:v+1+keep])
		body[w] = 'Z'
		w++
		copied = vend // the closing quote is copied with the next segment
	}
	if copied == 0 {
		return body
	}
	w += copy(body[w:], body[copied:])
	return body[:w]
}

// zeroBeforeZ reports whether body contains `0Z"` (a fraction with a
// trailing zero, or whole seconds ending in 0). bytes.Contains would be slow
// here: '0' is everywhere in a JSON body, `Z"` only at the end of timestamps.
func zeroBeforeZ(body []byte) bool {
	for i := 0; ; {
		j := bytes.Index(body[i:], endZ)
		if j < 0 {
			return false
		}
		i += j
		if i > 0 && body[i-1] == '0' {
			return true
		}
		i += len(endZ)
	}
}

// stringEnd returns the index of the quote closing the string whose content
// starts at i, or -1 when it is not closed.
func stringEnd(b []byte, i int) int {
	for {
		q := bytes.IndexByte(b[i:], '"')
		if q < 0 {
			return -1
		}
		j := i + q
		// The quote is escaped when an odd number of backslashes precede it.
		bs := 0
		for p := j - 1; p >= i && b[p] == '\\'; p-- {
			bs++
		}
		if bs%2 == 0 {
			return j
		}
		i = j + 1
	}
}

func skipSpace(b []byte, i int) int {
	for i < len(b) && (b[i] == ' ' || b[i] == '\n' || b[i] == '\r' || b[i] == '\t') {
		i++
	}
	return i
}

// isTimestampKey reports whether an object key (raw, between its quotes)
// names a timestamp: creado_en, last_used_at, fecha_emision.
func isTimestampKey(k []byte) bool {
	n := len(k)
	if n >= 3 && k[n-3] == '_' && ((k[n-2] == 'e' && k[n-1] == 'n') || (k[n-2] == 'a' && k[n-1] == 't')) {
		return true
	}
	return n >= 5 && string(k[:5]) == "fecha"
}

// canonicalLength checks that v (a string's content) is
// YYYY-MM-DDTHH:MM:SS(.d{1,9})?(+00:00|Z) and not already canonical, and
// returns how many leading bytes to keep before appending `Z`: the date and
// time and the fraction without its trailing zeros (without the dot when
// none is left).
func canonicalLength(v []byte) (int, bool) {
	if len(v) < minTimestamp {
		return 0, false
	}
	for i := 0; i < 19; i++ {
		c := v[i]
		switch i {
		case 4, 7:
			if c != '-' {
				return 0, false
			}
		case 10:
			if c != 'T' {
				return 0, false
			}
		case 13, 16:
			if c != ':' {
				return 0, false
			}
		default:
			if c < '0' || c > '9' {
				return 0, false
			}
		}
	}
	j := 19
	if v[j] == '.' {
		j++
		d := j
		for j < len(v) && v[j] >= '0' && v[j] <= '9' {
			j++
		}
		if j == d || j-d > maxFracDigits {
			return 0, false
		}
	}
	rest := v[j:]
	utc := len(rest) == 1 && rest[0] == 'Z'
	if !utc && string(rest) != "+00:00" {
		return 0, false
	}
	keep := j
	if keep > 19 { // trim the fraction's trailing zeros, then a lone dot
		for v[keep-1] == '0' {
			keep--
		}
		if keep == 20 {
			keep = 19
		}
	}
	if utc && keep == j {
		return 0, false // already canonical
	}
	return keep, true
}
