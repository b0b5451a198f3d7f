package main

import (
	"os"
	"sync"
	"testing"

	"github.com/aws/aws-cdk-go/awscdk/v2"
	"github.com/aws/aws-cdk-go/awscdk/v2/assertions"
	"github.com/aws/jsii-runtime-go"
)

func TestMain(m *testing.M) {
	// One jsii kernel (node) serves every test; stop it at the end.
	code := m.Run()
	jsii.Close()
	os.Exit(code)
}

// synthesized holds the two templates of one environment.
type synthesized struct {
	env                     string
	platform, observability assertions.Template
	pj, oj                  map[string]any // their JSON
}

var (
	synthMu    sync.Mutex
	synthCache = map[string]*synthesized{}
)

// synth builds the app of env once per test binary (each synthesis costs
// node round trips) and returns its templates.
func synth(t *testing.T, env string) *synthesized {
	t.Helper()
	synthMu.Lock()
	defer synthMu.Unlock()
	if s, ok := synthCache[env]; ok {
		return s
	}
	app := awscdk.NewApp(&awscdk.AppProps{Context: &map[string]any{"env": env}})
	cfg, err := configFor(env)
	if err != nil {
		t.Fatal(err)
	}
	p := NewPlatformStack(app, cfg)
	o := NewObservabilityStack(app, cfg, "")
	s := &synthesized{
		env:           env,
		platform:      assertions.Template_FromStack(p.Stack, nil),
		observability: assertions.Template_FromStack(o.Stack, nil),
	}
	s.pj = *s.platform.ToJSON()
	s.oj = *s.observability.ToJSON()
	synthCache[env] = s
	return s
}

// resources returns the resources of a template of one type, by logical id.
func resources(tpl map[string]any, typ string) map[string]map[string]any {
	out := map[string]map[string]any{}
	for id, r := range tpl["Resources"].(map[string]any) {
		res := r.(map[string]any)
		if res["Type"] == typ {
			out[id] = res
		}
	}
	return out
}

func props(res map[string]any) map[string]any {
	p, _ := res["Properties"].(map[string]any)
	return p
}

// sgByName finds a security group's logical id by its GroupName.
func sgByName(t *testing.T, tpl map[string]any, name string) string {
	t.Helper()
	for id, r := range resources(tpl, "AWS::EC2::SecurityGroup") {
		if props(r)["GroupName"] == name {
			return id
		}
	}
	t.Fatalf("no security group named %s", name)
	return ""
}

// groupRef returns the logical id a {"Fn::GetAtt": [id, "GroupId"]} names.
func groupRef(v any) string {
	m, ok := v.(map[string]any)
	if !ok {
		return ""
	}
	ga, ok := m["Fn::GetAtt"].([]any)
	if !ok || len(ga) != 2 || ga[1] != "GroupId" {
		return ""
	}
	id, _ := ga[0].(string)
	return id
}

// rule is one security-group rule, inline or standalone: the peer is a
// CIDR or the logical id of another group; ports are numbers, or the
// cluster's port attribute ("db-port").
type rule struct {
	Proto, Peer string
	From, To    string
}

func portOf(v any) string {
	switch x := v.(type) {
	case float64:
		return itoa(int(x))
	case map[string]any:
		if ga, ok := x["Fn::GetAtt"].([]any); ok && len(ga) == 2 && ga[1] == "Endpoint.Port" {
			return "db-port"
		}
	}
	return "?"
}

func peerOf(p map[string]any, keys ...string) string {
	for _, k := range keys {
		if v, ok := p[k]; ok {
			if s, ok := v.(string); ok {
				return s
			}
			if id := groupRef(v); id != "" {
				return "sg:" + id
			}
			return "?"
		}
	}
	return "?"
}

// rules lists the egress (or ingress) rules of the group with logical id sg.
func rules(tpl map[string]any, sg string, egress bool) []rule {
	var out []rule
	inlineKey, typ, peers := "SecurityGroupIngress", "AWS::EC2::SecurityGroupIngress", []string{"CidrIp", "CidrIpv6", "SourceSecurityGroupId", "SourcePrefixListId"}
	if egress {
		inlineKey, typ, peers = "SecurityGroupEgress", "AWS::EC2::SecurityGroupEgress", []string{"CidrIp", "CidrIpv6", "DestinationSecurityGroupId", "DestinationPrefixListId"}
	}
	res := resources(tpl, "AWS::EC2::SecurityGroup")[sg]
	if inline, ok := props(res)[inlineKey].([]any); ok {
		for _, r := range inline {
			p := r.(map[string]any)
			out = append(out, rule{Proto: p["IpProtocol"].(string), Peer: peerOf(p, peers...), From: portOf(p["FromPort"]), To: portOf(p["ToPort"])})
		}
	}
	for _, r := range resources(tpl, typ) {
		p := props(r)
		if groupRef(p["GroupId"]) != sg {
			continue
		}
		out = append(out, rule{Proto: p["IpProtocol"].(string), Peer: peerOf(p, peers...), From: portOf(p["FromPort"]), To: portOf(p["ToPort"])})
	}
	return out
}

var allEnvs = []string{"dev", "staging", "prod"}

// check runs an assertions.Template check, which panics on a mismatch,
// and turns the panic into a test failure.
func check(t *testing.T, what string, fn func()) {
	t.Helper()
	defer func() {
		if r := recover(); r != nil {
			t.Errorf("%s: %v", what, r)
		}
	}()
	fn()
}
