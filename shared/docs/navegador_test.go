package docs_test

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"strings"
	"sync"
	"testing"
	"time"

	cdplog "github.com/chromedp/cdproto/log"
	"github.com/chromedp/cdproto/runtime"
	"github.com/chromedp/chromedp"

	"github.com/erpcr/erp/shared/docs"
	"github.com/erpcr/erp/shared/testenv"
)

// chromium finds the headless browser: ERP_CHROMIUM, else the Debian
// chromium package's executable (or another Chrome on PATH).
func chromium() string {
	if p := os.Getenv("ERP_CHROMIUM"); p != "" {
		return p
	}
	for _, name := range []string{"chromium", "chromium-browser", "google-chrome", "google-chrome-stable"} {
		if p, err := exec.LookPath(name); err == nil {
			return p
		}
	}
	return ""
}

// operations counts a document's operations.
func operations(t *testing.T, version string) int {
	t.Helper()
	raw, _ := docs.Documento(version)
	var doc struct {
		Paths map[string]map[string]json.RawMessage `json:"paths"`
	}
	if err := json.Unmarshal(raw, &doc); err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, item := range doc.Paths {
		n += len(item)
	}
	return n
}

// TestDocumentationPageListsEveryOperationInChromium loads the page in
// headless Chromium, with the network cut off from everything but the
// local API (no CDN may be needed), and checks that Swagger UI lists every
// operation of v1, then of v2 after choosing it in the selector, without a
// console error or an uncaught exception.
func TestDocumentationPageListsEveryOperationInChromium(t *testing.T) {
	exe := chromium()
	if exe == "" {
		t.Skip("chromium no está instalado (apt-get install chromium; .ci/run lo instala)")
	}
	e := testenv.NewParallel(t)
	opts := append(chromedp.DefaultExecAllocatorOptions[:],
		chromedp.ExecPath(exe), chromedp.NoSandbox, chromedp.Headless, chromedp.DisableGPU,
		// Any host but the local API's resolves nowhere: the page must work offline.
		chromedp.Flag("host-resolver-rules", "MAP * ~NOTFOUND, EXCLUDE 127.0.0.1"),
	)
	actx, cancelA := chromedp.NewExecAllocator(context.Background(), opts...)
	defer cancelA()
	ctx, cancel := chromedp.NewContext(actx)
	defer cancel()
	ctx, cancelT := context.WithTimeout(ctx, 90*time.Second)
	defer cancelT()

	var mu sync.Mutex
	var problems []string
	chromedp.ListenTarget(ctx, func(ev any) {
		mu.Lock()
		defer mu.Unlock()
		switch ev := ev.(type) {
		case *runtime.EventConsoleAPICalled:
			if ev.Type == runtime.APITypeError || ev.Type == runtime.APITypeAssert {
				var args []string
				for _, a := range ev.Args {
					args = append(args, string(a.Value)+a.Description)
				}
				problems = append(problems, "console."+string(ev.Type)+": "+strings.Join(args, " "))
			}
		case *runtime.EventExceptionThrown:
			problems = append(problems, "exception: "+ev.ExceptionDetails.Error())
		case *cdplog.EventEntryAdded:
			if ev.Entry.Level == cdplog.LevelError {
				problems = append(problems, "log: "+ev.Entry.Text+" "+ev.Entry.URL)
			}
		}
	})

	count := func(v string) func(context.Context) error {
		return func(ctx context.Context) error {
			want := operations(t, v)
			var got int
			var last error
			for deadline := time.Now().Add(30 * time.Second); time.Now().Before(deadline); time.Sleep(200 * time.Millisecond) {
				if err := chromedp.Evaluate(`document.querySelectorAll(".opblock").length`, &got).Do(ctx); err != nil {
					return err
				}
				if got == want {
					return nil
				}
				last = fmt.Errorf("%s: %d operations listed, document has %d", v, got, want)
			}
			return last
		}
	}
	var firstPath, v2Path string
	err := chromedp.Run(ctx,
		cdplog.Enable(),
		chromedp.Navigate(e.Server.URL+"/api/documentation"),
		chromedp.WaitVisible(".swagger-ui .opblock", chromedp.ByQuery),
		chromedp.ActionFunc(count("v1")),
		chromedp.Text(`.opblock-summary-path`, &firstPath, chromedp.ByQuery, chromedp.NodeVisible),
		chromedp.SetValue(`#version`, "v2", chromedp.ByID),
		chromedp.Evaluate(`document.getElementById("version").dispatchEvent(new Event("change")); true`, nil),
		chromedp.WaitVisible(`html[data-version="v2"]`, chromedp.ByQuery),
		chromedp.WaitVisible(".swagger-ui .opblock", chromedp.ByQuery),
		chromedp.ActionFunc(count("v2")),
		chromedp.Evaluate(`Array.from(document.querySelectorAll(".opblock-summary-path")).map(e => e.textContent).find(p => p.startsWith("/api/v2/")) || ""`, &v2Path),
	)
	if err != nil {
		t.Fatalf("chromium: %v (problems: %v)", err, problems)
	}
	if !strings.HasPrefix(strings.ReplaceAll(firstPath, "\u200b", ""), "/api/") || v2Path == "" {
		t.Errorf("paths: first %q, a v2 one %q", firstPath, v2Path)
	}
	mu.Lock()
	defer mu.Unlock()
	if len(problems) > 0 {
		t.Errorf("console errors:\n%s", strings.Join(problems, "\n"))
	}
	t.Logf("chromium %s: v1 %d and v2 %d operations listed, no console errors", exe, operations(t, "v1"), operations(t, "v2"))
}
