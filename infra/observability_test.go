package main

import (
	"os"
	"reflect"
	"sort"
	"strings"
	"testing"

	"github.com/aws/aws-cdk-go/awscdk/v2/assertions"
	"github.com/aws/jsii-runtime-go"

	"github.com/erpcr/erp/shared/routes"
)

// alarmsBy indexes the alarms of a template by metric name and the value of
// their one dimension.
func alarmsBy(tpl map[string]any) map[[2]string]map[string]any {
	out := map[[2]string]map[string]any{}
	for _, a := range resources(tpl, "AWS::CloudWatch::Alarm") {
		p := props(a)
		name, _ := p["MetricName"].(string)
		dim := ""
		if ds, ok := p["Dimensions"].([]any); ok && len(ds) == 1 {
			dim, _ = ds[0].(map[string]any)["Value"].(string)
		}
		out[[2]string{name, dim}] = p
	}
	return out
}

// ssmParam returns the template parameter that reads an SSM parameter.
func ssmParam(t *testing.T, tpl map[string]any, name string) string {
	t.Helper()
	for id, p := range tpl["Parameters"].(map[string]any) {
		pm := p.(map[string]any)
		if pm["Default"] == name {
			if pm["Type"] != "AWS::SSM::Parameter::Value<String>" {
				t.Errorf("%s read as %v", name, pm["Type"])
			}
			return id
		}
	}
	t.Fatalf("no template parameter reads %s", name)
	return ""
}

// notifiesTopic reports whether an alarm sends to the platform's topic
// (whose ARN the stack reads from /erp/<env>/alarms/topic-arn).
func notifiesTopic(t *testing.T, s *synthesized, p map[string]any) bool {
	topic := map[string]any{"Ref": ssmParam(t, s.oj, "/erp/"+s.env+"/alarms/topic-arn")}
	for _, k := range []string{"AlarmActions", "OKActions"} {
		as, _ := p[k].([]any)
		if len(as) != 1 || !reflect.DeepEqual(as[0], topic) {
			return false
		}
	}
	return true
}

func TestFunctionsOfTheRouteTableAreTheFunctionDirectories(t *testing.T) {
	entries, err := os.ReadDir("../functions")
	if err != nil {
		t.Fatal(err)
	}
	var dirs, fns []string
	for _, e := range entries {
		if e.IsDir() {
			dirs = append(dirs, e.Name())
		}
	}
	for _, f := range routes.Functions() {
		fns = append(fns, f.Name)
	}
	sort.Strings(dirs)
	if !reflect.DeepEqual(dirs, fns) {
		t.Errorf("functions/ has %v, routes.Functions() %v: the alarms would miss a function", dirs, fns)
	}
	// The DLQ alarms name one queue per application queue.
	if len(routes.Queues()) != len(dlqNames) {
		t.Errorf("routes.Queues() has %d queues, the alarms watch DLQs %v", len(routes.Queues()), dlqNames)
	}
}

func TestEveryFunctionHasErrorAndThrottleAlarms(t *testing.T) {
	s := synth(t, "dev")
	alarms := alarmsBy(s.oj)
	for _, f := range routes.Functions() {
		fn := "erp-dev-" + f.Name
		for _, m := range []string{"Errors", "Throttles"} {
			p, ok := alarms[[2]string{m, fn}]
			if !ok {
				t.Errorf("no %s alarm for %s", m, fn)
				continue
			}
			if p["Namespace"] != "AWS/Lambda" || p["Threshold"] != 1.0 || !notifiesTopic(t, s, p) {
				t.Errorf("%s alarm of %s: %v", m, fn, p)
			}
		}
		p, ok := alarms[[2]string{"Duration", fn}]
		if (f.Kind == routes.KindHTTP) != ok {
			t.Errorf("%s (%s): p99 latency alarm present = %v", fn, f.Kind, ok)
		}
		if ok && (p["ExtendedStatistic"] != "p99" || p["Threshold"] != environments["dev"].LatencyP99Ms) {
			t.Errorf("latency alarm of %s: %v", fn, p)
		}
	}
}

func TestDeadLetterQueueAlarmsFireOnTheFirstMessage(t *testing.T) {
	for _, env := range allEnvs {
		s := synth(t, env)
		alarms := alarmsBy(s.oj)
		for _, q := range []string{"erp-" + env + "-webhooks-dlq", "erp-" + env + "-hacienda-dlq"} {
			p, ok := alarms[[2]string{"ApproximateNumberOfMessagesVisible", q}]
			if !ok {
				t.Errorf("%s: no alarm on %s", env, q)
				continue
			}
			if p["Namespace"] != "AWS/SQS" || p["Threshold"] != 1.0 || p["ComparisonOperator"] != "GreaterThanOrEqualToThreshold" || !notifiesTopic(t, s, p) {
				t.Errorf("%s alarm: %v", q, p)
			}
		}
	}
}

func TestStuckComprobantesAndAuroraAlarms(t *testing.T) {
	s := synth(t, "prod")
	alarms := alarmsBy(s.oj)
	stuck, ok := alarms[[2]string{"ComprobantesEnviadosAtascados", "erp-prod-hacienda-worker"}]
	if !ok || stuck["Namespace"] != "ERP" || !notifiesTopic(t, s, stuck) {
		t.Errorf("stuck comprobantes alarm: %v", stuck)
	}
	for _, m := range []string{"CPUUtilization", "ACUUtilization", "DatabaseConnections"} {
		p, ok := alarms[[2]string{m, "erp-prod"}]
		if !ok || p["Namespace"] != "AWS/RDS" || !notifiesTopic(t, s, p) {
			t.Errorf("Aurora %s alarm: %v", m, p)
		}
	}
	if got := alarms[[2]string{"CPUUtilization", "erp-prod"}]["Threshold"]; got != environments["prod"].DBCPUPercent {
		t.Errorf("prod CPU threshold %v", got)
	}
}

func TestApiAlarmsUseTheApiIdTheSamTemplatePublishes(t *testing.T) {
	s := synth(t, "staging")
	// The API id comes from the SSM parameter template.yaml writes.
	param := ssmParam(t, s.oj, "/erp/staging/api/id")
	var rate, p99 bool
	for _, a := range resources(s.oj, "AWS::CloudWatch::Alarm") {
		p := props(a)
		switch p["AlarmName"] {
		case "erp-staging-api-5xx":
			rate = notifiesTopic(t, s, p) && p["Threshold"] == environments["staging"].Api5xxPercent
			metrics := p["Metrics"].([]any)
			if len(metrics) != 3 {
				t.Errorf("5xx rate: %v", metrics)
			}
			for _, m := range metrics {
				mm := m.(map[string]any)
				if stat, ok := mm["MetricStat"].(map[string]any); ok {
					dims := stat["Metric"].(map[string]any)["Dimensions"].([]any)
					if !reflect.DeepEqual(dims[0], map[string]any{"Name": "ApiId", "Value": map[string]any{"Ref": param}}) {
						t.Errorf("5xx rate metric dimension %v", dims)
					}
				}
			}
		case "erp-staging-api-latencia-p99":
			p99 = p["ExtendedStatistic"] == "p99" && reflect.DeepEqual(p["Dimensions"], []any{map[string]any{"Name": "ApiId", "Value": map[string]any{"Ref": param}}})
		}
	}
	if !rate || !p99 {
		t.Errorf("API alarms: 5xx rate %v, p99 %v", rate, p99)
	}
}

func TestDashboardAndEncryptedTopic(t *testing.T) {
	s := synth(t, "dev")
	check(t, "dashboard", func() {
		s.observability.HasResourceProperties(jsii.String("AWS::CloudWatch::Dashboard"), map[string]any{"DashboardName": "erp-dev"})
	})
	// The topic is under the platform key, whose policy lets CloudWatch
	// alarms publish to it.
	check(t, "topic", func() {
		s.platform.HasResourceProperties(jsii.String("AWS::SNS::Topic"), map[string]any{
			"TopicName":      "erp-dev-alarmas",
			"KmsMasterKeyId": map[string]any{"Fn::GetAtt": []any{logicalID(t, s.pj, "AWS::KMS::Key", ""), "Arn"}},
		})
	})
	check(t, "key policy", func() {
		s.platform.HasResourceProperties(jsii.String("AWS::KMS::Key"), map[string]any{
			"KeyPolicy": assertions.Match_ObjectLike(&map[string]any{
				"Statement": assertions.Match_ArrayWith(&[]any{assertions.Match_ObjectLike(&map[string]any{
					"Principal": map[string]any{"Service": "cloudwatch.amazonaws.com"},
					"Action":    []any{"kms:Decrypt", "kms:GenerateDataKey*"},
				})}),
			}),
		})
	})
}

// The EMF names the alarm uses are the ones the application writes.
func TestStuckMetricNamesMatchTheApplication(t *testing.T) {
	for file, decl := range map[string]string{
		"../shared/metricas/metricas.go":     `const Namespace = "` + metricNamespace + `"`,
		"../shared/facturacion/atascados.go": `const MetricaAtascados = "` + metricStuck + `"`,
	} {
		b, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(string(b), decl) {
			t.Errorf("%s does not declare %s", file, decl)
		}
	}
}
