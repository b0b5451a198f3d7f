package main

import (
	"reflect"
	"sort"
	"strconv"
	"strings"
	"testing"

	"github.com/aws/aws-cdk-go/awscdk/v2/assertions"
	"github.com/aws/jsii-runtime-go"
)

func TestDatabaseStorageIsEncryptedWithTheRotatingCustomerKey(t *testing.T) {
	for _, env := range allEnvs {
		t.Run(env, func(t *testing.T) {
			s := synth(t, env)
			keys := resources(s.pj, "AWS::KMS::Key")
			if len(keys) != 1 {
				t.Fatalf("want one KMS key, got %d", len(keys))
			}
			var keyID string
			for id, k := range keys {
				keyID = id
				if props(k)["EnableKeyRotation"] != true {
					t.Errorf("key rotation is off")
				}
			}
			check(t, "HasResourceProperties", func() {
				s.platform.HasResourceProperties(jsii.String("AWS::RDS::DBCluster"), map[string]any{
					"StorageEncrypted": true,
					"KmsKeyId":         map[string]any{"Fn::GetAtt": []any{keyID, "Arn"}},
					"Engine":           "aurora-postgresql",
				})
			})
			// Every secret is under the same customer key.
			for id, sec := range resources(s.pj, "AWS::SecretsManager::Secret") {
				if !reflect.DeepEqual(props(sec)["KmsKeyId"], map[string]any{"Fn::GetAtt": []any{keyID, "Arn"}}) {
					t.Errorf("secret %s is not under the customer key: %v", id, props(sec)["KmsKeyId"])
				}
			}
		})
	}
}

func TestEngineIsAuroraPostgresServerlessV2WithTheEnvironmentsCapacity(t *testing.T) {
	for _, env := range allEnvs {
		t.Run(env, func(t *testing.T) {
			s, cfg := synth(t, env), environments[env]
			for _, c := range resources(s.pj, "AWS::RDS::DBCluster") {
				v := props(c)["EngineVersion"].(string)
				major, err := strconv.Atoi(strings.SplitN(v, ".", 2)[0])
				if err != nil || major < 15 {
					t.Errorf("engine version %s: the migrations need PostgreSQL 15 or later", v)
				}
				want := map[string]any{"MinCapacity": cfg.MinACU, "MaxCapacity": cfg.MaxACU}
				if got := props(c)["ServerlessV2ScalingConfiguration"]; !reflect.DeepEqual(got, want) {
					t.Errorf("scaling %v, want %v", got, want)
				}
			}
			instances := resources(s.pj, "AWS::RDS::DBInstance")
			if len(instances) != 1+cfg.Readers {
				t.Errorf("%d instances, want writer + %d readers", len(instances), cfg.Readers)
			}
			for id, i := range instances {
				if props(i)["DBInstanceClass"] != "db.serverless" {
					t.Errorf("%s is %v, not Serverless v2", id, props(i)["DBInstanceClass"])
				}
			}
		})
	}
}

func TestDatabaseIsNotPubliclyAccessible(t *testing.T) {
	for _, env := range allEnvs {
		t.Run(env, func(t *testing.T) {
			s := synth(t, env)
			for id, i := range resources(s.pj, "AWS::RDS::DBInstance") {
				if props(i)["PubliclyAccessible"] != false {
					t.Errorf("instance %s: PubliclyAccessible = %v", id, props(i)["PubliclyAccessible"])
				}
			}
			// The subnet group holds only isolated subnets: no route to the
			// internet gateway or a NAT.
			for _, g := range resources(s.pj, "AWS::RDS::DBSubnetGroup") {
				for _, ref := range props(g)["SubnetIds"].([]any) {
					id := ref.(map[string]any)["Ref"].(string)
					if !strings.HasPrefix(id, "Vpc"+subnetIsolated) {
						t.Errorf("database subnet %s is not isolated", id)
					}
				}
			}
			for id := range resources(s.pj, "AWS::EC2::Route") {
				if strings.HasPrefix(id, "Vpc"+subnetIsolated) {
					t.Errorf("isolated subnet has route %s", id)
				}
			}
		})
	}
}

func TestProxyStandsInFrontWithTLSAndBothSecrets(t *testing.T) {
	s := synth(t, "dev")
	check(t, "ResourceCountIs", func() {
		s.platform.ResourceCountIs(jsii.String("AWS::RDS::DBProxy"), jsii.Number(1))
	})
	check(t, "HasResourceProperties", func() {
		s.platform.HasResourceProperties(jsii.String("AWS::RDS::DBProxy"), map[string]any{
			"EngineFamily": "POSTGRESQL",
			"RequireTLS":   true,
			"Auth": assertions.Match_ArrayWith(&[]any{
				assertions.Match_ObjectLike(&map[string]any{"AuthScheme": "SECRETS", "SecretArn": map[string]any{"Ref": logicalID(t, s.pj, "AWS::SecretsManager::Secret", "erp/dev/db/app")}}),
			}),
		})
	})
	// The proxy targets the cluster.
	check(t, "HasResourceProperties", func() {
		s.platform.HasResourceProperties(jsii.String("AWS::RDS::DBProxyTargetGroup"), map[string]any{
			"DBClusterIdentifiers": []any{map[string]any{"Ref": logicalID(t, s.pj, "AWS::RDS::DBCluster", "")}},
		})
	})

	// Lambda SG -> Proxy SG -> DB SG, and nothing else reaches the DB but
	// the master secret's rotation function.
	lambda, proxy, db := sgByName(t, s.pj, "erp-dev-lambda"), sgByName(t, s.pj, "erp-dev-proxy"), sgByName(t, s.pj, "erp-dev-db")
	rotation := sgByName(t, s.pj, "erp-dev-rotation")
	want := map[string]bool{"sg:" + proxy: true, "sg:" + rotation: true}
	for _, r := range rules(s.pj, db, false) {
		if !want[r.Peer] || r.From != "db-port" {
			t.Errorf("unexpected DB ingress %+v", r)
		}
		delete(want, r.Peer)
	}
	if len(want) != 0 {
		t.Errorf("DB ingress missing from %v", want)
	}
	for _, r := range rules(s.pj, proxy, false) {
		if r.Peer != "sg:"+lambda || r.From != "5432" || r.To != "5432" {
			t.Errorf("unexpected proxy ingress %+v", r)
		}
	}
	// The DB group opens no connection itself.
	for _, r := range rules(s.pj, db, true) {
		if r.Peer != "255.255.255.255/32" {
			t.Errorf("DB egress %+v", r)
		}
	}
}

func TestEveryLambdaEgressRuleIsIntended(t *testing.T) {
	for _, env := range allEnvs {
		t.Run(env, func(t *testing.T) {
			s := synth(t, env)
			lambda, proxy := sgByName(t, s.pj, "erp-"+env+"-lambda"), sgByName(t, s.pj, "erp-"+env+"-proxy")
			got := rules(s.pj, lambda, true)
			sort.Slice(got, func(i, j int) bool { return got[i].From < got[j].From })
			want := []rule{
				{Proto: "tcp", Peer: anyIPv4, From: "443", To: "443"},         // Hacienda, webhooks, AWS APIs
				{Proto: "tcp", Peer: "sg:" + proxy, From: "5432", To: "5432"}, // RDS Proxy
			}
			if !reflect.DeepEqual(got, want) {
				t.Errorf("Lambda SG egress\n got %+v\nwant %+v", got, want)
			}
			if in := rules(s.pj, lambda, false); len(in) != 0 {
				t.Errorf("Lambda SG admits %+v", in)
			}
		})
	}
}

func TestNoSecurityGroupAdmitsTheInternet(t *testing.T) {
	for _, env := range allEnvs {
		s := synth(t, env)
		for id := range resources(s.pj, "AWS::EC2::SecurityGroup") {
			for _, r := range rules(s.pj, id, false) {
				if !strings.HasPrefix(r.Peer, "sg:") {
					t.Errorf("%s: %s admits %+v", env, id, r)
				}
			}
		}
	}
}

func TestDeletionProtectionAndSnapshotOnlyWhereProtected(t *testing.T) {
	for _, tc := range []struct {
		env        string
		protection bool
		policy     string
	}{
		{"dev", false, "Delete"},
		{"staging", false, "Delete"},
		{"prod", true, "Snapshot"},
	} {
		t.Run(tc.env, func(t *testing.T) {
			s := synth(t, tc.env)
			for id, c := range resources(s.pj, "AWS::RDS::DBCluster") {
				if props(c)["DeletionProtection"] != tc.protection {
					t.Errorf("%s DeletionProtection = %v", id, props(c)["DeletionProtection"])
				}
				if c["DeletionPolicy"] != tc.policy || c["UpdateReplacePolicy"] != tc.policy {
					t.Errorf("%s DeletionPolicy %v / UpdateReplacePolicy %v, want %s", id, c["DeletionPolicy"], c["UpdateReplacePolicy"], tc.policy)
				}
			}
			if tc.protection {
				for id, k := range resources(s.pj, "AWS::KMS::Key") {
					if k["DeletionPolicy"] != "Retain" {
						t.Errorf("key %s would be deleted with the stack", id)
					}
				}
			}
		})
	}
}

func TestNatGatewaysPerEnvironment(t *testing.T) {
	for env, want := range map[string]int{"dev": 1, "staging": 1, "prod": 3} {
		s := synth(t, env)
		check(t, "ResourceCountIs", func() {
			s.platform.ResourceCountIs(jsii.String("AWS::EC2::NatGateway"), jsii.Number(float64(want)))
		})
		// prod: one per AZ, so each private subnet routes through its own.
		if got := len(resources(s.pj, "AWS::EC2::Subnet")); got != 3*environments[env].AZs {
			t.Errorf("%s: %d subnets, want public+private+isolated in %d AZs", env, got, environments[env].AZs)
		}
	}
}

func TestInterfaceEndpointsKeepAWSTrafficOffTheNat(t *testing.T) {
	s := synth(t, "dev")
	var services []string
	for _, e := range resources(s.pj, "AWS::EC2::VPCEndpoint") {
		p := props(e)
		if p["VpcEndpointType"] != "Interface" || p["PrivateDnsEnabled"] != true {
			t.Errorf("endpoint %v is not a private-DNS interface endpoint", p["ServiceName"])
		}
		services = append(services, flatten(p["ServiceName"]))
	}
	sort.Strings(services)
	for i, want := range []string{".logs", ".secretsmanager", ".sqs"} {
		if i >= len(services) || !strings.HasSuffix(services[i], want) {
			t.Errorf("endpoints %v, want logs, secretsmanager and sqs", services)
			break
		}
	}
}

// flatten renders an Fn::Join of strings and refs as text.
func flatten(v any) string {
	switch x := v.(type) {
	case string:
		return x
	case map[string]any:
		if j, ok := x["Fn::Join"].([]any); ok {
			var parts []string
			for _, p := range j[1].([]any) {
				parts = append(parts, flatten(p))
			}
			return strings.Join(parts, j[0].(string))
		}
		if r, ok := x["Ref"].(string); ok {
			return "${" + r + "}"
		}
	}
	return "?"
}

func TestContractParametersArePublished(t *testing.T) {
	for _, env := range allEnvs {
		t.Run(env, func(t *testing.T) {
			s := synth(t, env)
			got := map[string]string{}
			for _, p := range resources(s.pj, "AWS::SSM::Parameter") {
				got[props(p)["Name"].(string)] = props(p)["Type"].(string)
			}
			want := map[string]string{
				"/erp/" + env + "/network/private-subnet-ids":       "StringList",
				"/erp/" + env + "/network/lambda-security-group-id": "String",
				"/erp/" + env + "/db/proxy-endpoint":                "String",
				"/erp/" + env + "/db/app-secret-arn":                "String",
				"/erp/" + env + "/db/admin-secret-arn":              "String",
				"/erp/" + env + "/secrets/hacienda-secret-arn":      "String",
				"/erp/" + env + "/secrets/app-key-secret-arn":       "String",
				"/erp/" + env + "/kms/key-arn":                      "String",
				"/erp/" + env + "/alarms/topic-arn":                 "String",
			}
			if !reflect.DeepEqual(got, want) {
				t.Errorf("platform parameters\n got %v\nwant %v", got, want)
			}
			// The values point at the right things.
			check(t, "topic parameter", func() {
				s.platform.HasResourceProperties(jsii.String("AWS::SSM::Parameter"), map[string]any{
					"Name":  "/erp/" + env + "/alarms/topic-arn",
					"Value": map[string]any{"Ref": logicalID(t, s.pj, "AWS::SNS::Topic", "")},
				})
			})
			check(t, "HasResourceProperties", func() {
				s.platform.HasResourceProperties(jsii.String("AWS::SSM::Parameter"), map[string]any{
					"Name":  "/erp/" + env + "/db/proxy-endpoint",
					"Value": map[string]any{"Fn::GetAtt": []any{logicalID(t, s.pj, "AWS::RDS::DBProxy", ""), "Endpoint"}},
				})
			})
			check(t, "HasResourceProperties", func() {
				s.platform.HasResourceProperties(jsii.String("AWS::SSM::Parameter"), map[string]any{
					"Name":  "/erp/" + env + "/network/lambda-security-group-id",
					"Value": map[string]any{"Fn::GetAtt": []any{sgByName(t, s.pj, "erp-"+env+"-lambda"), "GroupId"}},
				})
			})
		})
	}
}

func TestAppSecretsHostIsTheProxyAndAppKeyIsGenerated(t *testing.T) {
	s := synth(t, "dev")
	app := logicalID(t, s.pj, "AWS::SecretsManager::Secret", "erp/dev/db/app")
	check(t, "HasResourceProperties", func() {
		s.platform.HasResourceProperties(jsii.String("Custom::SecretHost"), map[string]any{
			"Accion":   "host",
			"SecretId": map[string]any{"Ref": app},
			"Host":     map[string]any{"Fn::GetAtt": []any{logicalID(t, s.pj, "AWS::RDS::DBProxy", ""), "Endpoint"}},
		})
	})
	check(t, "HasResourceProperties", func() {
		s.platform.HasResourceProperties(jsii.String("Custom::AppKey"), map[string]any{
			"Accion":   "clave",
			"SecretId": map[string]any{"Ref": logicalID(t, s.pj, "AWS::SecretsManager::Secret", "erp/dev/app-key")},
		})
	})
	// The inline code fits CloudFormation's ZipFile limit.
	if len(secretsFix) > 4096 {
		t.Errorf("secretsfix.js is %d bytes; inline code is limited to 4096", len(secretsFix))
	}
	// The master secret rotates.
	check(t, "HasResourceProperties", func() {
		s.platform.HasResourceProperties(jsii.String("AWS::SecretsManager::RotationSchedule"), map[string]any{
			"RotationRules": map[string]any{"ScheduleExpression": "rate(30 days)"},
		})
	})
}

// logicalID finds the one resource of a type (whose Name/SecretName is
// name, when given).
func logicalID(t *testing.T, tpl map[string]any, typ, name string) string {
	t.Helper()
	var found []string
	for id, r := range resources(tpl, typ) {
		if name == "" || props(r)["Name"] == name {
			found = append(found, id)
		}
	}
	if len(found) != 1 {
		t.Fatalf("%s %q: found %v", typ, name, found)
	}
	return found[0]
}
