package main

import (
	"github.com/aws/aws-cdk-go/awscdk/v2"
	"github.com/aws/aws-cdk-go/awscdk/v2/awsec2"
	"github.com/aws/jsii-runtime-go"
)

// Subnet group names.
const (
	subnetPublic   = "publica" // NAT gateways only
	subnetPrivate  = "privada" // Lambdas, VPC endpoints (egress through NAT)
	subnetIsolated = "aislada" // Aurora and RDS Proxy (no route out)
	anyIPv4        = "0.0.0.0/0"
	httpsPort      = 443
)

// network builds the VPC, the security groups and the interface endpoints.
//
// Security groups: Lambda SG -> Proxy SG -> DB SG. The Lambda SG may open
// connections to the proxy (5432) and to HTTPS anywhere (Hacienda, webhook
// targets, AWS APIs: through the NAT, or the endpoints below) and nothing
// else; the proxy SG admits only the Lambda SG and reaches only the DB SG
// (and Secrets Manager's endpoint); the DB SG admits only the proxy and the
// master secret's rotation function. No SG admits 0.0.0.0/0.
func (p *Platform) network(cfg Config) {
	// The first AZs of the region, resolved at deploy time (Fn::GetAZs):
	// the template does not depend on the account that synthesizes it.
	azs := make([]*string, cfg.AZs)
	for i := range azs {
		azs[i] = awscdk.Fn_Select(jsii.Number(float64(i)), awscdk.Fn_GetAzs(jsii.String("")))
	}
	p.Vpc = awsec2.NewVpc(p.Stack, jsii.String("Vpc"), &awsec2.VpcProps{
		VpcName:                      jsii.String("erp-" + cfg.Env),
		IpAddresses:                  awsec2.IpAddresses_Cidr(jsii.String("10.40.0.0/16")),
		AvailabilityZones:            &azs,
		NatGateways:                  jsii.Number(float64(cfg.NatGateways)),
		RestrictDefaultSecurityGroup: jsii.Bool(false),
		SubnetConfiguration: &[]*awsec2.SubnetConfiguration{
			{Name: jsii.String(subnetPublic), SubnetType: awsec2.SubnetType_PUBLIC, CidrMask: jsii.Number(24), MapPublicIpOnLaunch: jsii.Bool(false)},
			{Name: jsii.String(subnetPrivate), SubnetType: awsec2.SubnetType_PRIVATE_WITH_EGRESS, CidrMask: jsii.Number(20)},
			{Name: jsii.String(subnetIsolated), SubnetType: awsec2.SubnetType_PRIVATE_ISOLATED, CidrMask: jsii.Number(24)},
		},
	})

	sg := func(id, name, desc string) awsec2.SecurityGroup {
		return awsec2.NewSecurityGroup(p.Stack, jsii.String(id), &awsec2.SecurityGroupProps{
			Vpc:               p.Vpc,
			SecurityGroupName: jsii.String("erp-" + cfg.Env + "-" + name),
			Description:       jsii.String(desc),
			AllowAllOutbound:  jsii.Bool(false),
		})
	}
	p.LambdaSG = sg("LambdaSG", "lambda", "ERP Lambdas: out to RDS Proxy 5432 and HTTPS only")
	p.ProxySG = sg("ProxySG", "proxy", "RDS Proxy: in from the Lambdas, out to Aurora")
	p.DBSG = sg("DatabaseSG", "db", "Aurora: in from RDS Proxy (and the rotation function) only")
	endpointsSG := sg("EndpointsSG", "endpoints", "Interface VPC endpoints: HTTPS in from the functions of the VPC")

	pg := awsec2.Port_Tcp(jsii.Number(databasePort))
	https := awsec2.Port_Tcp(jsii.Number(httpsPort))
	p.LambdaSG.AddEgressRule(p.ProxySG, pg, jsii.String("PostgreSQL through RDS Proxy"), nil)
	p.LambdaSG.AddEgressRule(awsec2.Peer_Ipv4(jsii.String(anyIPv4)), https, jsii.String("HTTPS: Hacienda, webhook targets, AWS APIs"), nil)
	p.ProxySG.AddIngressRule(p.LambdaSG, pg, jsii.String("From the ERP Lambdas"), nil)
	p.ProxySG.AddEgressRule(endpointsSG, https, jsii.String("Secrets Manager endpoint"), nil)
	// Proxy SG -> DB SG (both directions) is added by the cluster's
	// AddProxy, on the cluster's port: declaring it here too would make
	// duplicate rules that EC2 refuses.
	endpointsSG.AddIngressRule(p.LambdaSG, https, jsii.String("From the ERP Lambdas"), nil)
	endpointsSG.AddIngressRule(p.ProxySG, https, jsii.String("From RDS Proxy"), nil)

	// Interface endpoints keep the functions' AWS traffic off the NAT:
	// SQS (queue wake-ups), Secrets Manager (credentials, keys) and
	// CloudWatch Logs (logs and the EMF metric lines, which reach
	// CloudWatch through Logs). No monitoring endpoint: the code never calls
	// PutMetricData.
	for _, e := range []struct {
		id  string
		svc awsec2.InterfaceVpcEndpointAwsService
	}{
		{"SqsEndpoint", awsec2.InterfaceVpcEndpointAwsService_SQS()},
		{"SecretsManagerEndpoint", awsec2.InterfaceVpcEndpointAwsService_SECRETS_MANAGER()},
		{"LogsEndpoint", awsec2.InterfaceVpcEndpointAwsService_CLOUDWATCH_LOGS()},
	} {
		ep := p.Vpc.AddInterfaceEndpoint(jsii.String(e.id), &awsec2.InterfaceVpcEndpointOptions{
			Service:           e.svc,
			Subnets:           &awsec2.SubnetSelection{SubnetType: awsec2.SubnetType_PRIVATE_WITH_EGRESS},
			SecurityGroups:    &[]awsec2.ISecurityGroup{endpointsSG},
			Open:              jsii.Bool(false),
			PrivateDnsEnabled: jsii.Bool(true),
		})
		if e.id == "SecretsManagerEndpoint" {
			p.secretsEndpoint = ep
		}
	}
	p.endpointsSG = endpointsSG
}
