package terceros_test

import (
	"fmt"
	"os"
	"testing"

	"github.com/erpcr/erp/shared/testenv"
)

func TestMain(m *testing.M) { os.Exit(testenv.Main(m)) }

// Top-level tests run in parallel, each on its own environment; subtests
// sharing an environment run one after another because the local gateway
// is not safe for concurrent requests (see concurrency_test.go).

func itemPath(res string, id int) string { return fmt.Sprintf("/api/%s/%d", res, id) }
