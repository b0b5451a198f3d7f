// Command plataforma grants or removes the platform-administrator flag of a
// user (make plataforma EMAIL=...): the only users who may change or delete
// rows of the global catalogs every company shares (brands, units of
// measure). No API route sets the flag, so no company administrator can
// grant it; it takes effect on the user's next request.
//
// It connects with the owner connection: DATABASE_URL when set (as in AWS,
// through the admin secret), otherwise the private cluster that `make run`
// keeps running under .local/pgdata.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"os"
	"strings"

	"github.com/erpcr/erp/cmd/internal/devdb"
)

func main() {
	email := flag.String("email", "", "correo del usuario")
	quitar := flag.Bool("quitar", false, "quitar la marca en lugar de otorgarla")
	flag.Parse()
	if err := run(context.Background(), strings.TrimSpace(*email), !*quitar); err != nil {
		fmt.Fprintln(os.Stderr, "error:", err)
		os.Exit(1)
	}
}

func run(ctx context.Context, email string, on bool) error {
	if email == "" {
		return errors.New("indique el correo: make plataforma EMAIL=usuario@empresa.cr [QUITAR=1]")
	}
	conn, err := devdb.Conectar(ctx)
	if err != nil {
		return err
	}
	defer conn.Close(ctx)
	tag, err := conn.Exec(ctx, `update usuarios set administrador_plataforma = $2
		where lower(email) = lower($1) and not eliminado`, email, on)
	if err != nil {
		return fmt.Errorf("actualizar: %w", err)
	}
	if tag.RowsAffected() == 0 {
		return fmt.Errorf("no existe un usuario activo con el correo %s", email)
	}
	if on {
		fmt.Printf("%s es administrador de la plataforma.\n", email)
	} else {
		fmt.Printf("%s ya no es administrador de la plataforma.\n", email)
	}
	return nil
}
