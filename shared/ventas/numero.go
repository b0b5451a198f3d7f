package ventas

import (
	"github.com/erpcr/erp/shared/montos"
	"github.com/shopspring/decimal"
)

// Numero is montos.Numero: a NUMERIC column as the API shows it.
type Numero = montos.Numero

// maxMonto is the first amount a numeric(18,2) column cannot hold.
var maxMonto = decimal.New(1, 16)
