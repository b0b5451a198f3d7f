package main

import (
	"fmt"
	"maps"
	"slices"
)

// Config is everything that differs between environments. One table
// (environments) holds all of them, so a difference between dev and prod
// is one line to read.
type Config struct {
	// Env is dev, staging or prod: it names the stacks, the resources and
	// the SSM parameters (/erp/<env>/...).
	Env string
	// Region is where the stacks deploy; AZs is how many of its
	// Availability Zones the VPC spans.
	Region string
	AZs    int
	// NatGateways: one in dev and staging (cheap, one AZ's outage cuts the
	// Lambdas' way out), one per AZ in prod.
	NatGateways int
	// MinACU/MaxACU bound Aurora Serverless v2 scaling (0.5 ACU steps).
	MinACU float64
	MaxACU float64
	// Readers is the number of Serverless v2 readers next to the writer
	// (prod: one, in another AZ, for fail-over).
	Readers int
	// Protect turns on deletion protection, snapshot-on-delete for the
	// cluster and retention for the KMS key and the secrets.
	Protect bool
	// BackupDays is Aurora's automated backup retention.
	BackupDays float64
	// LogDays is the retention of the PostgreSQL log exported to CloudWatch.
	LogDays int
	// RotationDays is the master secret's rotation period.
	RotationDays float64

	// Alarm thresholds.
	Api5xxPercent     float64 // API 5xx responses / requests, percent, 5 min
	LatencyP99Ms      float64 // p99 duration of an HTTP group's function, ms
	DBCPUPercent      float64 // Aurora CPU, percent
	DBACUPercent      float64 // ACUUtilization (share of MaxACU), percent
	DBConnections     float64 // DatabaseConnections on the writer
	StuckComprobantes float64 // comprobantes seen in "sent" > 15 min, per 5 min
}

// environments is the per-environment table.
var environments = map[string]Config{
	"dev": {
		Env: "dev", Region: "us-east-1", AZs: 2,
		NatGateways: 1, MinACU: 0.5, MaxACU: 4, Readers: 0, Protect: false,
		BackupDays: 1, LogDays: 14, RotationDays: 30,
		Api5xxPercent: 5, LatencyP99Ms: 5000, DBCPUPercent: 90, DBACUPercent: 90, DBConnections: 400, StuckComprobantes: 1,
	},
	"staging": {
		Env: "staging", Region: "us-east-1", AZs: 2,
		NatGateways: 1, MinACU: 0.5, MaxACU: 8, Readers: 0, Protect: false,
		BackupDays: 7, LogDays: 30, RotationDays: 30,
		Api5xxPercent: 2, LatencyP99Ms: 3000, DBCPUPercent: 85, DBACUPercent: 85, DBConnections: 800, StuckComprobantes: 1,
	},
	"prod": {
		Env: "prod", Region: "us-east-1", AZs: 3,
		NatGateways: 3, MinACU: 2, MaxACU: 32, Readers: 1, Protect: true,
		BackupDays: 35, LogDays: 90, RotationDays: 30,
		Api5xxPercent: 1, LatencyP99Ms: 2000, DBCPUPercent: 80, DBACUPercent: 80, DBConnections: 2000, StuckComprobantes: 1,
	},
}

// configFor returns the configuration of env.
func configFor(env string) (Config, error) {
	c, ok := environments[env]
	if !ok {
		return Config{}, fmt.Errorf("infra: unknown environment %q (use -c env=%v)", env, envNames())
	}
	return c, nil
}

func envNames() []string { return slices.Sorted(maps.Keys(environments)) }
