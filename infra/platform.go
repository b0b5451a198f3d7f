package main

import (
	"github.com/aws/aws-cdk-go/awscdk/v2"
	"github.com/aws/aws-cdk-go/awscdk/v2/awsec2"
	"github.com/aws/aws-cdk-go/awscdk/v2/awsiam"
	"github.com/aws/aws-cdk-go/awscdk/v2/awskms"
	"github.com/aws/aws-cdk-go/awscdk/v2/awsrds"
	"github.com/aws/aws-cdk-go/awscdk/v2/awssecretsmanager"
	"github.com/aws/aws-cdk-go/awscdk/v2/awssns"
	"github.com/aws/aws-cdk-go/awscdk/v2/awsssm"
	"github.com/aws/constructs-go/constructs/v10"
	"github.com/aws/jsii-runtime-go"
)

// Platform is what PlatformStack builds; the fields let the tests and
// ObservabilityStack name its parts.
type Platform struct {
	Stack    awscdk.Stack
	Vpc      awsec2.Vpc
	Key      awskms.Key
	Cluster  awsrds.DatabaseCluster
	Proxy    awsrds.DatabaseProxy
	LambdaSG awsec2.SecurityGroup
	ProxySG  awsec2.SecurityGroup
	DBSG     awsec2.SecurityGroup
	Topic    awssns.Topic

	endpointsSG     awsec2.SecurityGroup
	secretsEndpoint awsec2.InterfaceVpcEndpoint
}

// NewPlatformStack builds the network, the database and the secrets of one
// environment and publishes what the SAM application needs in SSM.
func NewPlatformStack(scope constructs.Construct, cfg Config) *Platform {
	stack := awscdk.NewStack(scope, jsii.String(stackName(cfg.Env, "platform")), &awscdk.StackProps{
		StackName:   jsii.String(stackName(cfg.Env, "platform")),
		Description: jsii.String("ERP " + cfg.Env + ": VPC, Aurora PostgreSQL Serverless v2 behind RDS Proxy, secrets, KMS key, alarm topic (infra/, CDK)"),
		Env:         &awscdk.Environment{Region: jsii.String(cfg.Region)},
		// Resources that matter can be deleted only on purpose.
		TerminationProtection: jsii.Bool(cfg.Protect),
	})
	awscdk.Tags_Of(stack).Add(jsii.String("proyecto"), jsii.String("erp"), nil)
	awscdk.Tags_Of(stack).Add(jsii.String("entorno"), jsii.String(cfg.Env), nil)
	p := &Platform{Stack: stack}
	lintConfig(stack)

	// One customer key for the database storage, its snapshots, the
	// secrets and the PostgreSQL log; AWS rotates its material yearly.
	p.Key = awskms.NewKey(stack, jsii.String("Key"), &awskms.KeyProps{
		Alias:             jsii.String("alias/erp-" + cfg.Env),
		Description:       jsii.String("ERP " + cfg.Env + ": Aurora storage, secrets"),
		EnableKeyRotation: jsii.Bool(true),
		PendingWindow:     awscdk.Duration_Days(jsii.Number(30)),
		RemovalPolicy:     removal(cfg, awscdk.RemovalPolicy_RETAIN),
	})

	// CloudWatch alarms publish to the topic, which is under this key.
	p.Key.AddToResourcePolicy(awsiam.NewPolicyStatement(&awsiam.PolicyStatementProps{
		Sid:        jsii.String("CloudWatchAlarmsToTopic"),
		Principals: &[]awsiam.IPrincipal{awsiam.NewServicePrincipal(jsii.String("cloudwatch.amazonaws.com"), nil)},
		Actions:    jsii.Strings("kms:Decrypt", "kms:GenerateDataKey*"),
		Resources:  jsii.Strings("*"),
	}), nil)
	// The alarm topic lives here, not in ObservabilityStack: the SAM stack
	// reads its ARN (/erp/<env>/alarms/topic-arn) when it deploys, and
	// ObservabilityStack deploys after SAM (it needs the API id).
	p.Topic = awssns.NewTopic(stack, jsii.String("Alarms"), &awssns.TopicProps{
		TopicName:   jsii.String("erp-" + cfg.Env + "-alarmas"),
		DisplayName: jsii.String("ERP " + cfg.Env + " alarmas"),
		MasterKey:   p.Key,
		EnforceSSL:  jsii.Bool(true),
	})

	p.network(cfg)
	secrets := p.database(cfg)
	p.publish(cfg, secrets)
	return p
}

// removal is what happens to a resource when the stack deletes it: in a
// protected environment, keep (or snapshot); elsewhere, delete.
func removal(cfg Config, protected awscdk.RemovalPolicy) awscdk.RemovalPolicy {
	if cfg.Protect {
		return protected
	}
	return awscdk.RemovalPolicy_DESTROY
}

// appSecrets are the secrets the SAM functions read.
type appSecrets struct {
	app, admin, hacienda, appKey awssecretsmanager.ISecret
}

// publish writes the SSM parameters of the contract with template.yaml.
func (p *Platform) publish(cfg Config, s appSecrets) {
	private := p.Vpc.SelectSubnets(&awsec2.SubnetSelection{SubnetType: awsec2.SubnetType_PRIVATE_WITH_EGRESS}).SubnetIds
	awsssm.NewStringListParameter(p.Stack, jsii.String("ParamPrivateSubnets"), &awsssm.StringListParameterProps{
		ParameterName:   jsii.String(param(cfg.Env, ParamPrivateSubnets)),
		StringListValue: private,
		Description:     jsii.String("Private subnets (NAT egress) of the ERP Lambdas"),
	})
	str := func(id, suffix, desc string, v *string) {
		awsssm.NewStringParameter(p.Stack, jsii.String(id), &awsssm.StringParameterProps{
			ParameterName: jsii.String(param(cfg.Env, suffix)),
			StringValue:   v,
			Description:   jsii.String(desc),
		})
	}
	str("ParamLambdaSG", ParamLambdaSG, "Security group of the ERP Lambdas (admitted by RDS Proxy)", p.LambdaSG.SecurityGroupId())
	str("ParamProxyEndpoint", ParamProxyEndpoint, "RDS Proxy endpoint (TLS required)", p.Proxy.Endpoint())
	str("ParamAppSecret", ParamAppSecret, "Secret of the application role "+appRoleName+" (host = RDS Proxy)", s.app.SecretArn())
	str("ParamAdminSecret", ParamAdminSecret, "Secret of the master user (migrate function only)", s.admin.SecretArn())
	str("ParamHaciendaSecret", ParamHaciendaSecret, "Hacienda credentials/certificate secret (placeholder until filled)", s.hacienda.SecretArn())
	str("ParamAppKeySecret", ParamAppKeySecret, "AES-256 key (base64) that encrypts secrets at rest (ERP_SECRETS_KEY_ARN)", s.appKey.SecretArn())
	str("ParamKMSKey", ParamKMSKey, "Customer KMS key of the environment", p.Key.KeyArn())
	str("ParamAlarmTopic", ParamAlarmTopic, "SNS topic of the ERP alarms", p.Topic.TopicArn())
}

// output adds a stack output (shown by cdk deploy).
func output(stack awscdk.Stack, id string, v *string) {
	awscdk.NewCfnOutput(stack, jsii.String(id), &awscdk.CfnOutputProps{Value: v})
}

// lintConfig tells cfn-lint (make synth lints every template) to skip
// W3005, "DependsOn already enforced by a Ref": CDK adds such DependsOn
// itself (a proxy target group on its cluster, a function on its role's
// policy) and they are harmless.
func lintConfig(stack awscdk.Stack) {
	stack.AddMetadata(jsii.String("cfn-lint"), map[string]any{
		"config": map[string]any{"ignore_checks": []string{"W3005"}},
	})
}
