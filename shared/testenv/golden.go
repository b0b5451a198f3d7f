package testenv

import (
	"bytes"
	"encoding/json"
	"net/http"
	"os"
	"path/filepath"
	"regexp"
	"testing"
)

var (
	goldenTimestamp = regexp.MustCompile(`"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?(Z|[+-]\d\d:\d\d)"`)
	goldenTrace     = regexp.MustCompile(`"trace_id": ?"[0-9a-f]+"`)
)

// Golden compares a response with testdata/golden/<name>.json: the status
// line, then the body exactly as sent (not re-indented: key order, number
// text and spacing are part of what is guarded) with timestamps and trace
// ids masked. update (the package's -update flag) rewrites the file.
func Golden(t testing.TB, name string, r Resp, update bool) {
	t.Helper()
	if !json.Valid(r.Raw) {
		t.Fatalf("%s: not JSON: %s", name, r.Raw)
	}
	got := goldenTimestamp.ReplaceAll(r.Raw, []byte(`"<timestamp>"`))
	got = goldenTrace.ReplaceAll(got, []byte(`"trace_id":"<trace>"`))
	got = append([]byte(http.StatusText(r.Status)+"\n"), got...)
	path := filepath.Join("testdata", "golden", name+".json")
	if update {
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%s: %v (run go test -run Golden -update)", name, err)
	}
	if !bytes.Equal(got, want) {
		t.Errorf("%s differs from %s:\n got: %s\nwant: %s", name, path, got, want)
	}
}
