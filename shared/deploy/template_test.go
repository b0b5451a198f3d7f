package deploy

import (
	"bytes"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/erpcr/erp/shared/routes"
)

func TestTemplateMatchesRouteTable(t *testing.T) {
	t.Parallel()
	committed, err := os.ReadFile(filepath.Join("..", "..", "template.yaml"))
	if err != nil {
		t.Fatalf("reading template.yaml: %v; run `make template` and commit the result", err)
	}
	want := Template()
	if bytes.Equal(committed, want) {
		return
	}
	got, exp := strings.Split(string(committed), "\n"), strings.Split(string(want), "\n")
	line := 0
	for line < len(got) && line < len(exp) && got[line] == exp[line] {
		line++
	}
	var g, e string
	if line < len(got) {
		g = got[line]
	}
	if line < len(exp) {
		e = exp[line]
	}
	t.Fatalf("template.yaml is out of date with the route table; run `make template` and commit the result.\n"+
		"first difference at line %d:\n  committed: %q\n  generated: %q", line+1, g, e)
}

func TestTemplateIsDeterministic(t *testing.T) {
	t.Parallel()
	if !bytes.Equal(Template(), Template()) {
		t.Fatal("two calls of Template() returned different bytes")
	}
}

func TestEveryRouteIsAnHttpAPIEvent(t *testing.T) {
	t.Parallel()
	doc := parseYAML(t, Template())
	resources := doc.get(t, "Resources")
	paths := resources.get(t, apiLogicalID, "Properties", "DefinitionBody", "paths")
	// The API Gateway routes the template derives from the route table.
	table := apiRoutes("")

	seen := map[string]bool{}
	for _, r := range table {
		fn := resources.get(t, FunctionLogicalID(r.Group))
		var found []*yamlNode
		for _, name := range fn.get(t, "Properties", "Events").keys {
			ev := fn.get(t, "Properties", "Events", name)
			props := ev.get(t, "Properties")
			if props.get(t, "Path").scalar == r.Path && props.get(t, "Method").scalar == r.Method {
				found = append(found, ev)
			}
		}
		if len(found) != 1 {
			t.Errorf("route %s (%s): %d HttpApi events in %s, want 1", r.Key(), r.Name, len(found), FunctionLogicalID(r.Group))
			continue
		}
		seen[r.Key()] = true
		ev := found[0]
		if typ := ev.get(t, "Type").scalar; typ != "HttpApi" {
			t.Errorf("route %s: event Type %q, want HttpApi", r.Key(), typ)
		}
		props := ev.get(t, "Properties")
		if api := props.get(t, "ApiId").scalar; api != "!Ref "+apiLogicalID {
			t.Errorf("route %s: ApiId %q", r.Key(), api)
		}
		op := paths.lookup(r.Path, openAPIMethod(r.Method))
		if r.Public {
			if a := props.lookup("Auth", "Authorizer"); a == nil || a.scalar != "NONE" {
				t.Errorf("public route %s: want Auth: {Authorizer: NONE}", r.Key())
			}
			if op != nil {
				t.Errorf("public route %s must not be pre-declared with a security in the DefinitionBody", r.Key())
			}
			continue
		}
		if props.lookup("Auth") != nil {
			t.Errorf("protected route %s: the event must not set Auth (the DefinitionBody security decides)", r.Key())
		}
		if op == nil || op.lookup("security") == nil || op.lookup("security").scalar != protectedSecurity() {
			t.Errorf("protected route %s: DefinitionBody security must be %s", r.Key(), protectedSecurity())
		}
	}

	// Nothing beyond the route table: no stray events, no stray operations.
	events := 0
	for _, id := range resources.keys {
		if ev := resources.get(t, id).lookup("Properties", "Events"); ev != nil {
			for _, name := range ev.keys {
				if ev.get(t, name, "Type").scalar == "HttpApi" {
					events++
				}
			}
		}
	}
	if events != len(table) {
		t.Errorf("%d HttpApi events for %d routes", events, len(table))
	}
	for _, p := range paths.keys {
		for _, m := range paths.get(t, p).keys {
			found := false
			for _, r := range table {
				if r.Path == p && openAPIMethod(r.Method) == m && !r.Public {
					found = true
				}
			}
			if !found {
				t.Errorf("DefinitionBody declares %s %s, which is no protected route of the table", m, p)
			}
		}
	}
	if len(seen) == 0 {
		t.Fatal("no routes checked")
	}
}

// TestAuthorizerIdentitySources pins the construction that keeps identity
// sources away from API Gateway while the result cache is off.
func TestAuthorizerIdentitySources(t *testing.T) {
	t.Parallel()
	doc := parseYAML(t, Template())
	auth := doc.get(t, "Resources", apiLogicalID, "Properties", "Auth")
	if d := auth.get(t, "DefaultAuthorizer").scalar; d != authorizerName {
		t.Errorf("DefaultAuthorizer %q, want %q", d, authorizerName)
	}
	// Provisioned concurrency serves only calls to the alias.
	fnArn := "!GetAtt AuthorizerFunction.Arn"
	if routes.TuningOf("authorizer").Provisioned {
		fnArn = "!Ref AuthorizerFunction.Alias"
	}
	for _, name := range []string{authorizerName, cachedAuthorizerName} {
		a := auth.get(t, "Authorizers", name)
		for key, want := range map[string]string{
			"FunctionArn":                      fnArn,
			"AuthorizerPayloadFormatVersion":   "2.0",
			"EnableSimpleResponses":            "true",
			"EnableFunctionDefaultPermissions": "true",
		} {
			if got := a.get(t, key).scalar; got != want {
				t.Errorf("%s.%s = %q, want %q", name, key, got, want)
			}
		}
	}
	plain := auth.get(t, "Authorizers", authorizerName, "Identity")
	if plain.lookup("Headers") != nil || plain.get(t, "ReauthorizeEvery").scalar != "0" {
		t.Errorf("%s must have no identity source and no cache", authorizerName)
	}
	cached := auth.get(t, "Authorizers", cachedAuthorizerName, "Identity")
	if h := cached.get(t, "Headers").scalar; h != "[Authorization, X-Empresa-Id]" {
		t.Errorf("%s identity headers %s", cachedAuthorizerName, h)
	}
	if ttl := cached.get(t, "ReauthorizeEvery").scalar; ttl != "!Ref AuthorizerResultTtl" {
		t.Errorf("%s ReauthorizeEvery %q", cachedAuthorizerName, ttl)
	}
	ttl := doc.get(t, "Parameters", "AuthorizerResultTtl")
	for key, want := range map[string]string{"Default": "0", "MinValue": "0", "MaxValue": "3600"} {
		if got := ttl.get(t, key).scalar; got != want {
			t.Errorf("AuthorizerResultTtl %s = %q, want %q", key, got, want)
		}
	}
	if c := doc.get(t, "Conditions", cachingCondition).scalar; c != `!Not [!Equals [!Ref AuthorizerResultTtl, "0"]]` {
		t.Errorf("condition %s = %s", cachingCondition, c)
	}
}

func TestEveryFunctionIsDeclared(t *testing.T) {
	t.Parallel()
	doc := parseYAML(t, Template())
	g := doc.get(t, "Globals", "Function")
	if g.get(t, "Runtime").scalar != "provided.al2023" || g.get(t, "Handler").scalar != "bootstrap" {
		t.Error("Globals: want Runtime provided.al2023 and Handler bootstrap")
	}
	if a := g.get(t, "Architectures"); len(a.seq) != 1 || a.seq[0].scalar != "arm64" {
		t.Error("Globals: want Architectures [arm64]")
	}
	for _, f := range routes.Functions() {
		id := FunctionLogicalID(f.Name)
		res := doc.get(t, "Resources", id)
		if res.get(t, "Type").scalar != "AWS::Serverless::Function" {
			t.Errorf("%s: not an AWS::Serverless::Function", id)
		}
		if res.get(t, "Metadata", "BuildMethod").scalar != "go1.x" {
			t.Errorf("%s: Metadata.BuildMethod must be go1.x", id)
		}
		props := res.get(t, "Properties")
		if uri := props.get(t, "CodeUri").scalar; uri != "functions/"+f.Name+"/" {
			t.Errorf("%s: CodeUri %q", id, uri)
		}
		triggered := f.Kind == routes.KindHTTP || f.Kind == routes.KindQueue || f.Kind == routes.KindSchedule
		if hasEvents := props.lookup("Events") != nil; hasEvents != triggered {
			t.Errorf("%s (%s): has events = %t", id, f.Kind, hasEvents)
		}
		vars := props.get(t, "Environment", "Variables")
		if f.Kind == routes.KindTask {
			if props.get(t, "Timeout").scalar != "300" || vars.lookup("DB_ADMIN_SECRET_ARN") == nil {
				t.Errorf("%s: a task needs Timeout 300 and DB_ADMIN_SECRET_ARN", id)
			}
		} else if vars.lookup("DB_SECRET_ARN") == nil || vars.lookup("DB_ADMIN_SECRET_ARN") != nil {
			t.Errorf("%s: want DB_SECRET_ARN and no DB_ADMIN_SECRET_ARN", id)
		}
		for _, p := range []string{pascal(f.Name) + "ReservedConcurrency", pascal(f.Name) + "MemorySize"} {
			if doc.lookup("Parameters", p) == nil {
				t.Errorf("%s: parameter %s missing", id, p)
			}
		}
	}
}

// TestQueuesSchedulesAndTheirPermissions pins the asynchronous part: each
// queue with its dead-letter queue, its consumer's SQS event source
// (batches with partial-failure reporting), the producers' URL and send
// permission, the scheduler's rule, and the secrets key of the functions
// that decrypt the companies' Hacienda secrets.
func TestQueuesSchedulesAndTheirPermissions(t *testing.T) {
	t.Parallel()
	doc := parseYAML(t, Template())
	res := doc.get(t, "Resources")
	hasPolicy := func(fn *yamlNode, want string) bool {
		for _, p := range fn.get(t, "Properties", "Policies").seq {
			if p.lookup(want) != nil || strings.Contains(p.scalar, want) {
				return true
			}
			if arn := p.lookup("AWSSecretsManagerGetSecretValuePolicy", "SecretArn"); arn != nil && arn.scalar == "!Ref "+want {
				return true
			}
		}
		return false
	}
	if len(routes.Queues()) == 0 {
		t.Fatal("no queues")
	}
	for _, q := range routes.Queues() {
		queue := res.get(t, QueueLogicalID(q.Name))
		if queue.get(t, "Type").scalar != "AWS::SQS::Queue" || res.get(t, DeadLetterQueueLogicalID(q.Name), "Type").scalar != "AWS::SQS::Queue" {
			t.Errorf("queue %s: want AWS::SQS::Queue and a dead-letter queue", q.Name)
		}
		if got := queue.get(t, "Properties", "RedrivePolicy", "deadLetterTargetArn").scalar; got != "!GetAtt "+DeadLetterQueueLogicalID(q.Name)+".Arn" {
			t.Errorf("queue %s: redrive to %s", q.Name, got)
		}
		vis, _ := strconv.Atoi(queue.get(t, "Properties", "VisibilityTimeout").scalar)
		consumer := res.get(t, FunctionLogicalID(q.Consumer))
		timeout, _ := strconv.Atoi(consumer.get(t, "Properties", "Timeout").scalar)
		if vis < 6*timeout {
			t.Errorf("queue %s: visibility timeout %d below 6 x the consumer's %d s", q.Name, vis, timeout)
		}
		found := false
		events := consumer.get(t, "Properties", "Events")
		for _, name := range events.keys {
			ev := events.get(t, name)
			if ev.get(t, "Type").scalar != "SQS" {
				continue
			}
			found = true
			props := ev.get(t, "Properties")
			if props.get(t, "Queue").scalar != "!GetAtt "+QueueLogicalID(q.Name)+".Arn" || props.get(t, "BatchSize").scalar != strconv.Itoa(q.BatchSize) {
				t.Errorf("consumer %s: event %s", q.Consumer, name)
			}
			if frt := props.get(t, "FunctionResponseTypes"); len(frt.seq) != 1 || frt.seq[0].scalar != "ReportBatchItemFailures" {
				t.Errorf("consumer %s: FunctionResponseTypes must be [ReportBatchItemFailures]", q.Consumer)
			}
		}
		if !found {
			t.Errorf("consumer %s has no SQS event", q.Consumer)
		}
		for _, p := range append([]string{q.Consumer}, q.Producers...) {
			fn := res.get(t, FunctionLogicalID(p))
			if fn.get(t, "Properties", "Environment", "Variables", QueueURLEnv(q.Name)).scalar != "!Ref "+QueueLogicalID(q.Name) {
				t.Errorf("%s: %s must be the queue's URL", p, QueueURLEnv(q.Name))
			}
			if !hasPolicy(fn, "SQSSendMessagePolicy") {
				t.Errorf("%s may not send to the %s queue", p, q.Name)
			}
		}
	}
	for _, f := range routes.Functions() {
		fn := res.get(t, FunctionLogicalID(f.Name))
		if f.Kind == routes.KindSchedule {
			found := false
			for _, name := range fn.get(t, "Properties", "Events").keys {
				ev := fn.get(t, "Properties", "Events", name)
				if ev.get(t, "Type").scalar == "Schedule" && ev.get(t, "Properties", "Schedule").scalar == f.Schedule {
					found = true
				}
			}
			if !found || f.Schedule != "rate(1 minute)" {
				t.Errorf("%s: want a Schedule event %q", f.Name, f.Schedule)
			}
		}
		secret := fn.lookup("Properties", "Environment", "Variables", "ERP_SECRETS_KEY_ARN") != nil
		if secret != secretsKeyFunctions[f.Name] || secret != hasPolicy(fn, "SecretsKeySecretArn") {
			t.Errorf("%s: secrets key env %t, policy %t", f.Name, secret, hasPolicy(fn, "SecretsKeySecretArn"))
		}
	}
	if !secretsKeyFunctions["hacienda"] || !secretsKeyFunctions["hacienda-worker"] {
		t.Error("the hacienda functions must read the secrets key")
	}
}

// TestTemplatePassesCfnLint runs cfn-lint, which also runs the SAM
// translator, on the template and on a copy whose AuthorizerResultTtl
// defaults to 300 (the cached-authorizer branch).
func TestTemplatePassesCfnLint(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("cfn-lint takes seconds; skipped with -short")
	}
	bin, err := exec.LookPath("cfn-lint")
	if err != nil {
		t.Skip("cfn-lint is not on PATH (pip install cfn-lint); template.yaml was NOT linted")
	}
	dir := t.TempDir()
	tpl := Template()
	files := []string{filepath.Join(dir, "template.yaml"), filepath.Join(dir, "template-ttl300.yaml")}
	for i, content := range [][]byte{tpl, withAuthorizerTTLDefault(t, tpl, 300)} {
		if err := os.WriteFile(files[i], content, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	out, err := exec.Command(bin, append([]string{"--format", "parseable"}, files...)...).CombinedOutput()
	code := 0
	var exit *exec.ExitError
	switch {
	case errors.As(err, &exit):
		code = exit.ExitCode()
	case err != nil:
		t.Fatalf("running cfn-lint: %v", err)
	}
	// cfn-lint's exit status is a bit mask: 2 errors, 4 warnings, 8 informational.
	if code&^(4|8) != 0 {
		t.Fatalf("cfn-lint reported errors (exit %d):\n%s", code, out)
	}
	if code != 0 {
		t.Logf("cfn-lint warnings (exit %d):\n%s", code, out)
	}
}

func withAuthorizerTTLDefault(t *testing.T, tpl []byte, ttl int) []byte {
	t.Helper()
	s := string(tpl)
	start := strings.Index(s, "\n  AuthorizerResultTtl:\n")
	if start < 0 {
		t.Fatal("parameter AuthorizerResultTtl not found")
	}
	i := strings.Index(s[start:], "\n    Default: 0\n")
	if i < 0 {
		t.Fatal("AuthorizerResultTtl default not found")
	}
	i += start
	return []byte(s[:i] + "\n    Default: " + strconv.Itoa(ttl) + "\n" + s[i+len("\n    Default: 0\n"):])
}

// A reader for the YAML subset Template writes (block mappings and
// sequences; flow collections and inline tags kept as text), so these tests
// check the bytes that are deployed without a YAML dependency.

type yamlNode struct {
	scalar string // unquoted scalar, or flow/tagged text such as "!Ref X"
	tag    string // tag of a block node, e.g. "!If"
	keys   []string
	m      map[string]*yamlNode
	seq    []*yamlNode
}

// lookup follows keys and returns nil when one is missing.
func (n *yamlNode) lookup(keys ...string) *yamlNode {
	for _, k := range keys {
		if n == nil || n.m == nil {
			return nil
		}
		n = n.m[k]
	}
	return n
}

// get is lookup that fails the test when a key is missing.
func (n *yamlNode) get(t *testing.T, keys ...string) *yamlNode {
	t.Helper()
	v := n.lookup(keys...)
	if v == nil {
		t.Fatalf("template: missing %s", strings.Join(keys, "."))
	}
	return v
}

type yamlLine struct {
	indent int
	text   string
	no     int
}

type yamlParser struct {
	t     *testing.T
	lines []yamlLine
	i     int
}

func parseYAML(t *testing.T, src []byte) *yamlNode {
	t.Helper()
	p := &yamlParser{t: t}
	for i, l := range strings.Split(string(src), "\n") {
		text := strings.TrimLeft(l, " ")
		if text == "" || strings.HasPrefix(text, "#") {
			continue
		}
		if strings.HasPrefix(text, "\t") {
			t.Fatalf("line %d: tab indentation", i+1)
		}
		p.lines = append(p.lines, yamlLine{indent: len(l) - len(text), text: text, no: i + 1})
	}
	doc := p.block(0)
	if p.i != len(p.lines) {
		t.Fatalf("line %d: unexpected indentation", p.lines[p.i].no)
	}
	return doc
}

func (p *yamlParser) block(indent int) *yamlNode {
	if p.i >= len(p.lines) || p.lines[p.i].indent != indent {
		return &yamlNode{}
	}
	if strings.HasPrefix(p.lines[p.i].text, "- ") {
		return p.sequence(indent)
	}
	return p.mapping(indent)
}

func (p *yamlParser) mapping(indent int) *yamlNode {
	n := &yamlNode{m: map[string]*yamlNode{}}
	for p.i < len(p.lines) && p.lines[p.i].indent == indent && !strings.HasPrefix(p.lines[p.i].text, "- ") {
		l := p.lines[p.i]
		k, rest, ok := splitKey(l.text)
		if !ok {
			p.t.Fatalf("line %d: expected key: %q", l.no, l.text)
		}
		if _, dup := n.m[k]; dup {
			p.t.Fatalf("line %d: duplicate key %q", l.no, k)
		}
		p.i++
		n.keys = append(n.keys, k)
		n.m[k] = p.value(rest, indent)
	}
	return n
}

// value parses what follows "key:": an inline scalar, or a block (possibly
// tagged) on the following, deeper lines.
func (p *yamlParser) value(rest string, indent int) *yamlNode {
	if rest != "" && !(strings.HasPrefix(rest, "!") && !strings.Contains(rest, " ")) {
		return &yamlNode{scalar: p.unquote(rest)}
	}
	child := &yamlNode{}
	if p.i < len(p.lines) && p.lines[p.i].indent > indent {
		child = p.block(p.lines[p.i].indent)
	}
	child.tag = rest
	return child
}

func (p *yamlParser) sequence(indent int) *yamlNode {
	n := &yamlNode{}
	for p.i < len(p.lines) && p.lines[p.i].indent == indent && strings.HasPrefix(p.lines[p.i].text, "- ") {
		item := p.lines[p.i].text[2:]
		if _, _, isKey := splitKey(item); isKey && !strings.HasPrefix(item, "!") {
			// "- key: v" starts a mapping whose keys sit two columns in.
			p.lines[p.i].indent, p.lines[p.i].text = indent+2, item
			n.seq = append(n.seq, p.mapping(indent+2))
			continue
		}
		p.i++
		n.seq = append(n.seq, &yamlNode{scalar: p.unquote(item)})
	}
	return n
}

func splitKey(text string) (key, rest string, ok bool) {
	if strings.HasPrefix(text, `"`) {
		q, err := strconv.QuotedPrefix(text)
		if err != nil || !strings.HasPrefix(text[len(q):], ":") {
			return "", "", false
		}
		k, _ := strconv.Unquote(q)
		return k, strings.TrimSpace(text[len(q)+1:]), true
	}
	if strings.HasPrefix(text, "[") || strings.HasPrefix(text, "{") {
		return "", "", false
	}
	if i := strings.Index(text, ": "); i > 0 {
		return text[:i], strings.TrimSpace(text[i+2:]), true
	}
	if strings.HasSuffix(text, ":") {
		return strings.TrimSuffix(text, ":"), "", true
	}
	return "", "", false
}

func (p *yamlParser) unquote(s string) string {
	if !strings.HasPrefix(s, `"`) {
		return s
	}
	u, err := strconv.Unquote(s)
	if err != nil {
		p.t.Fatalf("bad quoted scalar %s: %v", s, err)
	}
	return u
}

func TestEveryRouteReachesItsFunctionUnderEveryVersionPrefix(t *testing.T) {
	api := apiRoutes("")
	for _, r := range routes.All() {
		if r.Path == routes.DefaultRoute {
			continue
		}
		rest := strings.TrimPrefix(r.Canonica(), "/api/")
		prefixes := []string{"/api/", "/api/v1/", "/api/v2/"}
		if r.Path != r.Canonica() {
			prefixes = prefixes[1:] // tax routes answer only with a version
		}
		for _, pre := range prefixes {
			concrete := regexp.MustCompile(`\{[^}]+\}`).ReplaceAllString(pre+rest, "7")
			got, ok := selectRoute(api, concrete)
			if !ok || got.Group != r.Group || got.Public != r.Public {
				t.Errorf("%s %s: API Gateway would pick %+v (found %v), want group %s public %v", r.Method, concrete, got, ok, r.Group, r.Public)
			}
		}
	}
	// Each new path segment costs up to 6 routes (exact and greedy, under
	// /api, /api/v1 and /api/v2); apiRoutes emits only the ones a segment
	// needs. Past the quota, ask AWS for more or move a group's segments
	// under one prefix.
	t.Logf("%d API Gateway routes (quota 300)", len(api))
	if n := len(api); n > 300 {
		t.Errorf("%d API Gateway routes: over the default quota of 300 per API", n)
	}
}

// selectRoute is API Gateway's choice for a path among ANY routes: a route
// without a greedy variable that matches segment by segment (fewest
// variables first), else the greedy route with the longest prefix.
func selectRoute(api []routes.Route, path string) (routes.Route, bool) {
	segs := strings.Split(strings.Trim(path, "/"), "/")
	best, bestVars := routes.Route{}, -1
	for _, r := range api {
		if r.Path == routes.DefaultRoute || strings.HasSuffix(r.Path, "{proxy+}") {
			continue
		}
		ps := strings.Split(strings.Trim(r.Path, "/"), "/")
		if len(ps) != len(segs) {
			continue
		}
		vars, ok := 0, true
		for i := range ps {
			if strings.HasPrefix(ps[i], "{") {
				vars++
			} else if ps[i] != segs[i] {
				ok = false
			}
		}
		if ok && (bestVars < 0 || vars < bestVars) {
			best, bestVars = r, vars
		}
	}
	if bestVars >= 0 {
		return best, true
	}
	longest := -1
	for _, r := range api {
		if prefix, ok := strings.CutSuffix(r.Path, "{proxy+}"); ok && strings.HasPrefix(path, prefix) && len(prefix) > longest {
			best, longest = r, len(prefix)
		}
	}
	return best, longest >= 0
}
