package deploy

import (
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/erpcr/erp/shared/routes"
)

// CloudFormation's quotas a template must stay under.
const (
	maxParameters = 200
	maxOutputs    = 200
	maxResources  = 500
)

// TestEveryFunctionHasItsConcurrencyKnobs: each function has a
// <Fn>ReservedConcurrency parameter (0 = not reserved) with the condition
// that leaves the property out at 0, its erp-<env>-<name> physical name,
// and, for the latency-sensitive ones of the tuning table, a provisioned
// concurrency parameter on the live alias; the others publish no alias.
func TestEveryFunctionHasItsConcurrencyKnobs(t *testing.T) {
	t.Parallel()
	doc := parseYAML(t, Template())
	provisioned := 0
	for _, f := range routes.Functions() {
		id := FunctionLogicalID(f.Name)
		props := doc.get(t, "Resources", id, "Properties")
		p := doc.get(t, "Parameters", reservedParam(f.Name))
		for key, want := range map[string]string{"Type": "Number", "Default": "0", "MinValue": "0"} {
			if got := p.get(t, key).scalar; got != want {
				t.Errorf("%s.%s = %q, want %q", reservedParam(f.Name), key, got, want)
			}
		}
		cond := "Has" + reservedParam(f.Name)
		if got, want := doc.get(t, "Conditions", cond).scalar, `!Not [!Equals [!Ref `+reservedParam(f.Name)+`, "0"]]`; got != want {
			t.Errorf("condition %s = %s, want %s", cond, got, want)
		}
		if got, want := props.get(t, "ReservedConcurrentExecutions").scalar,
			"!If ["+cond+", !Ref "+reservedParam(f.Name)+", !Ref AWS::NoValue]"; got != want {
			t.Errorf("%s ReservedConcurrentExecutions = %s, want %s", id, got, want)
		}
		if got, want := props.get(t, "FunctionName").scalar, `!Sub "erp-${Environment}-`+f.Name+`"`; got != want {
			t.Errorf("%s FunctionName = %s, want %s", id, got, want)
		}

		pc := props.lookup("ProvisionedConcurrencyConfig")
		if !routes.TuningOf(f.Name).Provisioned {
			if pc != nil || props.lookup("AutoPublishAlias") != nil || doc.lookup("Parameters", provisionedParam(f.Name)) != nil {
				t.Errorf("%s is not latency sensitive in the tuning table but has provisioned concurrency", id)
			}
			continue
		}
		provisioned++
		if doc.get(t, "Parameters", provisionedParam(f.Name), "Default").scalar != "0" {
			t.Errorf("%s: provisioned concurrency must default to 0 (off)", id)
		}
		if props.get(t, "AutoPublishAlias").scalar != liveAlias {
			t.Errorf("%s: provisioned concurrency needs AutoPublishAlias %s", id, liveAlias)
		}
		cond = "Has" + provisionedParam(f.Name)
		if doc.lookup("Conditions", cond) == nil || pc == nil || pc.tag != "!If" || len(pc.seq) != 3 ||
			pc.seq[0].scalar != cond || pc.seq[1].get(t, "ProvisionedConcurrentExecutions").scalar != "!Ref "+provisionedParam(f.Name) ||
			pc.seq[2].scalar != "!Ref AWS::NoValue" {
			t.Errorf("%s: ProvisionedConcurrencyConfig must be !If [%s, {ProvisionedConcurrentExecutions: ...}, !Ref AWS::NoValue]", id, cond)
		}
	}
	if provisioned == 0 {
		t.Error("no function offers provisioned concurrency")
	}
	for _, name := range routes.TunedFunctions() {
		if !slices.ContainsFunc(routes.Functions(), func(f routes.Function) bool { return f.Name == name }) {
			t.Errorf("shared/routes/tuning.go names %q, which is no function", name)
		}
	}
}

// TestRouteSettingsThrottleEveryRouteKey: RouteSettings has exactly the
// route keys the functions' HttpApi events create (a key without a route
// fails the deploy), each throttled by its group's parameters (falling back
// to the stage-wide ones at 0) or, for login routes, the Login* ones.
func TestRouteSettingsThrottleEveryRouteKey(t *testing.T) {
	t.Parallel()
	doc := parseYAML(t, Template())
	settings := doc.get(t, "Resources", apiLogicalID, "Properties", "RouteSettings")
	keys := map[string]routes.Route{}
	for _, r := range apiRoutes("") {
		keys[r.Key()] = r
	}
	for _, k := range settings.keys {
		if _, ok := keys[k]; !ok {
			t.Errorf("RouteSettings names %q, which is no route of the API", k)
		}
	}
	login := 0
	for k, r := range keys {
		s := settings.lookup(k)
		if s == nil {
			t.Errorf("route %s has no RouteSettings", k)
			continue
		}
		for _, kv := range [][2]string{{"ThrottlingBurstLimit", groupBurstParam(r.Group)}, {"ThrottlingRateLimit", groupRateParam(r.Group)}} {
			want := "!If [Has" + kv[1] + ", !Ref " + kv[1] + ", !Ref " + kv[0] + "]"
			if r.Rate == routes.RateLogin {
				want = "!Ref Login" + kv[0]
			}
			if got := s.get(t, kv[0]).scalar; got != want {
				t.Errorf("route %s %s = %s, want %s", k, kv[0], got, want)
			}
		}
		if r.Rate == routes.RateLogin {
			login++
		}
	}
	if login == 0 {
		t.Error("no login route has the login throttle")
	}
	for _, g := range routes.Groups() {
		tn := routes.TuningOf(g)
		for name, want := range map[string]int{groupBurstParam(g): tn.Burst, groupRateParam(g): tn.Rate} {
			p := doc.get(t, "Parameters", name)
			if p.get(t, "Type").scalar != "Number" || p.get(t, "Default").scalar != strconv.Itoa(want) {
				t.Errorf("parameter %s: want a Number defaulting to %d (shared/routes/tuning.go)", name, want)
			}
			if doc.lookup("Conditions", "Has"+name) == nil {
				t.Errorf("condition Has%s missing", name)
			}
		}
	}
	if tn := routes.TuningOf("importaciones"); tn.Burst == 0 || tn.Rate == 0 {
		t.Error("the import group must keep its own, lower throttle")
	}
}

// TestTemplateStaysUnderCloudFormationQuotas counts parameters and outputs,
// and the resources the SAM transform will create (one permission per
// HttpApi event, one role per function, version and alias for the
// provisioned ones, ...), against CloudFormation's quotas: every function
// and group adds parameters, every route a resource.
func TestTemplateStaysUnderCloudFormationQuotas(t *testing.T) {
	t.Parallel()
	doc := parseYAML(t, Template())
	params, outputs := len(doc.get(t, "Parameters").keys), len(doc.get(t, "Outputs").keys)
	t.Logf("%d parameters (quota %d), %d outputs (quota %d)", params, maxParameters, outputs, maxOutputs)
	if params >= maxParameters {
		t.Errorf("%d parameters: CloudFormation accepts at most %d", params, maxParameters)
	}
	if outputs >= maxOutputs {
		t.Errorf("%d outputs: CloudFormation accepts at most %d", outputs, maxOutputs)
	}
	resources := doc.get(t, "Resources")
	n := 0
	for _, id := range resources.keys {
		r := resources.get(t, id)
		n++
		if r.get(t, "Type").scalar != "AWS::Serverless::Function" {
			continue
		}
		n++ // the execution role
		props := r.get(t, "Properties")
		if props.lookup("AutoPublishAlias") != nil {
			n += 2 // version and alias
		}
		if ev := props.lookup("Events"); ev != nil {
			n += len(ev.keys) // a permission or an event source mapping or a rule each
		}
	}
	n += 1 + 2 // the HTTP API's stage, and the authorizers' permissions
	t.Logf("about %d resources after the SAM transform (quota %d)", n, maxResources)
	if n >= maxResources {
		t.Errorf("about %d resources after the SAM transform: CloudFormation accepts at most %d", n, maxResources)
	}
}

// TestPlatformValuesComeFromSSM pins the contract with infra/: each value
// PlatformStack publishes is a parameter of an SSM type whose default is
// dev's path, and samconfig.toml names each environment's own path (no
// hand-copied ARN, subnet or security group).
func TestPlatformValuesComeFromSSM(t *testing.T) {
	t.Parallel()
	doc := parseYAML(t, Template())
	want := map[string][2]string{
		"SubnetIds":              {"AWS::SSM::Parameter::Value<List<AWS::EC2::Subnet::Id>>", "/erp/dev/network/private-subnet-ids"},
		"LambdaSecurityGroupId":  {"AWS::SSM::Parameter::Value<AWS::EC2::SecurityGroup::Id>", "/erp/dev/network/lambda-security-group-id"},
		"DatabaseProxyEndpoint":  {"AWS::SSM::Parameter::Value<String>", "/erp/dev/db/proxy-endpoint"},
		"DatabaseSecretArn":      {"AWS::SSM::Parameter::Value<String>", "/erp/dev/db/app-secret-arn"},
		"DatabaseAdminSecretArn": {"AWS::SSM::Parameter::Value<String>", "/erp/dev/db/admin-secret-arn"},
		"HaciendaSecretArn":      {"AWS::SSM::Parameter::Value<String>", "/erp/dev/secrets/hacienda-secret-arn"},
		"SecretsKeySecretArn":    {"AWS::SSM::Parameter::Value<String>", "/erp/dev/secrets/app-key-secret-arn"},
		"KmsKeyArn":              {"AWS::SSM::Parameter::Value<String>", "/erp/dev/kms/key-arn"},
		"AlarmTopicArn":          {"AWS::SSM::Parameter::Value<String>", "/erp/dev/alarms/topic-arn"},
	}
	for name, tv := range want {
		p := doc.get(t, "Parameters", name)
		if got := p.get(t, "Type").scalar; got != tv[0] {
			t.Errorf("parameter %s: Type %s, want %s", name, got, tv[0])
		}
		if got := p.get(t, "Default").scalar; got != tv[1] {
			t.Errorf("parameter %s: Default %s, want %s", name, got, tv[1])
		}
	}
	g := doc.get(t, "Globals", "Function")
	if g.get(t, "VpcConfig", "SubnetIds").scalar != "!Ref SubnetIds" ||
		g.get(t, "VpcConfig", "SecurityGroupIds").seq[0].scalar != "!Ref LambdaSecurityGroupId" {
		t.Error("every function must run in the platform's private subnets with its security group")
	}
	if g.get(t, "Environment", "Variables", "ERP_DB_HOST").scalar != "!Ref DatabaseProxyEndpoint" {
		t.Error("the functions must reach the database through the proxy (ERP_DB_HOST)")
	}

	raw, err := os.ReadFile(filepath.Join("..", "..", "samconfig.toml"))
	if err != nil {
		t.Fatal(err)
	}
	for _, env := range []string{"default", "dev", "staging", "prod"} {
		overrides := samOverrides(t, string(raw), env)
		stage := overrides["Environment"]
		if (env == "default" && stage != "dev") || (env != "default" && stage != env) {
			t.Errorf("samconfig %s: Environment=%s", env, stage)
		}
		for name, tv := range want {
			path := strings.Replace(tv[1], "/erp/dev/", "/erp/"+stage+"/", 1)
			if got := overrides[name]; got != path {
				t.Errorf("samconfig %s: %s=%q, want the SSM path %s", env, name, got, path)
			}
		}
		for k, v := range overrides {
			if doc.lookup("Parameters", k) == nil {
				t.Errorf("samconfig %s overrides %s, which is no template parameter", env, k)
			}
			if strings.Contains(v, "arn:aws") || strings.Contains(v, "123456789012") {
				t.Errorf("samconfig %s: %s=%s is a hand-copied value", env, k, v)
			}
		}
	}
}

// samOverrides reads parameter_overrides of [<env>.deploy.parameters] in
// samconfig.toml (a TOML multi-line string of Key=Value pairs; a backslash
// at the end of a line joins it to the next).
func samOverrides(t *testing.T, toml, env string) map[string]string {
	t.Helper()
	_, section, ok := strings.Cut(toml, "["+env+".deploy.parameters]")
	if !ok {
		t.Fatalf("samconfig.toml: no [%s.deploy.parameters]", env)
	}
	section, _, _ = strings.Cut(section, "\n[")
	_, body, ok := strings.Cut(section, `parameter_overrides = """`)
	if !ok {
		t.Fatalf("samconfig.toml %s: no parameter_overrides", env)
	}
	body, _, _ = strings.Cut(body, `"""`)
	out := map[string]string{}
	for _, f := range strings.Fields(strings.ReplaceAll(body, "\\\n", " ")) {
		k, v, ok := strings.Cut(f, "=")
		if !ok {
			t.Fatalf("samconfig.toml %s: %q is not Key=Value", env, f)
		}
		out[k] = strings.Trim(v, `"`)
	}
	return out
}

// TestNamesTheObservabilityStackReads: infra/'s ObservabilityStack finds
// the API by /erp/<env>/api/id, the queues by name and the functions by
// erp-<env>-<name> (checked with the concurrency knobs).
func TestNamesTheObservabilityStackReads(t *testing.T) {
	t.Parallel()
	doc := parseYAML(t, Template())
	res := doc.get(t, "Resources")
	if got := res.get(t, apiLogicalID, "Properties", "Name").scalar; got != `!Sub "erp-${Environment}"` {
		t.Errorf("HttpApi Name = %s", got)
	}
	p := res.get(t, apiIDParameterLogicalID)
	if p.get(t, "Type").scalar != "AWS::SSM::Parameter" || p.get(t, "Properties", "Name").scalar != `!Sub "/erp/${Environment}/api/id"` ||
		p.get(t, "Properties", "Value").scalar != "!Ref "+apiLogicalID || p.get(t, "Properties", "Type").scalar != "String" {
		t.Error("the SSM parameter /erp/<env>/api/id must hold the HttpApi id")
	}
	dlqs := map[string]string{}
	for _, q := range routes.Queues() {
		dlqs[q.Name] = res.get(t, DeadLetterQueueLogicalID(q.Name), "Properties", "QueueName").scalar
	}
	for q, want := range map[string]string{"webhook": `!Sub "erp-${Environment}-webhooks-dlq"`, "hacienda": `!Sub "erp-${Environment}-hacienda-dlq"`} {
		if dlqs[q] != want {
			t.Errorf("dead-letter queue of %s named %s, want %s", q, dlqs[q], want)
		}
	}
}

// TestTheKMSKeyIsUsedAndScoped: the queues are encrypted with the
// platform's key, every function may decrypt with that key only (its
// secrets are encrypted with it), and only senders may generate data keys.
func TestTheKMSKeyIsUsedAndScoped(t *testing.T) {
	t.Parallel()
	doc := parseYAML(t, Template())
	res := doc.get(t, "Resources")
	for _, q := range routes.Queues() {
		for _, id := range []string{QueueLogicalID(q.Name), DeadLetterQueueLogicalID(q.Name)} {
			props := res.get(t, id, "Properties")
			if props.get(t, "KmsMasterKeyId").scalar != "!Ref KmsKeyArn" || props.lookup("SqsManagedSseEnabled") != nil {
				t.Errorf("%s: must be encrypted with the platform's key", id)
			}
		}
	}
	for _, f := range routes.Functions() {
		var actions []string
		for _, p := range res.get(t, FunctionLogicalID(f.Name), "Properties", "Policies").seq {
			for _, st := range p.lookup("Statement").seqOrNil() {
				a := st.get(t, "Action")
				for _, x := range a.seq {
					if strings.HasPrefix(x.scalar, "kms:") {
						if r := st.get(t, "Resource").scalar; r != "!Ref KmsKeyArn" {
							t.Errorf("%s: %s on %s, want the platform key only", f.Name, x.scalar, r)
						}
						actions = append(actions, x.scalar)
					}
				}
			}
		}
		if !slices.Contains(actions, "kms:Decrypt") {
			t.Errorf("%s cannot decrypt its secrets (kms:Decrypt on KmsKeyArn)", f.Name)
		}
		if slices.Contains(actions, "kms:GenerateDataKey") != (sendsToQueue(f.Name) || f.Kind == routes.KindSchedule) {
			t.Errorf("%s: kms:GenerateDataKey only for the functions that send to a queue or the alarm topic (got %v)", f.Name, actions)
		}
		if f.Kind == routes.KindSchedule {
			eic := res.get(t, pascal(f.Name)+"EventInvokeConfig")
			if eic.get(t, "Type").scalar != "AWS::Lambda::EventInvokeConfig" ||
				eic.get(t, "Properties", "FunctionName").scalar != "!Ref "+FunctionLogicalID(f.Name) ||
				eic.get(t, "Properties", "DestinationConfig", "OnFailure", "Destination").scalar != "!Ref AlarmTopicArn" {
				t.Errorf("%s: a failed scheduled run must reach the alarm topic", f.Name)
			}
			publish := false
			for _, p := range res.get(t, FunctionLogicalID(f.Name), "Properties", "Policies").seq {
				for _, st := range p.lookup("Statement").seqOrNil() {
					if st.get(t, "Resource").scalar == "!Ref AlarmTopicArn" && st.get(t, "Action").seq[0].scalar == "sns:Publish" {
						publish = true
					}
				}
			}
			if !publish {
				t.Errorf("%s may not publish to the alarm topic", f.Name)
			}
		}
	}
}

func (n *yamlNode) seqOrNil() []*yamlNode {
	if n == nil {
		return nil
	}
	return n.seq
}
