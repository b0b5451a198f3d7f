package main

// The SSM parameters the stacks publish for the SAM application
// (template.yaml reads them as parameters with SSM defaults), and the names
// of the SAM resources the alarms watch. Both sides follow these names; the
// tests pin them.

// Parameter suffixes under /erp/<env>/.
const (
	ParamPrivateSubnets         = "network/private-subnet-ids" // StringList
	ParamLambdaSG               = "network/lambda-security-group-id"
	ParamProxyEndpoint          = "db/proxy-endpoint"
	ParamAppSecret              = "db/app-secret-arn"   // role erp_app, host = the proxy endpoint
	ParamAdminSecret            = "db/admin-secret-arn" // master user, for the migrate function only
	ParamHaciendaSecret         = "secrets/hacienda-secret-arn"
	ParamAppKeySecret           = "secrets/app-key-secret-arn"
	ParamKMSKey                 = "kms/key-arn"
	ParamAlarmTopic             = "alarms/topic-arn" // ObservabilityStack
	ParamAPIID                  = "api/id"           // written by the SAM template, read here
	appRoleName                 = "erp_app"
	adminUserName               = "erp_admin"
	databaseName                = "erp"
	databasePort        float64 = 5432
)

// param returns the full name of a parameter of env.
func param(env, suffix string) string { return "/erp/" + env + "/" + suffix }

// functionName is the SAM function of a group: erp-<env>-<group>.
func functionName(env, group string) string { return "erp-" + env + "-" + group }

// dlqNames are the SAM dead-letter queues: erp-<env>-<name>-dlq.
var dlqNames = []string{"webhooks", "hacienda"}

func dlqName(env, name string) string { return "erp-" + env + "-" + name + "-dlq" }

// stackName names the CloudFormation stacks: erp-<env>-platform and
// erp-<env>-observability (the SAM stack is erp-<env>).
func stackName(env, part string) string { return "erp-" + env + "-" + part }
