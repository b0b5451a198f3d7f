package terceros_test

import (
	"fmt"
	"net/http"
	"os"
	"testing"

	"github.com/erpcr/erp/shared/testenv"
)

func TestMain(m *testing.M) { os.Exit(testenv.Main(m)) }

// Top-level tests run in parallel, each on its own environment; subtests
// sharing an environment run one after another because the local gateway
// is not safe for concurrent requests (see concurrency_test.go).

func itemPath(res string, id int) string { return fmt.Sprintf("/api/%s/%d", res, id) }

// filterCase is one list query and the ids it must list, in order.
type filterCase struct {
	name, query string
	want        []int
}

// checkFilters lists path?per_page=100&<query> for each case (a subtest)
// and compares the ids, in order, and the total.
func checkFilters(t *testing.T, e *testenv.Env, tok, path string, cases []filterCase) {
	t.Helper()
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			r := e.Get(path+"?per_page=100&"+c.query, tok)
			if r.Status != http.StatusOK {
				t.Fatalf("%d %s", r.Status, r.Raw)
			}
			want := c.want
			if want == nil {
				want = []int{}
			}
			if got := testenv.IDs(r); fmt.Sprint(got) != fmt.Sprint(want) || testenv.Num(r.JSON, "total") != float64(len(c.want)) {
				t.Errorf("got %v (total %v), want %v", got, testenv.Num(r.JSON, "total"), c.want)
			}
		})
	}
}
