// Package deploy renders deployment artifacts from the route table. Its main
// product is the SAM template (template.yaml): one Lambda per function group,
// one HTTP API event per route, the Lambda REQUEST authorizer, throttling and
// concurrency parameters. template.yaml is generated, never edited by hand, so
// that a route added to shared/routes reaches API Gateway without anyone
// remembering to touch YAML (a test fails when the committed file drifts).
package deploy

import (
	"bytes"
	"regexp"
	"slices"
	"sort"
	"strconv"
	"strings"

	"github.com/erpcr/erp/shared/config"
	"github.com/erpcr/erp/shared/routes"
)

// Logical ids and names shared by the generator and its tests.
const (
	// apiLogicalID is the AWS::Serverless::HttpApi resource.
	apiLogicalID = "HttpApi"
	// authorizerName is the default authorizer: no identity source and no
	// result cache, so API Gateway always calls our function (which words
	// every 401/403 itself) and a logout takes effect at once.
	authorizerName = "LambdaAuthorizer"
	// cachedAuthorizerName is the same function with a result cache keyed by
	// the Authorization and X-Empresa-Id headers. Routes switch to it only
	// when the AuthorizerResultTtl parameter is above 0 (see authorization).
	cachedAuthorizerName = "CachedLambdaAuthorizer"
	// cachingCondition is true when AuthorizerResultTtl is above 0.
	cachingCondition = "AuthorizerCachingEnabled"
)

// Timeouts in seconds. HTTP API gives up on an integration after 30 s, so
// HTTP functions stop just before and the client gets our error, not a bare
// 503. Migrations run at deploy time and may take minutes.
const (
	httpTimeout       = 29
	authorizerTimeout = 10
	taskTimeout       = 300
	// queueTimeout covers a batch of messages handled one after the other,
	// each at most one call to the tax authority (its HTTP client gives up
	// after 20 s); scheduleTimeout a sweep that only wakes rows.
	queueTimeout    = 300
	scheduleTimeout = 60
	// visibilityFactor: AWS recommends a visibility timeout of at least six
	// times the consumer's timeout, so a message is not delivered again
	// while a batch that holds it may still be running.
	visibilityFactor = 6
	// Retention of messages: 4 days in a queue (messages are wake-ups; the
	// sweep finds the work anyway), 14 days in a dead-letter queue.
	queueRetention = 345600
	dlqRetention   = 1209600
)

// secretsKeyFunctions decrypt the companies' secrets (Hacienda certificate,
// PIN and credentials; webhook signing secrets), so they read the AES key
// from Secrets Manager.
var secretsKeyFunctions = map[string]bool{"hacienda": true, "hacienda-worker": true, "webhooks": true, "webhook-worker": true}

// haciendaSecretFunctions talk to the tax authority and may read the
// platform's Hacienda secret.
var haciendaSecretFunctions = map[string]bool{"hacienda": true, "hacienda-worker": true}

// liveAlias is the alias SAM publishes for the functions that may keep
// provisioned concurrency (routes.Tuning.Provisioned).
const liveAlias = "live"

// FunctionName is a function's physical name, erp-<env>-<name>: the
// observability stack (infra/) finds the functions by it.
func FunctionName(name string) string { return `!Sub "erp-${Environment}-` + name + `"` }

// queueNames are the physical names of the queues (erp-<env>-<name>, the
// dead-letter queue with -dlq), the names infra/'s DLQ alarms watch.
var queueNames = map[string]string{"hacienda": "hacienda", "webhook": "webhooks"}

// queueName is the physical name of a queue, or of its dead-letter queue.
func queueName(q routes.Queue, dlq bool) string {
	n, ok := queueNames[q.Name]
	if !ok {
		n = q.Name
	}
	if dlq {
		n += "-dlq"
	}
	return `!Sub "erp-${Environment}-` + n + `"`
}

// sendsToQueue reports whether a function sends to any queue (producer or
// consumer, which re-queues).
func sendsToQueue(fn string) bool {
	for _, q := range routes.Queues() {
		if q.Consumer == fn || slices.Contains(q.Producers, fn) {
			return true
		}
	}
	return false
}

// statementPolicy is an inline IAM statement allowing actions on resource.
func statementPolicy(actions sequence, resource string) *mapping {
	st := &mapping{}
	st.set("Effect", "Allow")
	st.set("Action", actions)
	st.set("Resource", resource)
	pol := &mapping{}
	pol.set("Statement", sequence{st})
	return pol
}

// QueueLogicalID returns the logical id of a queue ("hacienda" ->
// "HaciendaQueue"); DeadLetterQueueLogicalID its dead-letter queue.
func QueueLogicalID(name string) string { return pascal(name) + "Queue" }

// DeadLetterQueueLogicalID returns the logical id of a queue's dead-letter queue.
func DeadLetterQueueLogicalID(name string) string { return pascal(name) + "DeadLetterQueue" }

// QueueURLEnv is the environment variable that carries a queue's URL to its
// producers and consumer ("hacienda" -> ERP_HACIENDA_QUEUE_URL).
func QueueURLEnv(name string) string {
	return "ERP_" + strings.ToUpper(notAlnum.ReplaceAllString(name, "_")) + "_QUEUE_URL"
}

// identityHeaders form the authorizer cache key when caching is on: the
// token and the tenant together decide the principal.
var identityHeaders = []string{"Authorization", "X-Empresa-Id"}

// Template returns the complete SAM template. The output depends only on the
// route table, so two runs give the same bytes (functions, events, paths and
// parameters are sorted).
func Template() []byte {
	fns := routes.Functions()
	all := apiRoutes("")

	root := &mapping{spaced: true}
	root.set("AWSTemplateFormatVersion", quoted("2010-09-09"))
	root.set("Transform", "AWS::Serverless-2016-10-31")
	root.set("Description", quoted("ERP API (multi-tenant): one Lambda per function group behind an API Gateway HTTP API "+
		"with a Lambda REQUEST authorizer. Generated from shared/routes by cmd/gentemplate."))
	root.set("Parameters", parameters(fns, all))
	root.set("Mappings", mappings())
	root.set("Conditions", conditions(fns))
	root.set("Globals", globals())
	resources := &mapping{spaced: true}
	resources.set(apiLogicalID, httpAPI(all, authorizerArn(fns)))
	resources.set(apiIDParameterLogicalID, apiIDParameter())
	for _, q := range routes.Queues() {
		resources.set(DeadLetterQueueLogicalID(q.Name), deadLetterQueue(q))
		resources.set(QueueLogicalID(q.Name), sqsQueue(q))
	}
	for _, f := range fns {
		resources.set(FunctionLogicalID(f.Name), function(f))
		if f.Kind == routes.KindSchedule {
			resources.set(pascal(f.Name)+"EventInvokeConfig", failuresToAlarms(f))
		}
	}
	reportesResources(resources)
	root.set("Resources", resources)
	root.set("Outputs", outputs(fns))

	var b bytes.Buffer
	b.WriteString("# Code generated by cmd/gentemplate from the route table (shared/routes). DO NOT EDIT.\n")
	b.WriteString("# Change shared/routes or shared/deploy/template.go, then run `make template`.\n")
	root.write(&b, 0)
	return b.Bytes()
}

// FunctionLogicalID returns the logical id of a function: PascalCase of its
// name plus "Function" ("hacienda-worker" -> "HaciendaWorkerFunction").
func FunctionLogicalID(name string) string { return pascal(name) + "Function" }

// eventName returns the logical name of a route's HttpApi event inside its
// function ("usuarios.index" -> "UsuariosIndex").
func eventName(r routes.Route) string { return pascal(r.Name) }

func parameters(fns []routes.Function, all []routes.Route) *mapping {
	p := &mapping{}
	p.set("Environment", param("String", "Deployment environment; selects ERP_ENV (dev -> development, staging -> staging, prod -> production).",
		"Default", "dev", "AllowedValues", flow("dev", "staging", "prod")))
	p.set("AuthorizerResultTtl", param("Number", "Seconds API Gateway caches the authorizer's answer. 0 (default): no cache and "+
		"routes use the authorizer without identity sources, so logout is immediate and every 401 is the API's own; above 0: "+
		"routes use the authorizer cached by the Authorization and X-Empresa-Id headers, and API Gateway itself answers 401 "+
		"to requests missing either.",
		"Default", "0", "MinValue", "0", "MaxValue", "3600"))
	p.set("ThrottlingBurstLimit", param("Number", "Stage-wide API Gateway burst limit (requests).",
		"Default", "200", "MinValue", "0"))
	p.set("ThrottlingRateLimit", param("Number", "Stage-wide API Gateway steady-state limit (requests per second).",
		"Default", "100", "MinValue", "0"))
	if len(loginRoutes(all)) > 0 {
		p.set("LoginThrottlingBurstLimit", param("Number", "API Gateway burst limit of each route of rate class login; "+
			"the application's per e-mail and address limiter still applies.",
			"Default", "20", "MinValue", "0"))
		p.set("LoginThrottlingRateLimit", param("Number", "API Gateway steady-state limit of each route of rate class login (requests per second).",
			"Default", "10", "MinValue", "0"))
	}
	p.set("FunctionMemorySize", param("Number", "Memory (MB) of every function without its own override.",
		"Default", "256", "MinValue", "128", "MaxValue", "10240"))
	reportesParameters(p)
	for _, pp := range platformParams {
		p.set(pp.Name, param(pp.Type, pp.Description+" SSM parameter published by infra/ (PlatformStack); "+
			"the default is dev's, samconfig.toml names staging's and prod's.",
			"Default", pp.path("dev")))
	}
	p.set(corsOriginsParam, param("CommaDelimitedList", "Browser origins allowed to call the API (CORS), e.g. "+
		"https://app.example.cr,https://admin.example.cr; * allows any. API Gateway answers preflight requests itself and adds "+
		"the CORS headers to the functions' answers for these origins."))
	p.set("TenantBaseDomain", param("String", "Base domain whose subdomains select the company (demo.<base>); empty disables it.",
		"Default", quoted("")))
	p.set("TokenTtl", param("String", "Lifetime of personal access tokens, as a Go duration.",
		"Default", "24h", "AllowedPattern", quoted(`^([0-9]+(\.[0-9]+)?(ns|us|ms|s|m|h))+$`)))
	p.set("DbExecMode", param("String", "pgx default_query_exec_mode; exec works behind RDS Proxy (no prepared statements kept).",
		"Default", "exec", "AllowedValues", flow("exec", "simple_protocol", "describe_exec", "cache_describe", "cache_statement")))
	p.set("DbMaxConns", param("Number", "Connections per Lambda instance (one request at a time each).",
		"Default", "2", "MinValue", "1", "MaxValue", "4"))
	p.set("LogLevel", param("String", "Application log level.",
		"Default", "info", "AllowedValues", flow("debug", "info", "warn", "error")))
	for _, class := range limitClasses() {
		p.set(rateLimitParam(class), param("String", "Rate limit of class "+class+" (ERP_RATE_LIMIT_"+strings.ToUpper(class)+
			"), as <n>/<unit> with unit s, min, h or day; 0/min turns it off. Shared by every instance (PostgreSQL).",
			"Default", config.LimitesPorDefecto[class], "AllowedPattern", quoted(`^[0-9]+/(s|sec|second|min|m|minute|h|hour|day|d)$`)))
	}
	for _, f := range fns {
		id := pascal(f.Name)
		p.set(reservedParam(f.Name), param("Number", "Reserved concurrency of the "+f.Name+" function (at most that many "+
			"instances, and that many kept for it out of the account's pool); 0: not reserved.",
			"Default", "0", "MinValue", "0"))
		p.set(id+"MemorySize", param("Number", "Memory (MB) of the "+f.Name+" function; 0: use FunctionMemorySize.",
			"Default", "0", "MinValue", "0", "MaxValue", "10240"))
		if routes.TuningOf(f.Name).Provisioned {
			p.set(provisionedParam(f.Name), param("Number", "Provisioned concurrency of the "+f.Name+" function's live alias "+
				"(instances kept initialised, billed while configured); 0: none.",
				"Default", "0", "MinValue", "0"))
		}
		if f.Kind == routes.KindHTTP {
			t := routes.TuningOf(f.Name)
			p.set(groupBurstParam(f.Name), param("Number", "API Gateway burst limit (requests) of each route of the "+f.Name+
				" group; 0: the stage-wide ThrottlingBurstLimit. Default from shared/routes/tuning.go.",
				"Default", strconv.Itoa(t.Burst), "MinValue", "0"))
			p.set(groupRateParam(f.Name), param("Number", "API Gateway steady-state limit (requests per second) of each route "+
				"of the "+f.Name+" group; 0: the stage-wide ThrottlingRateLimit. Default from shared/routes/tuning.go.",
				"Default", strconv.Itoa(t.Rate), "MinValue", "0"))
		}
	}
	return p
}

// platformParam is a value infra/ (the CDK PlatformStack) publishes in SSM
// Parameter Store under /erp/<env>/<Key>: the template reads it through a
// parameter of an SSM type, so `sam deploy` needs no hand-copied ARNs.
type platformParam struct {
	Name, Type, Key, Description string
}

// path is the SSM parameter name of the value in an environment.
func (p platformParam) path(env string) string { return "/erp/" + env + "/" + p.Key }

// platformParams is the contract with infra/: names, types and keys must
// match what PlatformStack writes.
var platformParams = []platformParam{
	{"SubnetIds", "AWS::SSM::Parameter::Value<List<AWS::EC2::Subnet::Id>>", "network/private-subnet-ids",
		"Private subnets of the functions (outbound through the NAT; SQS, Secrets Manager and Logs through VPC endpoints)."},
	{"LambdaSecurityGroupId", "AWS::SSM::Parameter::Value<AWS::EC2::SecurityGroup::Id>", "network/lambda-security-group-id",
		"Security group of the functions, the one RDS Proxy admits."},
	{"DatabaseProxyEndpoint", "AWS::SSM::Parameter::Value<String>", "db/proxy-endpoint",
		"RDS Proxy endpoint; replaces the host of the database secrets (ERP_DB_HOST)."},
	{"DatabaseSecretArn", "AWS::SSM::Parameter::Value<String>", "db/app-secret-arn",
		"Secrets Manager secret (RDS format) of the application role erp_app."},
	{"DatabaseAdminSecretArn", "AWS::SSM::Parameter::Value<String>", "db/admin-secret-arn",
		"Secrets Manager secret (RDS format) of the schema owner; read only by the migrate function."},
	{"HaciendaSecretArn", "AWS::SSM::Parameter::Value<String>", "secrets/hacienda-secret-arn",
		"Secrets Manager secret of the platform's Hacienda credentials (ERP_HACIENDA_SECRET_ARN of the hacienda functions)."},
	{"SecretsKeySecretArn", "AWS::SSM::Parameter::Value<String>", "secrets/app-key-secret-arn",
		"Secrets Manager secret holding the base64 AES-256 key that encrypts the companies' Hacienda secrets and webhook " +
			"signing secrets at rest; read by the functions that decrypt them."},
	{"KmsKeyArn", "AWS::SSM::Parameter::Value<String>", "kms/key-arn",
		"Customer KMS key of the platform: the secrets, the queues and the alarm topic are encrypted with it."},
	{"AlarmTopicArn", "AWS::SSM::Parameter::Value<String>", "alarms/topic-arn",
		"SNS topic of the alarms (PlatformStack, so it exists before this stack); failed scheduled runs are sent there too."},
}

// Parameter names of the operator knobs of one function or group.
func reservedParam(fn string) string    { return pascal(fn) + "ReservedConcurrency" }
func provisionedParam(fn string) string { return pascal(fn) + "ProvisionedConcurrency" }
func groupBurstParam(g string) string   { return pascal(g) + "ThrottlingBurstLimit" }
func groupRateParam(g string) string    { return pascal(g) + "ThrottlingRateLimit" }

// limitClasses are the configurable rate-limit classes, sorted.
func limitClasses() []string {
	out := make([]string, 0, len(config.LimitesPorDefecto))
	for c := range config.LimitesPorDefecto {
		out = append(out, c)
	}
	sort.Strings(out)
	return out
}

// rateLimitParam is the template parameter of a class (RateLimitGeneral).
func rateLimitParam(class string) string {
	return "RateLimit" + pascal(strings.ReplaceAll(class, "_", "-"))
}

// param builds a parameter; extra holds key/value pairs in output order.
func param(typ, description string, extra ...string) *mapping {
	m := &mapping{}
	m.set("Type", typ)
	m.set("Description", quoted(description))
	for i := 0; i+1 < len(extra); i += 2 {
		m.set(extra[i], extra[i+1])
	}
	return m
}

// typed is a mapping of a Type and its Properties: a resource, or an
// event of a function.
func typed(typ string, props *mapping) *mapping {
	m := &mapping{}
	m.set("Type", typ)
	m.set("Properties", props)
	return m
}

// output is an entry of Outputs: what it is and its value.
func output(description, value string) *mapping {
	m := &mapping{}
	m.set("Description", quoted(description))
	m.set("Value", value)
	return m
}

func mappings() *mapping {
	env := &mapping{}
	for _, e := range [][2]string{{"dev", "development"}, {"staging", "staging"}, {"prod", "production"}} {
		v := &mapping{}
		v.set("ErpEnv", scalar(e[1]))
		env.set(e[0], v)
	}
	m := &mapping{}
	m.set("EnvironmentMap", env)
	return m
}

func conditions(fns []routes.Function) *mapping {
	c := &mapping{}
	c.set(cachingCondition, `!Not [!Equals [!Ref AuthorizerResultTtl, "0"]]`)
	for _, f := range fns {
		id := pascal(f.Name)
		// 0 means "not reserved": Lambda reads a reserved concurrency of 0
		// as "never run", so the property is left out instead.
		c.set("Has"+reservedParam(f.Name), `!Not [!Equals [!Ref `+reservedParam(f.Name)+`, "0"]]`)
		c.set("Has"+id+"MemorySize", `!Not [!Equals [!Ref `+id+`MemorySize, "0"]]`)
		if routes.TuningOf(f.Name).Provisioned {
			c.set("Has"+provisionedParam(f.Name), `!Not [!Equals [!Ref `+provisionedParam(f.Name)+`, "0"]]`)
		}
		if f.Kind == routes.KindHTTP {
			for _, name := range []string{groupBurstParam(f.Name), groupRateParam(f.Name)} {
				c.set("Has"+name, `!Not [!Equals [!Ref `+name+`, "0"]]`)
			}
		}
	}
	return c
}

// globals holds the properties every function shares. Globals carries
// properties only; Metadata (BuildMethod) is a resource attribute, so
// function() repeats it on each function.
func globals() *mapping {
	vars := &mapping{}
	vars.set("ERP_ENV", "!FindInMap [EnvironmentMap, !Ref Environment, ErpEnv]")
	vars.set("ERP_DB_EXEC_MODE", "!Ref DbExecMode")
	vars.set("ERP_DB_MAX_CONNS", "!Ref DbMaxConns")
	vars.set("ERP_TOKEN_TTL", "!Ref TokenTtl")
	vars.set("ERP_TENANT_BASE_DOMAIN", "!Ref TenantBaseDomain")
	vars.set("ERP_LOG_LEVEL", "!Ref LogLevel")
	vars.set("ERP_DB_HOST", "!Ref DatabaseProxyEndpoint")
	for _, class := range limitClasses() {
		vars.set(config.LimiteEnv(class), "!Ref "+rateLimitParam(class))
	}
	env := &mapping{}
	env.set("Variables", vars)

	vpc := &mapping{}
	vpc.set("SubnetIds", "!Ref SubnetIds")
	vpc.set("SecurityGroupIds", sequence{"!Ref LambdaSecurityGroupId"})

	fn := &mapping{}
	fn.set("Runtime", "provided.al2023")
	fn.set("Architectures", sequence{"arm64"})
	fn.set("Handler", "bootstrap")
	fn.set("Timeout", strconv.Itoa(httpTimeout))
	fn.set("Environment", env)
	fn.set("VpcConfig", vpc)
	g := &mapping{}
	g.set("Function", fn)
	return g
}

func httpAPI(all []routes.Route, authorizerARN string) *mapping {
	props := &mapping{}
	props.set("Name", `!Sub "erp-${Environment}"`)
	props.set("Description", quoted("ERP API"))
	throttle := &mapping{}
	throttle.set("ThrottlingBurstLimit", "!Ref ThrottlingBurstLimit")
	throttle.set("ThrottlingRateLimit", "!Ref ThrottlingRateLimit")
	props.set("DefaultRouteSettings", throttle)
	props.set("RouteSettings", routeSettings(all))
	props.set("Auth", authorization(authorizerARN))
	props.set("DefinitionBody", definitionBody(all))
	return typed("AWS::Serverless::HttpApi", props)
}

// routeSettings throttles every API Gateway route with its group's
// parameters (defaults in shared/routes/tuning.go; 0 keeps the stage-wide
// value), and the routes of rate class login with the Login* parameters. Keys are the route keys
// of apiRoutes, the ones the functions' HttpApi events create.
func routeSettings(all []routes.Route) *mapping {
	rs := &mapping{}
	for _, r := range sortedRoutes(all) {
		s := &mapping{}
		if r.Rate == routes.RateLogin {
			s.set("ThrottlingBurstLimit", "!Ref LoginThrottlingBurstLimit")
			s.set("ThrottlingRateLimit", "!Ref LoginThrottlingRateLimit")
		} else {
			for _, kv := range [][2]string{{"ThrottlingBurstLimit", groupBurstParam(r.Group)}, {"ThrottlingRateLimit", groupRateParam(r.Group)}} {
				s.set(kv[0], "!If [Has"+kv[1]+", !Ref "+kv[1]+", !Ref "+kv[0]+"]")
			}
		}
		rs.set(r.Key(), s)
	}
	return rs
}

// authorization declares the two authorizers, both backed by the authorizer
// function with payload 2.0 and simple responses.
//
// Why two: API Gateway answers a request that lacks an identity source with
// its own English 401 before calling the function, so identity sources may be
// declared only when the cache (which needs them as its key) is on. SAM
// builds the authorizer's identitySource from Identity.Headers and accepts
// only a literal list of strings there (no !If), and it owns the
// securitySchemes it generates. What SAM does keep is a `security` that the
// DefinitionBody already gives an operation, intrinsics included; so every
// protected route is pre-declared in definitionBody with
// !If [AuthorizerCachingEnabled, CachedLambdaAuthorizer, LambdaAuthorizer].
// LambdaAuthorizer stays the DefaultAuthorizer (anything not pre-declared
// still needs a token) and public routes opt out with Authorizer: NONE.
func authorization(authorizerARN string) *mapping {
	authorizer := func(ttl string, headers bool) *mapping {
		id := &mapping{}
		id.set("ReauthorizeEvery", ttl)
		if headers {
			id.set("Headers", flow(identityHeaders...))
		}
		a := &mapping{}
		a.set("FunctionArn", authorizerARN)
		a.set("AuthorizerPayloadFormatVersion", quoted("2.0"))
		a.set("EnableSimpleResponses", "true")
		a.set("EnableFunctionDefaultPermissions", "true")
		a.set("Identity", id)
		return a
	}
	list := &mapping{}
	list.set(authorizerName, authorizer("0", false))
	list.set(cachedAuthorizerName, authorizer("!Ref AuthorizerResultTtl", true))
	auth := &mapping{}
	auth.set("DefaultAuthorizer", authorizerName)
	auth.set("Authorizers", list)
	return auth
}

// protectedSecurity is the `security` of every protected operation in the
// DefinitionBody: the cached authorizer only when caching is on.
func protectedSecurity() string {
	return "!If [" + cachingCondition + ", [{" + cachedAuthorizerName + ": []}], [{" + authorizerName + ": []}]]"
}

// definitionBody is the OpenAPI skeleton SAM completes with the functions'
// HttpApi events (integrations, path parameters). It only pre-declares the
// security of protected routes; see authorization.
func definitionBody(all []routes.Route) *mapping {
	paths := &mapping{}
	for _, r := range sortedRoutes(all) {
		if r.Public {
			continue
		}
		item, _ := paths.get(r.Path).(*mapping)
		if item == nil {
			item = &mapping{}
			paths.set(r.Path, item)
		}
		op := &mapping{}
		op.set("security", protectedSecurity())
		item.set(openAPIMethod(r.Method), op)
	}
	// SAM replaces this title (its own default) by the HttpApi's Name,
	// erp-<env>; it refuses any other title next to a Name.
	info := &mapping{}
	info.set("title", "!Ref AWS::StackName")
	info.set("version", quoted("1.0"))
	body := &mapping{}
	body.set("openapi", quoted("3.0.1"))
	body.set("info", info)
	body.set(corsExtension, corsConfiguration())
	body.set("paths", paths)
	return body
}

// corsOriginsParam is the parameter with each environment's allowed origins.
const corsOriginsParam = "CorsAllowOrigins"

// corsExtension is the OpenAPI extension that configures an HTTP API's CORS.
const corsExtension = "x-amazon-apigateway-cors"

// corsConfiguration is the HTTP API's CORS configuration (routes.CORS plus
// the origins parameter). It is written as the x-amazon-apigateway-cors
// extension of the DefinitionBody, which is what the HttpApi's
// CorsConfiguration property compiles to, because SAM cannot take an
// intrinsic inside CorsConfiguration: with AllowOrigins: !Ref
// CorsAllowOrigins the translator replaces the whole configuration by the
// reference (and renames it "CorsallowOrigins"). In the DefinitionBody the
// reference reaches CloudFormation untouched and resolves to the list.
func corsConfiguration() *mapping {
	p := routes.CORS()
	c := &mapping{}
	c.set("allowOrigins", "!Ref "+corsOriginsParam)
	c.set("allowMethods", flow(p.AllowMethods...))
	c.set("allowHeaders", flow(p.AllowHeaders...))
	c.set("exposeHeaders", flow(p.ExposeHeaders...))
	c.set("maxAge", strconv.Itoa(p.MaxAge))
	c.set("allowCredentials", "false")
	return c
}

// openAPIMethod returns the OpenAPI operation key SAM uses for a method.
func openAPIMethod(method string) string {
	if strings.EqualFold(method, "ANY") {
		return "x-amazon-apigateway-any-method"
	}
	return strings.ToLower(method)
}

func function(f routes.Function) *mapping {
	id := pascal(f.Name)
	props := &mapping{}
	timeout := 0
	switch f.Kind {
	case routes.KindAuthorizer:
		props.set("Description", quoted("ERP: API Gateway REQUEST authorizer (token and tenant to context)"))
		timeout = authorizerTimeout
	case routes.KindTask:
		props.set("Description", quoted("ERP: "+f.Name+" task, invoked directly at deploy time"))
		timeout = taskTimeout
	case routes.KindHTTP:
		props.set("Description", quoted("ERP: HTTP function group "+f.Name))
	case routes.KindQueue:
		props.set("Description", quoted("ERP: "+f.Name+", consumer of the "+f.Queue+" queue (batches, partial-failure reporting)"))
		timeout = queueTimeout
	case routes.KindSchedule:
		props.set("Description", quoted("ERP: "+f.Name+", EventBridge target "+f.Schedule+" (sweeps of due work)"))
		timeout = scheduleTimeout
	default:
		props.set("Description", quoted("ERP: "+f.Name+" function ("+string(f.Kind)+")"))
	}
	props.set("FunctionName", FunctionName(f.Name))
	props.set("CodeUri", scalar("functions/"+f.Name+"/"))
	if timeout != 0 {
		props.set("Timeout", strconv.Itoa(timeout))
	}
	props.set("MemorySize", "!If [Has"+id+"MemorySize, !Ref "+id+"MemorySize, !Ref FunctionMemorySize]")
	props.set("ReservedConcurrentExecutions", "!If [Has"+reservedParam(f.Name)+", !Ref "+reservedParam(f.Name)+", !Ref AWS::NoValue]")
	if routes.TuningOf(f.Name).Provisioned {
		// SAM cannot make AutoPublishAlias conditional, so these functions
		// always publish a version per deploy behind the alias (which the
		// events and the authorizer invoke, and which rolls back by
		// pointing at the previous version); only the provisioned
		// instances depend on the parameter.
		props.set("AutoPublishAlias", liveAlias)
		pc := &mapping{}
		pc.set("ProvisionedConcurrentExecutions", "!Ref "+provisionedParam(f.Name))
		props.set("ProvisionedConcurrencyConfig", tagged{"!If", sequence{"Has" + provisionedParam(f.Name), pc, "!Ref AWS::NoValue"}})
	}

	// Every function reads the application secret. Tasks (migrate) connect
	// as the schema owner, and keep the application secret too so they can
	// set erp_app's password from it. Some functions read one more secret.
	type secret struct{ env, param string }
	secrets := []secret{{"DB_SECRET_ARN", "DatabaseSecretArn"}}
	if f.Kind == routes.KindTask {
		secrets = append([]secret{{"DB_ADMIN_SECRET_ARN", "DatabaseAdminSecretArn"}}, secrets...)
	}
	if secretsKeyFunctions[f.Name] {
		secrets = append(secrets, secret{"ERP_SECRETS_KEY_ARN", "SecretsKeySecretArn"})
	}
	if haciendaSecretFunctions[f.Name] {
		secrets = append(secrets, secret{"ERP_HACIENDA_SECRET_ARN", "HaciendaSecretArn"})
	}
	vars := &mapping{}
	policies := sequence{}
	for _, s := range secrets {
		vars.set(s.env, "!Ref "+s.param)
		arn := &mapping{}
		arn.set("SecretArn", "!Ref "+s.param)
		pol := &mapping{}
		pol.set("AWSSecretsManagerGetSecretValuePolicy", arn)
		policies = append(policies, pol)
	}
	// The platform's KMS key encrypts the secrets (read by every
	// function), the queues and the alarm topic: decrypting is enough to
	// read a secret or receive a message; sending to a queue or publishing
	// to the topic also generates data keys.
	kms := sequence{quoted("kms:Decrypt")}
	if sendsToQueue(f.Name) || f.Kind == routes.KindSchedule {
		kms = append(kms, quoted("kms:GenerateDataKey"))
	}
	policies = append(policies, statementPolicy(kms, "!Ref KmsKeyArn"))
	if f.Kind == routes.KindSchedule {
		// Its failed runs go to the alarm topic (failuresToAlarms).
		policies = append(policies, statementPolicy(sequence{quoted("sns:Publish")}, "!Ref AlarmTopicArn"))
	}
	// Producers get the queue's URL and may send to it (the consumer too:
	// it re-queues retries and the next status poll).
	for _, q := range routes.Queues() {
		if !slices.Contains(q.Producers, f.Name) && q.Consumer != f.Name {
			continue
		}
		vars.set(QueueURLEnv(q.Name), "!Ref "+QueueLogicalID(q.Name))
		name := &mapping{}
		name.set("QueueName", "!GetAtt "+QueueLogicalID(q.Name)+".QueueName")
		pol := &mapping{}
		pol.set("SQSSendMessagePolicy", name)
		policies = append(policies, pol)
	}
	policies = reportesFunction(f.Name, vars, policies)
	env := &mapping{}
	env.set("Variables", vars)
	props.set("Environment", env)
	props.set("Policies", policies)

	if f.Kind == routes.KindHTTP {
		events := &mapping{}
		for _, r := range groupRoutes(f.Name) {
			ev := &mapping{}
			ev.set("ApiId", "!Ref "+apiLogicalID)
			ev.set("Path", scalar(r.Path))
			ev.set("Method", scalar(r.Method))
			if r.Public {
				a := &mapping{}
				a.set("Authorizer", "NONE")
				ev.set("Auth", a)
			}
			e := typed("HttpApi", ev)
			name := eventName(r)
			for n := 2; events.get(name) != nil; n++ {
				name = eventName(r) + strconv.Itoa(n)
			}
			events.set(name, e)
		}
		if len(events.keys) > 0 {
			props.set("Events", events)
		}
	}
	if f.Kind == routes.KindQueue {
		q := queueOf(f.Queue)
		ev := &mapping{}
		ev.set("Queue", "!GetAtt "+QueueLogicalID(q.Name)+".Arn")
		ev.set("BatchSize", strconv.Itoa(q.BatchSize))
		ev.set("FunctionResponseTypes", sequence{"ReportBatchItemFailures"})
		e := typed("SQS", ev)
		events := &mapping{}
		events.set(pascal(q.Name)+"Messages", e)
		props.set("Events", events)
	}
	if f.Kind == routes.KindSchedule {
		ev := &mapping{}
		ev.set("Schedule", quoted(f.Schedule))
		ev.set("Description", quoted("ERP: "+f.Name+" sweep"))
		ev.set("Enabled", "true")
		e := typed("Schedule", ev)
		events := &mapping{}
		events.set("Sweep", e)
		props.set("Events", events)
	}

	meta := &mapping{}
	meta.set("BuildMethod", "go1.x")
	res := &mapping{}
	res.set("Type", "AWS::Serverless::Function")
	res.set("Metadata", meta)
	res.set("Properties", props)
	return res
}

// failuresToAlarms sends a scheduled function's failed runs to the alarm
// topic: EventBridge invokes it asynchronously, and a run that still fails
// after Lambda's two retries would otherwise only be a log line. It is a
// plain AWS::Lambda::EventInvokeConfig rather than SAM's EventInvokeConfig
// property, which resolves !Ref AlarmTopicArn to the parameter's default
// (the SSM path, not the topic) while transforming.
func failuresToAlarms(f routes.Function) *mapping {
	dest := &mapping{}
	dest.set("Destination", "!Ref AlarmTopicArn")
	dc := &mapping{}
	dc.set("OnFailure", dest)
	props := &mapping{}
	props.set("FunctionName", "!Ref "+FunctionLogicalID(f.Name))
	props.set("Qualifier", quoted("$LATEST"))
	props.set("MaximumRetryAttempts", "2")
	props.set("DestinationConfig", dc)
	return typed("AWS::Lambda::EventInvokeConfig", props)
}

// queueOf returns the queue of the route table with that name.
func queueOf(name string) routes.Queue {
	for _, q := range routes.Queues() {
		if q.Name == name {
			return q
		}
	}
	panic("deploy: unknown queue " + name)
}

// consumerTimeout is the timeout of a queue's consumer function.
func consumerTimeout() int { return queueTimeout }

// sqsQueue declares a queue: encrypted at rest with the platform's key, a
// visibility timeout six times its consumer's timeout, and a redrive policy
// to its dead-letter queue after MaxReceiveCount deliveries.
func sqsQueue(q routes.Queue) *mapping {
	redrive := &mapping{}
	redrive.set("deadLetterTargetArn", "!GetAtt "+DeadLetterQueueLogicalID(q.Name)+".Arn")
	redrive.set("maxReceiveCount", strconv.Itoa(q.MaxReceiveCount))
	props := &mapping{}
	props.set("QueueName", queueName(q, false))
	props.set("VisibilityTimeout", strconv.Itoa(visibilityFactor*consumerTimeout()))
	props.set("MessageRetentionPeriod", strconv.Itoa(queueRetention))
	props.set("KmsMasterKeyId", "!Ref KmsKeyArn")
	props.set("RedrivePolicy", redrive)
	return typed("AWS::SQS::Queue", props)
}

func deadLetterQueue(q routes.Queue) *mapping {
	props := &mapping{}
	props.set("QueueName", queueName(q, true))
	props.set("MessageRetentionPeriod", strconv.Itoa(dlqRetention))
	props.set("KmsMasterKeyId", "!Ref KmsKeyArn")
	return typed("AWS::SQS::Queue", props)
}

func outputs(fns []routes.Function) *mapping {
	o := &mapping{}
	o.set("ApiUrl", output("Base URL of the HTTP API ($default stage)",
		`!Sub "https://${`+apiLogicalID+`}.execute-api.${AWS::Region}.${AWS::URLSuffix}/"`))
	o.set("HttpApiId", output("Id of the HTTP API", "!Ref "+apiLogicalID))
	reportesOutputs(o)
	for _, f := range fns {
		o.set(pascal(f.Name)+"FunctionName", output("Name of the "+f.Name+" function", "!Ref "+FunctionLogicalID(f.Name)))
	}
	for _, q := range routes.Queues() {
		o.set(QueueLogicalID(q.Name)+"Url", output("URL of the "+q.Name+" queue", "!Ref "+QueueLogicalID(q.Name)))
		o.set(DeadLetterQueueLogicalID(q.Name)+"Url",
			output("URL of the dead-letter queue of the "+q.Name+" queue (alarm when not empty)", "!Ref "+DeadLetterQueueLogicalID(q.Name)))
	}
	return o
}

// authorizerArn is what the authorizers invoke: the live alias when the
// authorizer may keep provisioned concurrency (only an alias uses it),
// else the function.
func authorizerArn(fns []routes.Function) string {
	id := authorizerFunction(fns)
	for _, f := range fns {
		if FunctionLogicalID(f.Name) == id && routes.TuningOf(f.Name).Provisioned {
			return "!Ref " + id + ".Alias"
		}
	}
	return "!GetAtt " + id + ".Arn"
}

// apiIDParameterLogicalID is the SSM parameter /erp/<env>/api/id, which
// holds the HTTP API's id for infra/'s ObservabilityStack (its 5xx and
// latency alarms): the platform is deployed before the application, so it
// reads the id at its next deploy instead of importing a stack output.
const apiIDParameterLogicalID = "HttpApiIdParameter"

func apiIDParameter() *mapping {
	props := &mapping{}
	props.set("Name", `!Sub "/erp/${Environment}/api/id"`)
	props.set("Type", "String")
	props.set("Value", "!Ref "+apiLogicalID)
	props.set("Description", quoted("Id of the ERP HTTP API (template.yaml), read by the alarms of infra/"))
	return typed("AWS::SSM::Parameter", props)
}

// authorizerFunction returns the logical id of the function of kind
// authorizer ("AuthorizerFunction").
func authorizerFunction(fns []routes.Function) string {
	for _, f := range fns {
		if f.Kind == routes.KindAuthorizer {
			return FunctionLogicalID(f.Name)
		}
	}
	panic("deploy: routes.Functions() has no authorizer")
}

// groupRoutes returns a group's API Gateway routes sorted by event name,
// so the output does not depend on the order of the route table.
func groupRoutes(group string) []routes.Route {
	rs := apiRoutes(group)
	sort.SliceStable(rs, func(i, j int) bool { return eventName(rs[i]) < eventName(rs[j]) })
	return rs
}

// apiRoutes are the API Gateway routes of the template for a group (""
// for every group). API Gateway only picks the function; the function's
// mux routes on the method and the table's own path (lambdahttp), answers
// 405 for a known path with another method and 404 for an unknown one. So
// each first path segment under /api gets ANY /api/<segment> and ANY
// /api/<segment>/{proxy+}, and the same under /api/v1 and /api/v2, sent to
// the group with the most routes under it (routes.AliasPrefixes), each only
// when the segment needs it (the exact one when a route sits on the segment
// itself, the greedy one when a route lies deeper); a route of another
// group under that segment gets exact ANY routes, which API Gateway prefers
// to the greedy one (routes.AliasExactos). Tax routes,
// declared under /api/v1, get no unversioned route. The $default route
// stays as declared. One route per operation and version would pass API
// Gateway's quota of 300 routes per API with the accounting modules.
func apiRoutes(group string) []routes.Route {
	var out []routes.Route
	versions := func(declared []routes.Route) []string {
		for _, r := range declared {
			if r.Path != r.Canonica() {
				return []string{"v1", "v2"}
			}
		}
		return []string{"", "v1", "v2"}
	}
	base := func(v, rest string) string {
		if v == "" {
			return "/api/" + rest
		}
		return "/api/" + v + "/" + rest
	}
	login := func(rs []routes.Route) routes.RateClass {
		for _, r := range rs {
			if r.Rate == routes.RateLogin {
				return routes.RateLogin
			}
		}
		return routes.RateGeneral
	}
	bySegment := map[string][]routes.Route{}
	for _, r := range routes.All() {
		if r.Path == routes.DefaultRoute {
			if group == "" || r.Group == group {
				out = append(out, r)
			}
			continue
		}
		seg, _, _ := strings.Cut(strings.TrimPrefix(r.Canonica(), "/api/"), "/")
		bySegment[seg] = append(bySegment[seg], r)
	}
	for g, prefixes := range routes.AliasPrefixes() {
		if group != "" && g != group {
			continue
		}
		for prefix, public := range prefixes {
			var own []routes.Route
			for _, r := range bySegment[prefix] {
				if r.Group == g {
					own = append(own, r)
				}
			}
			// Only the routes the segment needs: the exact one when a route
			// sits on /api/<segment> itself, the greedy one when a route lies
			// deeper. Any other path falls to $default, whose 404 is the one
			// the group's mux would have answered.
			exact, deeper := false, false
			for _, r := range own {
				if r.Canonica() == "/api/"+prefix {
					exact = true
				} else {
					deeper = true
				}
			}
			for _, v := range versions(own) {
				name := strings.TrimPrefix(v+"."+prefix, ".")
				if exact {
					out = append(out, routes.Route{Name: "api." + name, Method: "ANY", Path: base(v, prefix), Group: g, Public: public, Rate: login(own)})
				}
				if deeper {
					out = append(out, routes.Route{Name: "api." + name + ".proxy", Method: "ANY", Path: base(v, prefix) + "/{proxy+}", Group: g, Public: public, Rate: login(own)})
				}
			}
		}
	}
	for _, r := range routes.AliasExactos() {
		if group != "" && r.Group != group {
			continue
		}
		rest := strings.TrimPrefix(r.Canonica(), "/api/")
		for _, v := range versions([]routes.Route{r}) {
			out = append(out, routes.Route{Name: strings.TrimPrefix(v+"."+r.Name, "."), Method: "ANY", Path: base(v, rest),
				Group: r.Group, Public: r.Public, Rate: r.Rate})
		}
	}
	// Two exact routes of one path (GET and POST of another group's
	// collection) are one ANY route.
	seen := map[string]bool{}
	dedup := out[:0]
	for _, r := range out {
		if !seen[r.Key()] {
			seen[r.Key()] = true
			dedup = append(dedup, r)
		}
	}
	sort.Slice(dedup, func(i, j int) bool { return dedup[i].Path < dedup[j].Path })
	return dedup
}

// sortedRoutes orders routes by path, then method.
func sortedRoutes(all []routes.Route) []routes.Route {
	rs := append([]routes.Route(nil), all...)
	sort.SliceStable(rs, func(i, j int) bool {
		if rs[i].Path != rs[j].Path {
			return rs[i].Path < rs[j].Path
		}
		return rs[i].Method < rs[j].Method
	})
	return rs
}

func loginRoutes(all []routes.Route) []routes.Route {
	var out []routes.Route
	for _, r := range sortedRoutes(all) {
		if r.Rate == routes.RateLogin {
			out = append(out, r)
		}
	}
	return out
}

var notAlnum = regexp.MustCompile(`[^A-Za-z0-9]+`)

// pascal turns "hacienda-worker" or "ops.not_found" into "HaciendaWorker" and
// "OpsNotFound": CloudFormation logical ids are alphanumeric only.
func pascal(s string) string {
	var b strings.Builder
	for _, part := range notAlnum.Split(s, -1) {
		if part == "" {
			continue
		}
		b.WriteString(strings.ToUpper(part[:1]) + part[1:])
	}
	return b.String()
}

// The YAML below is written by hand (the module takes no YAML dependency).
// A value is a string holding a ready-to-write scalar or flow expression
// (`!Ref X`, `[a, b]`, `"quoted"`), a *mapping (block mapping with ordered
// keys), a sequence (block sequence) or a tagged block (`!If` + sequence).

type mapping struct {
	keys []string
	vals []any
	// spaced separates block entries by a blank line (top level, resources).
	spaced bool
}

type sequence []any

type tagged struct {
	tag string
	seq sequence
}

func (m *mapping) set(key string, v any) {
	for i, k := range m.keys {
		if k == key {
			m.vals[i] = v
			return
		}
	}
	m.keys = append(m.keys, key)
	m.vals = append(m.vals, v)
}

func (m *mapping) get(key string) any {
	for i, k := range m.keys {
		if k == key {
			return m.vals[i]
		}
	}
	return nil
}

// write emits the mapping at the given indentation.
func (m *mapping) write(b *bytes.Buffer, indent int) {
	pad := strings.Repeat(" ", indent)
	for i, k := range m.keys {
		if m.spaced && i > 0 {
			if _, ok := m.vals[i].(string); !ok {
				b.WriteByte('\n')
			}
		}
		b.WriteString(pad + scalar(k) + ":")
		writeValue(b, m.vals[i], indent)
	}
}

// writeValue writes what follows "key:" or "-": a scalar on the same line, a
// block on the next lines indented by two more spaces.
func writeValue(b *bytes.Buffer, v any, indent int) {
	switch v := v.(type) {
	case string:
		b.WriteString(" " + v + "\n")
	case *mapping:
		if len(v.keys) == 0 {
			b.WriteString(" {}\n")
			return
		}
		b.WriteByte('\n')
		v.write(b, indent+2)
	case sequence:
		if len(v) == 0 {
			b.WriteString(" []\n")
			return
		}
		b.WriteByte('\n')
		v.write(b, indent+2)
	case tagged:
		b.WriteString(" " + v.tag + "\n")
		v.seq.write(b, indent+2)
	default:
		panic("deploy: unsupported YAML value")
	}
}

func (s sequence) write(b *bytes.Buffer, indent int) {
	pad := strings.Repeat(" ", indent)
	for _, item := range s {
		switch item := item.(type) {
		case string:
			b.WriteString(pad + "- " + item + "\n")
		case *mapping:
			// "- " then the mapping indented by two, first key on the dash line.
			var inner bytes.Buffer
			item.write(&inner, indent+2)
			b.WriteString(pad + "- " + strings.TrimPrefix(inner.String(), pad+"  "))
		default:
			panic("deploy: unsupported YAML sequence item")
		}
	}
}

var plain = regexp.MustCompile(`^[A-Za-z_/][A-Za-z0-9_./-]*$`)

// yamlWords would be read as booleans or null by YAML 1.1 parsers.
var yamlWords = map[string]bool{
	"y": true, "n": true, "yes": true, "no": true, "on": true, "off": true,
	"true": true, "false": true, "null": true,
}

// quoted returns s as a double-quoted YAML scalar (Go escapes are valid YAML
// double-quoted escapes).
func quoted(s string) string { return strconv.Quote(s) }

// scalar writes a key or value plainly when that is unambiguous, quoted
// otherwise ("POST /api/login", "/api/usuarios/{id}", "$default").
func scalar(s string) string {
	if plain.MatchString(s) && !yamlWords[strings.ToLower(s)] {
		return s
	}
	return quoted(s)
}

// flow writes a flow sequence of plain-or-quoted scalars: [a, "b c"].
func flow(items ...string) string {
	out := make([]string, len(items))
	for i, s := range items {
		out[i] = scalar(s)
	}
	return "[" + strings.Join(out, ", ") + "]"
}
