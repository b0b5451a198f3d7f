// Command gentemplate writes the SAM template (template.yaml) derived from the
// route table. Run it from the repository root (`make template`) after
// changing shared/routes; a test fails while the committed file is stale.
package main

import (
	"flag"
	"fmt"
	"os"

	"github.com/erpcr/erp/shared/deploy"
)

func main() {
	out := flag.String("o", "template.yaml", "path of the template to write")
	flag.Parse()
	if err := os.WriteFile(*out, deploy.Template(), 0o644); err != nil {
		fmt.Fprintln(os.Stderr, "gentemplate:", err)
		os.Exit(1)
	}
}
