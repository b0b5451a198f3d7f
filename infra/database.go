package main

import (
	_ "embed"

	"github.com/aws/aws-cdk-go/awscdk/v2"
	"github.com/aws/aws-cdk-go/awscdk/v2/awsec2"
	"github.com/aws/aws-cdk-go/awscdk/v2/awslambda"
	"github.com/aws/aws-cdk-go/awscdk/v2/awslogs"
	"github.com/aws/aws-cdk-go/awscdk/v2/awsrds"
	"github.com/aws/aws-cdk-go/awscdk/v2/awssecretsmanager"
	"github.com/aws/jsii-runtime-go"
)

// The migrations use PostgreSQL 15 features (the local clusters run 15 or
// later); Aurora PostgreSQL 16.6 is the engine.
func engineVersion() awsrds.AuroraPostgresEngineVersion {
	return awsrds.AuroraPostgresEngineVersion_VER_16_6()
}

// secretsFix is the inline function of the SecretValue custom resources:
// it sets the app secret's host to the proxy endpoint (the proxy needs the
// secret first, so CloudFormation cannot template it in) and fills the
// application key secret with 32 random bytes in base64 (Secrets Manager's
// generator makes no base64).
//
//go:embed secretsfix.js
var secretsFix string

// database builds the Aurora cluster, its proxy and the secrets.
func (p *Platform) database(cfg Config) appSecrets {
	stack := p.Stack
	isolated := &awsec2.SubnetSelection{SubnetType: awsec2.SubnetType_PRIVATE_ISOLATED}
	private := &awsec2.SubnetSelection{SubnetType: awsec2.SubnetType_PRIVATE_WITH_EGRESS}

	var readers []awsrds.IClusterInstance
	for i := 0; i < cfg.Readers; i++ {
		readers = append(readers, awsrds.ClusterInstance_ServerlessV2(jsii.String("Reader"+itoa(i+1)), &awsrds.ServerlessV2ClusterInstanceProps{
			PubliclyAccessible: jsii.Bool(false),
			ScaleWithWriter:    jsii.Bool(true),
		}))
	}
	p.Cluster = awsrds.NewDatabaseCluster(stack, jsii.String("Database"), &awsrds.DatabaseClusterProps{
		ClusterIdentifier: jsii.String("erp-" + cfg.Env),
		Engine: awsrds.DatabaseClusterEngine_AuroraPostgres(&awsrds.AuroraPostgresClusterEngineProps{
			Version: engineVersion(),
		}),
		Credentials: awsrds.Credentials_FromGeneratedSecret(jsii.String(adminUserName), &awsrds.CredentialsBaseOptions{
			SecretName:    jsii.String("erp/" + cfg.Env + "/db/admin"),
			EncryptionKey: p.Key,
		}),
		DefaultDatabaseName: jsii.String(databaseName),
		Port:                jsii.Number(databasePort),
		Writer: awsrds.ClusterInstance_ServerlessV2(jsii.String("Writer"), &awsrds.ServerlessV2ClusterInstanceProps{
			PubliclyAccessible: jsii.Bool(false),
		}),
		Readers:                 &readers,
		ServerlessV2MinCapacity: jsii.Number(cfg.MinACU),
		ServerlessV2MaxCapacity: jsii.Number(cfg.MaxACU),
		Vpc:                     p.Vpc,
		VpcSubnets:              isolated,
		SecurityGroups:          &[]awsec2.ISecurityGroup{p.DBSG},
		StorageEncrypted:        jsii.Bool(true),
		StorageEncryptionKey:    p.Key,
		DeletionProtection:      jsii.Bool(cfg.Protect),
		RemovalPolicy:           removal(cfg, awscdk.RemovalPolicy_SNAPSHOT),
		Backup:                  &awsrds.BackupProps{Retention: awscdk.Duration_Days(jsii.Number(cfg.BackupDays))},
		CloudwatchLogsExports:   &[]*string{jsii.String("postgresql")},
		CopyTagsToSnapshot:      jsii.Bool(true),
	})
	// The PostgreSQL log group, declared here (not by the cluster's log
	// retention custom resource) so the template needs no asset.
	pgLog := awslogs.NewLogGroup(stack, jsii.String("PostgresLog"), &awslogs.LogGroupProps{
		LogGroupName:  jsii.String("/aws/rds/cluster/erp-" + cfg.Env + "/postgresql"),
		Retention:     logRetention(cfg.LogDays),
		RemovalPolicy: removal(cfg, awscdk.RemovalPolicy_RETAIN),
	})
	p.Cluster.Node().AddDependency(pgLog)
	admin := p.Cluster.Secret()

	// The master secret rotates (single user, the AWS rotation application
	// in the private subnets). The rotation function talks to Aurora itself,
	// not through the proxy: a proxy authenticates against the current
	// secret and would refuse the pending password rotation tests.
	rotationSG := awsec2.NewSecurityGroup(stack, jsii.String("RotationSG"), &awsec2.SecurityGroupProps{
		Vpc:               p.Vpc,
		SecurityGroupName: jsii.String("erp-" + cfg.Env + "-rotation"),
		Description:       jsii.String("Master secret rotation function: to Aurora and the Secrets Manager endpoint"),
		AllowAllOutbound:  jsii.Bool(false),
	})
	https := awsec2.Port_Tcp(jsii.Number(httpsPort))
	rotationSG.AddEgressRule(p.endpointsSG, https, jsii.String("Secrets Manager endpoint"), nil)
	// rotationSG -> DB SG is added by AddRotationSingleUser.
	p.endpointsSG.AddIngressRule(rotationSG, https, jsii.String("From the rotation function"), nil)
	p.Cluster.AddRotationSingleUser(&awsrds.RotationSingleUserOptions{
		AutomaticallyAfter: awscdk.Duration_Days(jsii.Number(cfg.RotationDays)),
		VpcSubnets:         private,
		SecurityGroup:      rotationSG,
		Endpoint:           p.secretsEndpoint,
	})

	// The application role's secret: the migrate function creates role
	// erp_app with this password (not the master user); the functions
	// connect with it through the proxy.
	app := p.secret(cfg, "AppDbSecret", "db/app", "application role "+appRoleName+" (RDS format; host = RDS Proxy)",
		&awssecretsmanager.SecretStringGenerator{
			SecretStringTemplate: jsii.String(`{"engine":"postgres","username":"` + appRoleName + `","port":5432,"dbname":"` + databaseName + `"}`),
			GenerateStringKey:    jsii.String("password"),
			PasswordLength:       jsii.Number(40),
			ExcludePunctuation:   jsii.Bool(true),
		})

	p.Proxy = p.Cluster.AddProxy(jsii.String("Proxy"), &awsrds.DatabaseProxyOptions{
		DbProxyName:       jsii.String("erp-" + cfg.Env),
		Secrets:           &[]awssecretsmanager.ISecret{admin, app},
		Vpc:               p.Vpc,
		VpcSubnets:        isolated,
		SecurityGroups:    &[]awsec2.ISecurityGroup{p.ProxySG},
		RequireTLS:        jsii.Bool(true),
		IamAuth:           jsii.Bool(false), // Secrets Manager credentials
		IdleClientTimeout: awscdk.Duration_Minutes(jsii.Number(30)),
		BorrowTimeout:     awscdk.Duration_Seconds(jsii.Number(30)),
		DebugLogging:      jsii.Bool(false),
	})

	hacienda := p.secret(cfg, "HaciendaSecret", "hacienda", "Hacienda credentials and certificate (placeholder: fill with put-secret-value)",
		&awssecretsmanager.SecretStringGenerator{
			SecretStringTemplate: jsii.String(`{"usuario":"","clave":"","certificado_p12_base64":""}`),
			GenerateStringKey:    jsii.String("pin"),
			PasswordLength:       jsii.Number(4),
			ExcludePunctuation:   jsii.Bool(true),
		})
	appKey := p.secret(cfg, "AppKeySecret", "app-key",
		"AES-256 key (base64 of 32 bytes) encrypting secrets at rest; never rotate (data is encrypted with it)",
		&awssecretsmanager.SecretStringGenerator{
			// Replaced by a real key on creation (custom resource below).
			PasswordLength:     jsii.Number(16),
			ExcludePunctuation: jsii.Bool(true),
		})

	p.secretFixes(cfg, app, appKey)
	output(stack, "ProxyEndpoint", p.Proxy.Endpoint())
	output(stack, "ClusterEndpoint", p.Cluster.ClusterEndpoint().Hostname())
	return appSecrets{app: app, admin: admin, hacienda: hacienda, appKey: appKey}
}

// secret declares one of the platform's own secrets, erp/<env>/<name>:
// encrypted with the platform key, retained outside dev, its first value
// generated by Secrets Manager as gen says.
func (p *Platform) secret(cfg Config, id, name, description string, gen *awssecretsmanager.SecretStringGenerator) awssecretsmanager.Secret {
	return awssecretsmanager.NewSecret(p.Stack, jsii.String(id), &awssecretsmanager.SecretProps{
		SecretName:           jsii.String("erp/" + cfg.Env + "/" + name),
		Description:          jsii.String("ERP " + cfg.Env + ": " + description),
		EncryptionKey:        p.Key,
		RemovalPolicy:        removal(cfg, awscdk.RemovalPolicy_RETAIN),
		GenerateSecretString: gen,
	})
}

// secretFixes declares the inline function and its two custom resources.
// The function runs outside the VPC (it calls only Secrets Manager).
func (p *Platform) secretFixes(cfg Config, app, appKey awssecretsmanager.Secret) {
	stack := p.Stack
	logs := awslogs.NewLogGroup(stack, jsii.String("SecretsFixLogs"), &awslogs.LogGroupProps{
		Retention:     logRetention(cfg.LogDays),
		RemovalPolicy: awscdk.RemovalPolicy_DESTROY,
	})
	fn := awslambda.NewFunction(stack, jsii.String("SecretsFix"), &awslambda.FunctionProps{
		Description:  jsii.String("ERP " + cfg.Env + ": sets the app DB secret's host to RDS Proxy; generates the app key"),
		Runtime:      awslambda.Runtime_NODEJS_22_X(),
		Architecture: awslambda.Architecture_ARM_64(),
		Handler:      jsii.String("index.handler"),
		Code:         awslambda.Code_FromInline(jsii.String(secretsFix)),
		Timeout:      awscdk.Duration_Seconds(jsii.Number(60)),
		LogGroup:     logs,
	})
	app.GrantRead(fn, nil)
	app.GrantWrite(fn)
	appKey.GrantRead(fn, nil)
	appKey.GrantWrite(fn)

	// fix runs the function on a secret at creation: what Accion says.
	fix := func(id, tipo string, props map[string]interface{}) {
		awscdk.NewCustomResource(stack, jsii.String(id), &awscdk.CustomResourceProps{
			ServiceToken: fn.FunctionArn(), ResourceType: jsii.String(tipo), Properties: &props,
		})
	}
	fix("AppDbSecretHost", "Custom::SecretHost", map[string]interface{}{"Accion": "host", "SecretId": app.SecretArn(), "Host": p.Proxy.Endpoint()})
	fix("AppKeyValue", "Custom::AppKey", map[string]interface{}{"Accion": "clave", "SecretId": appKey.SecretArn()})
}

func logRetention(days int) awslogs.RetentionDays {
	switch {
	case days <= 14:
		return awslogs.RetentionDays_TWO_WEEKS
	case days <= 30:
		return awslogs.RetentionDays_ONE_MONTH
	default:
		return awslogs.RetentionDays_THREE_MONTHS
	}
}

func itoa(i int) string {
	const digits = "0123456789"
	if i < 10 {
		return digits[i : i+1]
	}
	return itoa(i/10) + digits[i%10:i%10+1]
}
