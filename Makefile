# ERP API — developer entry points. `make run` and `make test` do all the
# set-up on a fresh machine that has Go and the PostgreSQL server binaries.
SHELL := /bin/bash
GO ?= go
FUNCTIONS := $(sort $(notdir $(patsubst %/,%,$(wildcard functions/*/))))
LAMBDA_ENV := GOOS=linux GOARCH=arm64 CGO_ENABLED=0
PIP ?= $(shell command -v pip3 || command -v pip)
# What GET /api/health reports: the version (a tag, else the short commit) and the commit.
VERSION ?= $(shell git describe --tags --always --dirty 2>/dev/null || echo dev)
COMMIT ?= $(shell git rev-parse HEAD 2>/dev/null)
STAMP := -X github.com/erpcr/erp/shared/ops.Version=$(VERSION) -X github.com/erpcr/erp/shared/ops.Commit=$(COMMIT)

.PHONY: run test unit build template openapi fuzz lint tools bench bench-load sam-build deploy validate sam-local clean plataforma contabilizar-historico

## run: PostgreSQL (private cluster unless DATABASE_URL), migrations, seed, local gateway on :3000
run:
	$(GO) build -ldflags "$(STAMP)" -o .build/local ./cmd/local
	exec ./.build/local

## test: format, vet, every test against a real PostgreSQL, Lambda builds, cfn-lint
test: tools
	@unformatted=$$(gofmt -l shared cmd functions); if [ -n "$$unformatted" ]; then echo "gofmt needed:"; echo "$$unformatted"; exit 1; fi
	$(GO) vet ./...
	$(GO) test -count=1 -timeout 20m ./...
	$(MAKE) --no-print-directory build
	cfn-lint template.yaml
	$(MAKE) --no-print-directory validate
	$(MAKE) --no-print-directory infra-test
	@echo "make test: all checks passed"

## unit: only the Go tests (faster loop)
unit:
	$(GO) test -count=1 ./...

## build: every function for Lambda (linux/arm64, provided.al2023) into .build/<fn>/bootstrap; fails when one
## is over MAX_FUNCTION_BYTES stripped (15 MiB: issue 17; what a function links is guarded by functions/enlace_test.go)
MAX_FUNCTION_BYTES := 15728640
build:
	@for fn in $(FUNCTIONS); do \
		$(LAMBDA_ENV) $(GO) build -tags lambda.norpc -trimpath -ldflags "-s -w $(STAMP)" -o .build/$$fn/bootstrap ./functions/$$fn || exit 1; \
		size=$$(wc -c < .build/$$fn/bootstrap); \
		awk -v fn=$$fn -v s=$$size 'BEGIN { printf "build %-16s %6.2f MB\n", fn, s / 1048576 }'; \
		if [ $$size -gt $(MAX_FUNCTION_BYTES) ]; then \
			echo "build: functions/$$fn is $$size bytes stripped, over the limit of $(MAX_FUNCTION_BYTES) bytes: see what it links with go version -m and go tool nm -size -sort size"; exit 1; \
		fi; \
	done

## template: regenerate template.yaml and the OpenAPI documents from the route table
template: openapi
	$(GO) run ./cmd/gentemplate -o template.yaml

## openapi: regenerate shared/docs/openapi/v1.json and v2.json (route table + declared schemas), and the .gz of
## those and of shared/docs/ui's scripts and stylesheet that the docs function embeds
openapi:
	$(GO) run ./cmd/genopenapi

## fuzz: a longer schemathesis run over every operation (FUZZ_EJEMPLOS per operation)
FUZZ_EJEMPLOS ?= 100
fuzz: tools
	$(GO) test -count=1 -timeout 60m -run Schemathesis -v ./shared/docs/ -args -fuzz-ejemplos=$(FUZZ_EJEMPLOS)

## lint: cfn-lint on the SAM template
lint: tools
	cfn-lint template.yaml

## tools: cfn-lint, openapi-spec-validator, schemathesis (pip), xmllint, xmlsec1, chromium, pdftotext (apt-get, as root), Go modules
tools:
	@command -v cfn-lint >/dev/null 2>&1 || $(PIP) install --quiet cfn-lint
	@command -v openapi-spec-validator >/dev/null 2>&1 || $(PIP) install --quiet openapi-spec-validator==0.9.0
	@command -v schemathesis >/dev/null 2>&1 || $(PIP) install --quiet schemathesis==4.32.5
	@python3 -c 'import prometheus_client' >/dev/null 2>&1 || python3 -m pip install --quiet prometheus_client==0.26.0
	@if ! command -v chromium >/dev/null 2>&1 && [ "$$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then \
		apt-get update -qq && apt-get install -y -qq chromium >/dev/null; \
	fi
	@if ! command -v xmllint >/dev/null 2>&1 || ! command -v xmlsec1 >/dev/null 2>&1; then \
		if [ "$$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then \
			apt-get update -qq && apt-get install -y -qq libxml2-utils xmlsec1 >/dev/null; \
		else echo "warning: install libxml2-utils and xmlsec1 for the invoicing validators"; fi; \
	fi
	@if ! command -v pdftotext >/dev/null 2>&1; then \
		if [ "$$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then \
			apt-get update -qq && apt-get install -y -qq poppler-utils >/dev/null; \
		else echo "warning: install poppler-utils (pdftotext) for the report export tests"; fi; \
	fi
	@$(GO) mod download

## bench: benchmarks (no timers in tests)
bench:
	$(GO) test -run '^$$' -bench . -benchmem ./...

## bench-load: the local stack on a private PostgreSQL under load (32 clients), each request against
## pgbench replaying its statements; the table goes to bench/results/ (BENCH_FLAGS=-duration=20s ...)
BENCH_FLAGS ?=
bench-load:
	$(GO) build -ldflags "$(STAMP)" -o .build/benchload ./cmd/benchload
	./.build/benchload $(BENCH_FLAGS)

## plataforma: grant (or with QUITAR=1 remove) the platform-administrator flag: make plataforma EMAIL=x@y.cr
plataforma:
	$(GO) run ./cmd/plataforma -email "$(EMAIL)" $(if $(QUITAR),-quitar)

## contabilizar-historico: post the books of what companies recorded before accounting existed (idempotent)
contabilizar-historico:
	$(GO) run ./cmd/contabilidad

## validate: sam validate --lint on template.yaml (SAM's own translator and cfn-lint); skipped only where sam is absent, never in CI
#  .ci/run installs the SAM CLI (aws-sam-cli==$(SAM_VERSION)); sam wants a region even to validate.
SAM ?= sam
SAM_VERSION := 1.170.0
SAM_ENV := SAM_CLI_TELEMETRY=0 AWS_REGION=us-east-1 AWS_DEFAULT_REGION=us-east-1
validate:
	@if ! command -v $(SAM) >/dev/null 2>&1; then \
		if [ -n "$$CI" ]; then echo "validate: the SAM CLI is missing in CI (.ci/run installs it)"; exit 1; fi; \
		echo "validate: SKIPPED: sam validate --lint (the SAM CLI is not installed: python3 -m pip install aws-sam-cli==$(SAM_VERSION))"; \
	else \
		$(SAM_ENV) $(SAM) validate --lint --template template.yaml; \
	fi

## sam-local: sam local start-api on :3001 (needs Docker); the supported local path is `make run`
#  DATABASE_APP_URL (erp_app's URL) must be reachable from the containers, e.g. make run's cluster via host.docker.internal.
sam-local:
	@echo "sam local start-api runs every function in a Lambda container: it needs Docker, reaches PostgreSQL from inside"
	@echo "the containers, resolves no SSM parameter and starts each function cold on its first request."
	@echo "The supported local path is 'make run': the local gateway (shared/gateway) builds the same API Gateway v2"
	@echo "events and authorizer context, and shared/app's parity test proves both paths answer alike."
	@if ! command -v docker >/dev/null 2>&1 || ! docker info >/dev/null 2>&1; then \
		echo "sam-local: Docker is not running here: nothing started (use make run)."; exit 0; \
	fi; \
	if ! command -v $(SAM) >/dev/null 2>&1; then echo "sam-local: install the SAM CLI: python3 -m pip install aws-sam-cli==$(SAM_VERSION)"; exit 1; fi; \
	if [ -z "$$DATABASE_APP_URL" ]; then echo "sam-local: set DATABASE_APP_URL (erp_app's URL as the containers see it, e.g. via host.docker.internal)"; exit 1; fi; \
	$(MAKE) --no-print-directory sam-build && \
	printf '{"Parameters":{"DATABASE_APP_URL":"%s","DB_SECRET_ARN":"","ERP_DB_HOST":"","ERP_ENV":"development"}}\n' "$$DATABASE_APP_URL" > .aws-sam/env.json && \
	$(SAM_ENV) $(SAM) local start-api --port 3001 --env-vars .aws-sam/env.json --warm-containers LAZY

## sam-build: SAM's go1.x builder on the host, static and without the RPC shim
sam-build:
	CGO_ENABLED=0 GOFLAGS=-tags=lambda.norpc $(SAM) build

## deploy: sam-build, sam deploy to ENV (dev, staging, prod), then the migrate function (after make deploy-platform)
ENV ?= dev
# samconfig.toml's region.
DEPLOY_REGION ?= us-east-1
deploy: sam-build
	$(SAM) deploy --config-env $(ENV)
	@echo "migrate: applying migrations and the catalog seed (erp-$(ENV)-migrate)"
	aws lambda invoke --region $(DEPLOY_REGION) --function-name erp-$(ENV)-migrate --cli-binary-format raw-in-base64-out --payload '{}' .aws-sam/migrate-$(ENV).json
	@cat .aws-sam/migrate-$(ENV).json; echo; ! grep -q '"errorMessage"' .aws-sam/migrate-$(ENV).json

## infra-test: the CDK app's tests (infra/, its own Go module) and make synth; skipped only without node/npm
infra-test:
	@if ! command -v node >/dev/null 2>&1 || ! command -v npm >/dev/null 2>&1; then \
		echo "infra-test: SKIPPED: node and npm are not installed (the CDK app runs on jsii/node; apt-get install nodejs npm)"; \
	else \
		unformatted=$$(cd infra && gofmt -l *.go); if [ -n "$$unformatted" ]; then echo "gofmt needed in infra/: $$unformatted"; exit 1; fi; \
		(cd infra && $(INFRA_ENV) $(GO) vet ./... && $(INFRA_ENV) $(GO) test -count=1 ./...) || exit 1; \
		$(MAKE) --no-print-directory synth || exit 1; \
	fi

## synth: cdk synth of infra/ for dev, staging and prod into infra/cdk.out/<env>/, then cfn-lint on every template
#  The CDK toolkit (npm aws-cdk, exact version in infra/_toolkit/package.json) is installed there if missing.
INFRA_ENVS := dev staging prod
CDK := $(CURDIR)/infra/_toolkit/node_modules/.bin/cdk
# Node 18/20 are past jsii's support dates: still work, and print a banner per process without this.
INFRA_ENV := JSII_SILENCE_WARNING_END_OF_LIFE_NODE_VERSION=18,20 CDK_DISABLE_CLI_TELEMETRY=true
synth: $(CDK)
	cd infra && $(GO) build -o cdk.out/app .
	@set -e; cd infra; for e in $(INFRA_ENVS); do \
		echo "cdk synth $$e -> infra/cdk.out/$$e"; rm -rf cdk.out/$$e; \
		$(INFRA_ENV) $(CDK) synth --app cdk.out/app -c env=$$e -o cdk.out/$$e --quiet --no-notices --no-version-reporting; \
	done
	cfn-lint $(foreach e,$(INFRA_ENVS),infra/cdk.out/$(e)/*.template.json)

$(CDK): infra/_toolkit/package.json infra/_toolkit/package-lock.json
	npm ci --prefix infra/_toolkit --no-audit --no-fund --loglevel=error
	@touch $(CDK)

## deploy-platform: cdk deploy erp-$(ENV)-platform (VPC, Aurora, RDS Proxy, secrets, the SSM parameters SAM reads); before make deploy
deploy-platform: $(CDK)
	cd infra && $(INFRA_ENV) $(CDK) deploy -c env=$(ENV) erp-$(ENV)-platform --no-notices

## deploy-observability: cdk deploy erp-$(ENV)-observability (alarms, SNS topic, dashboard); after make deploy (it reads the API id SAM publishes). ALARM_EMAIL=x@y subscribes an address
deploy-observability: $(CDK)
	cd infra && $(INFRA_ENV) $(CDK) deploy -c env=$(ENV) $(if $(ALARM_EMAIL),-c alarmEmail=$(ALARM_EMAIL)) erp-$(ENV)-observability --no-notices

.PHONY: infra-test synth deploy-platform deploy-observability

clean:
	rm -rf .build .aws-sam
