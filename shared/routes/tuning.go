package routes

import (
	"maps"
	"slices"
)

// Tuning is the operators' default for one function: the API Gateway
// throttle of each of its routes (HTTP groups) and whether it is latency
// sensitive enough to offer provisioned concurrency. The SAM template turns
// every value into a parameter whose default is the one here, so an
// environment changes it with `sam deploy --parameter-overrides` and this
// table only holds what a fresh stack starts with.
type Tuning struct {
	// Burst is the API Gateway burst limit (requests) of each route of the
	// group; Rate its steady-state limit (requests per second). API Gateway
	// answers 429 beyond them, before the function runs. 0 leaves the
	// stage-wide limit (ThrottlingBurstLimit/ThrottlingRateLimit, scaled
	// per environment) in force: the table only caps the heavy groups.
	Burst int
	Rate  int
	// Provisioned functions get an alias ("live") and a
	// <Function>ProvisionedConcurrency parameter (0: none): cold starts
	// there are on the path of every request (authorizer) or of the
	// cashier (login, sales).
	Provisioned bool
}

// tunings are the functions that differ from the stage-wide defaults.
// Heavy groups get fixed, lower limits (a report or an import holds a
// database connection for seconds, and the pool behind RDS Proxy is
// shared); the authorizer, login and the point of sale may keep instances
// warm.
var tunings = map[string]Tuning{
	// Every protected request calls it before its own function.
	"authorizer": {Provisioned: true},
	// Login is further limited per route (LoginThrottling*) and per e-mail
	// and address by the application.
	"auth": {Provisioned: true},
	// The point of sale: the busiest group, and a cashier waits on it.
	"ventas": {Provisioned: true},
	// Reports, the dashboard and exports run long queries; their named
	// rate limits (reports, exports) apply per user on top.
	"reportes":     {Burst: 20, Rate: 10},
	"contabilidad": {Burst: 50, Rate: 20},
	"dashboard":    {Burst: 50, Rate: 20},
	// An import holds a transaction over thousands of rows.
	"importaciones": {Burst: 5, Rate: 2},
	// Documentation pages and the OpenAPI document: public, no token.
	"docs": {Burst: 20, Rate: 10},
}

// TuningOf returns a function's row of the table (the zero Tuning, stage
// limits and no provisioned concurrency, for one it does not name).
func TuningOf(function string) Tuning { return tunings[function] }

// TunedFunctions lists the functions the table names, sorted, for the
// tests that check each is a real function.
func TunedFunctions() []string { return slices.Sorted(maps.Keys(tunings)) }
