// Command infra is the CDK application of the ERP platform: for the
// environment given with -c env=dev|staging|prod it synthesizes
// erp-<env>-platform (VPC, Aurora PostgreSQL Serverless v2, RDS Proxy,
// secrets, KMS) and erp-<env>-observability (alarms, SNS, dashboard).
//
//	npx cdk synth -c env=dev        (make synth: every environment)
//	npx cdk deploy -c env=dev erp-dev-platform
package main

import (
	"fmt"
	"os"

	"github.com/aws/aws-cdk-go/awscdk/v2"
	"github.com/aws/jsii-runtime-go"
)

func main() {
	defer jsii.Close()
	app := awscdk.NewApp(nil)
	if err := build(app); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	app.Synth(nil)
}

// build adds the stacks of the environment named by the context.
func build(app awscdk.App) error {
	env := contextString(app, "env")
	if env == "" {
		return fmt.Errorf("infra: the environment is required: -c env=%v", envNames())
	}
	cfg, err := configFor(env)
	if err != nil {
		return err
	}
	NewPlatformStack(app, cfg)
	NewObservabilityStack(app, cfg, contextString(app, "alarmEmail"))
	return nil
}

func contextString(app awscdk.App, key string) string {
	v := app.Node().TryGetContext(jsii.String(key))
	if s, ok := v.(string); ok {
		return s
	}
	return ""
}
