// Package escenario holds end-to-end scenarios that drive a business day
// through the gateway and check that the figures of different modules
// (stock, sales, receivables, payables, the books, the dashboard, the
// reports and their files) agree, as an outside auditor would.
package escenario

import (
	"os"
	"testing"

	"github.com/erpcr/erp/shared/testenv"
)

func TestMain(m *testing.M) { os.Exit(testenv.Main(m)) }
