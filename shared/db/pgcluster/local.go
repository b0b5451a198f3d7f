package pgcluster

import (
	"bufio"
	"errors"
	"fmt"
	"net"
	"net/url"
	"os"
	"path/filepath"
	"strconv"
	"strings"
)

// URLLocal reads the port of the cluster `make run` started from its
// postmaster.pid (the fourth line) and returns the owner URL of database erp.
func URLLocal(dir string) (string, error) {
	f, err := os.Open(filepath.Join(dir, "postmaster.pid"))
	if err != nil {
		return "", errors.New("defina DATABASE_URL o inicie `make run` (no hay PostgreSQL local en .local/pgdata)")
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for i := 1; sc.Scan(); i++ {
		if i == 4 {
			port, err := strconv.Atoi(strings.TrimSpace(sc.Text()))
			if err != nil {
				break
			}
			u := url.URL{Scheme: "postgres", User: url.User("postgres"), Host: net.JoinHostPort("127.0.0.1", strconv.Itoa(port)),
				Path: "/erp", RawQuery: "sslmode=disable"}
			return u.String(), nil
		}
	}
	return "", fmt.Errorf("no se pudo leer el puerto de %s", f.Name())
}
