package seed_test

import (
	"os"
	"testing"

	"github.com/erpcr/erp/shared/testenv"
)

func TestMain(m *testing.M) { os.Exit(testenv.Main(m)) }
