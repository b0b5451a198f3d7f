package testenv

import (
	"bytes"
	"encoding/json"
	"testing"
)

// Scalar runs owner SQL (test set-up and checks) returning one value of
// one row, e.g. Scalar[int64](t, e, `select count(*) from ventas`).
func Scalar[T any](t testing.TB, e *Env, sql string, args ...any) T {
	t.Helper()
	var v T
	Scan(t, e, sql, args, &v)
	return v
}

// Exact decodes a body keeping numbers as written (3500.00 stays
// "3500.00") and returns the value at a dotted path as its JSON text.
func Exact(t testing.TB, raw []byte, path string) string {
	t.Helper()
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		t.Fatalf("decode %s: %v", raw, err)
	}
	out, err := json.Marshal(Get(v, path))
	if err != nil {
		t.Fatal(err)
	}
	return string(out)
}

type absentKey struct{}

// Absent, as a value given to With, removes the key from the body.
var Absent = absentKey{}

// With copies body and sets (or, with Absent, removes) key/value pairs.
func With(body map[string]any, kv ...any) map[string]any {
	out := make(map[string]any, len(body)+len(kv)/2)
	for k, v := range body {
		out[k] = v
	}
	for i := 0; i+1 < len(kv); i += 2 {
		k := kv[i].(string)
		if _, ok := kv[i+1].(absentKey); ok {
			delete(out, k)
		} else {
			out[k] = kv[i+1]
		}
	}
	return out
}
