package nomina

import (
	"context"
	"fmt"

	"github.com/shopspring/decimal"

	"github.com/erpcr/erp/shared/auth"
	"github.com/erpcr/erp/shared/db"
	"github.com/erpcr/erp/shared/montos"
)

// Configuracion is a company's payroll setting.
type Configuracion struct {
	PorcentajeVacaciones montos.Numero `json:"porcentaje_vacaciones"`
	// PorDefecto: the company has not set its own (the default applies).
	PorDefecto bool `json:"por_defecto"`
}

// DatosConfiguracion is PUT /api/nomina/configuracion's body.
type DatosConfiguracion struct {
	PorcentajeVacaciones decimal.Decimal
}

// LeerConfiguracion answers the tenant's setting, or the default.
func LeerConfiguracion(ctx context.Context, tx *db.Tx, _ auth.Principal, _ struct{}) (Configuracion, error) {
	c := Configuracion{PorcentajeVacaciones: montos.NuevoNumero(VacacionesPorDefecto), PorDefecto: true}
	rows, err := tx.Query(ctx, `select porcentaje_vacaciones from nomina_configuracion where empresa_id = $1`, tx.EmpresaID())
	if err != nil {
		return c, fmt.Errorf("nomina: configuración: %w", err)
	}
	defer rows.Close()
	for rows.Next() {
		if err := rows.Scan(&c.PorcentajeVacaciones); err != nil {
			return c, fmt.Errorf("nomina: configuración: %w", err)
		}
		c.PorDefecto = false
	}
	return c, rows.Err()
}

// GuardarConfiguracion sets the tenant's vacation provision; planillas
// calculated from now on use it.
func GuardarConfiguracion(ctx context.Context, tx *db.Tx, _ auth.Principal, d DatosConfiguracion) (Configuracion, error) {
	c := Configuracion{}
	err := tx.QueryRow(ctx, `insert into nomina_configuracion (empresa_id, porcentaje_vacaciones) values ($1, $2)
		on conflict (empresa_id) do update set porcentaje_vacaciones = excluded.porcentaje_vacaciones
		returning porcentaje_vacaciones`, tx.EmpresaID(), d.PorcentajeVacaciones).Scan(&c.PorcentajeVacaciones)
	if err != nil {
		return c, fmt.Errorf("nomina: guardar configuración: %w", err)
	}
	return c, nil
}
