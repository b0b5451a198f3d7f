package main

import (
	"github.com/aws/aws-cdk-go/awscdk/v2"
	"github.com/aws/aws-cdk-go/awscdk/v2/awscloudwatch"
	"github.com/aws/aws-cdk-go/awscdk/v2/awscloudwatchactions"
	"github.com/aws/aws-cdk-go/awscdk/v2/awssns"
	"github.com/aws/aws-cdk-go/awscdk/v2/awssnssubscriptions"
	"github.com/aws/aws-cdk-go/awscdk/v2/awsssm"
	"github.com/aws/constructs-go/constructs/v10"
	"github.com/aws/jsii-runtime-go"

	"github.com/erpcr/erp/shared/routes"
)

// The application's EMF metric of comprobantes stuck in "sent": the
// hacienda-worker's status poll emits it (dimension Funcion = the function
// name) for a comprobante still undecided 15 minutes after it was sent.
// (shared/metricas.Namespace, shared/facturacion.MetricaAtascados: not
// imported, they would bring the database driver into this module; a test
// reads them from the source.)
const (
	metricNamespace = "ERP"
	metricStuck     = "ComprobantesEnviadosAtascados"
)

// Observability is what ObservabilityStack builds.
type Observability struct {
	Stack     awscdk.Stack
	Topic     awssns.ITopic
	Alarms    []awscloudwatch.Alarm
	Dashboard awscloudwatch.Dashboard
}

// NewObservabilityStack declares the alarms of one environment (they notify
// the platform's SNS topic) and a dashboard with the same signals. It finds the
// SAM application's resources by name (erp-<env>-<function>, the DLQs) and
// the HTTP API by the id the SAM template writes to /erp/<env>/api/id, so
// it deploys after the SAM stack. alarmEmail, when set, subscribes an
// address to the topic.
func NewObservabilityStack(scope constructs.Construct, cfg Config, alarmEmail string) *Observability {
	stack := awscdk.NewStack(scope, jsii.String(stackName(cfg.Env, "observability")), &awscdk.StackProps{
		StackName:   jsii.String(stackName(cfg.Env, "observability")),
		Description: jsii.String("ERP " + cfg.Env + ": alarms and dashboard (infra/, CDK)"),
		Env:         &awscdk.Environment{Region: jsii.String(cfg.Region)},
	})
	awscdk.Tags_Of(stack).Add(jsii.String("proyecto"), jsii.String("erp"), nil)
	awscdk.Tags_Of(stack).Add(jsii.String("entorno"), jsii.String(cfg.Env), nil)
	o := &Observability{Stack: stack}

	// The topic is PlatformStack's (the SAM stack reads its ARN when it
	// deploys, before this stack can: this one needs the API id SAM writes).
	topicArn := awsssm.StringParameter_ValueForStringParameter(stack, jsii.String(param(cfg.Env, ParamAlarmTopic)), nil)
	o.Topic = awssns.Topic_FromTopicArn(stack, jsii.String("Alarms"), topicArn)
	if alarmEmail != "" {
		o.Topic.AddSubscription(awssnssubscriptions.NewEmailSubscription(jsii.String(alarmEmail), nil))
	}

	apiID := awsssm.StringParameter_ValueForStringParameter(stack, jsii.String(param(cfg.Env, ParamAPIID)), nil)
	o.alarms(cfg, apiID)
	return o
}

func period() awscdk.Duration { return awscdk.Duration_Minutes(jsii.Number(5)) }

func metric(namespace, name, stat string, dims map[string]string) awscloudwatch.Metric {
	m := map[string]*string{}
	for k, v := range dims {
		m[k] = jsii.String(v)
	}
	return awscloudwatch.NewMetric(&awscloudwatch.MetricProps{
		Namespace: jsii.String(namespace), MetricName: jsii.String(name), Statistic: jsii.String(stat),
		DimensionsMap: &m, Period: period(),
	})
}

func apiMetric(apiID *string, name, stat string) awscloudwatch.Metric {
	return awscloudwatch.NewMetric(&awscloudwatch.MetricProps{
		Namespace: jsii.String("AWS/ApiGateway"), MetricName: jsii.String(name), Statistic: jsii.String(stat),
		DimensionsMap: &map[string]*string{"ApiId": apiID}, Period: period(),
	})
}

// alarm declares one alarm that notifies the topic (on alarm and on OK).
func (o *Observability) alarm(id, name, desc string, m awscloudwatch.IMetric, threshold float64, periods float64, missing awscloudwatch.TreatMissingData) awscloudwatch.Alarm {
	a := awscloudwatch.NewAlarm(o.Stack, jsii.String(id), &awscloudwatch.AlarmProps{
		Metric:             m,
		AlarmName:          jsii.String(name),
		AlarmDescription:   jsii.String(desc),
		Threshold:          jsii.Number(threshold),
		EvaluationPeriods:  jsii.Number(periods),
		DatapointsToAlarm:  jsii.Number(periods),
		ComparisonOperator: awscloudwatch.ComparisonOperator_GREATER_THAN_OR_EQUAL_TO_THRESHOLD,
		TreatMissingData:   missing,
	})
	action := awscloudwatchactions.NewSnsAction(o.Topic)
	a.AddAlarmAction(action)
	a.AddOkAction(action)
	o.Alarms = append(o.Alarms, a)
	return a
}

func (o *Observability) alarms(cfg Config, apiID *string) {
	env := cfg.Env
	prefix := "erp-" + env + "-"
	notBreaching := awscloudwatch.TreatMissingData_NOT_BREACHING

	// API: 5xx share of requests, and p99 latency of the whole API.
	api5xx := awscloudwatch.NewMathExpression(&awscloudwatch.MathExpressionProps{
		Expression: jsii.String("IF(solicitudes > 0, 100 * errores / solicitudes, 0)"),
		UsingMetrics: &map[string]awscloudwatch.IMetric{
			"errores":     apiMetric(apiID, "5xx", "Sum"),
			"solicitudes": apiMetric(apiID, "Count", "Sum"),
		},
		Label:  jsii.String("5xx %"),
		Period: period(),
	})
	o.alarm("Api5xxRate", prefix+"api-5xx", "Share of API responses that are 5xx (percent, 5 min)", api5xx, cfg.Api5xxPercent, 1, notBreaching)
	apiP99 := apiMetric(apiID, "Latency", "p99")
	o.alarm("ApiLatencyP99", prefix+"api-latencia-p99", "API p99 latency (ms, 3 x 5 min)", apiP99, cfg.LatencyP99Ms, 3, notBreaching)

	// Per function: errors and throttles; per HTTP route group: p99
	// duration of its function.
	var errs, throttles, p99s []awscloudwatch.IMetric
	for _, f := range routes.Functions() {
		fn := functionName(env, f.Name)
		dims := map[string]string{"FunctionName": fn}
		id := pascal(f.Name)
		e := metric("AWS/Lambda", "Errors", "Sum", dims)
		t := metric("AWS/Lambda", "Throttles", "Sum", dims)
		o.alarm("Errors"+id, fn+"-errores", "Invocation errors of "+fn+" (5 min)", e, 1, 1, notBreaching)
		o.alarm("Throttles"+id, fn+"-throttles", "Throttled invocations of "+fn+" (5 min)", t, 1, 1, notBreaching)
		errs = append(errs, labeled(e, f.Name))
		throttles = append(throttles, labeled(t, f.Name))
		if f.Kind == routes.KindHTTP {
			d := metric("AWS/Lambda", "Duration", "p99", dims)
			o.alarm("LatencyP99"+id, fn+"-latencia-p99", "p99 duration of route group "+f.Name+" (ms, 3 x 5 min)", d, cfg.LatencyP99Ms, 3, notBreaching)
			p99s = append(p99s, labeled(d, f.Name))
		}
	}

	// Dead-letter queues: any message there is work that failed for good.
	var dlqs []awscloudwatch.IMetric
	for _, q := range dlqNames {
		name := dlqName(env, q)
		m := metric("AWS/SQS", "ApproximateNumberOfMessagesVisible", "Maximum", map[string]string{"QueueName": name})
		o.alarm("Dlq"+pascal(q), name+"-mensajes", "Messages in the dead-letter queue "+name, m, 1, 1, notBreaching)
		dlqs = append(dlqs, labeled(m, q))
	}

	// Hacienda: comprobantes still "sent" 15 minutes after sending.
	stuck := metric(metricNamespace, metricStuck, "Maximum", map[string]string{"Funcion": functionName(env, "hacienda-worker")})
	o.alarm("ComprobantesAtascados", prefix+"hacienda-atascados", "Comprobantes in 'sent' for more than 15 minutes (EMF "+metricNamespace+"/"+metricStuck+")", stuck, cfg.StuckComprobantes, 1, notBreaching)

	// Aurora.
	cluster := map[string]string{"DBClusterIdentifier": "erp-" + env}
	cpu := metric("AWS/RDS", "CPUUtilization", "Maximum", cluster)
	acu := metric("AWS/RDS", "ACUUtilization", "Maximum", cluster)
	conns := metric("AWS/RDS", "DatabaseConnections", "Maximum", cluster)
	capacity := metric("AWS/RDS", "ServerlessDatabaseCapacity", "Maximum", cluster)
	o.alarm("DbCpu", prefix+"db-cpu", "Aurora CPU (percent, 3 x 5 min)", cpu, cfg.DBCPUPercent, 3, awscloudwatch.TreatMissingData_MISSING)
	o.alarm("DbAcu", prefix+"db-acu", "Aurora ACU utilization against the maximum (percent, 3 x 5 min)", acu, cfg.DBACUPercent, 3, awscloudwatch.TreatMissingData_MISSING)
	o.alarm("DbConnections", prefix+"db-conexiones", "Aurora connections (3 x 5 min)", conns, cfg.DBConnections, 3, awscloudwatch.TreatMissingData_MISSING)

	// The dashboard shows the same signals, and the alarms' states.
	alarms := make([]awscloudwatch.IAlarm, len(o.Alarms))
	for i, a := range o.Alarms {
		alarms[i] = a
	}
	graph := func(title string, ms ...awscloudwatch.IMetric) awscloudwatch.IWidget {
		return awscloudwatch.NewGraphWidget(&awscloudwatch.GraphWidgetProps{
			Title: jsii.String(title), Left: &ms, Width: jsii.Number(12), Height: jsii.Number(6),
		})
	}
	o.Dashboard = awscloudwatch.NewDashboard(o.Stack, jsii.String("Dashboard"), &awscloudwatch.DashboardProps{
		DashboardName: jsii.String("erp-" + env),
		Widgets: &[]*[]awscloudwatch.IWidget{
			{awscloudwatch.NewAlarmStatusWidget(&awscloudwatch.AlarmStatusWidgetProps{
				Title: jsii.String("Alarmas"), Alarms: &alarms, Width: jsii.Number(24), Height: jsii.Number(6),
			})},
			{graph("API: solicitudes y 5xx", apiMetric(apiID, "Count", "Sum"), apiMetric(apiID, "5xx", "Sum")), graph("API: 5xx % y latencia p99", api5xx, apiP99)},
			{graph("Latencia p99 por grupo (ms)", p99s...), graph("Colas de mensajes fallidos", dlqs...)},
			{graph("Errores por función", errs...), graph("Throttles por función", throttles...)},
			{graph("Hacienda: comprobantes enviados > 15 min", stuck), graph("Aurora: CPU % y ACU %", cpu, acu)},
			{graph("Aurora: conexiones", conns), graph("Aurora: capacidad (ACU)", capacity)},
		},
	})
}

func labeled(m awscloudwatch.Metric, label string) awscloudwatch.IMetric {
	return m.With(&awscloudwatch.MetricOptions{Label: jsii.String(label)})
}

// pascal turns "hacienda-worker" into "HaciendaWorker" (logical ids).
func pascal(s string) string {
	out := make([]byte, 0, len(s))
	up := true
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c == '-' || c == '_' {
			up = true
			continue
		}
		if up && c >= 'a' && c <= 'z' {
			c -= 'a' - 'A'
		}
		up = false
		out = append(out, c)
	}
	return string(out)
}
