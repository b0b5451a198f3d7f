// Package secrets reads the database credentials from AWS Secrets Manager
// (RDS secret format) when an ARN is configured.
package secrets

import (
	"context"
	"encoding/json"
	"fmt"
	"net/url"
	"os"
	"strconv"

	"github.com/aws/aws-sdk-go-v2/service/secretsmanager"

	"github.com/erpcr/erp/shared/awsenv"
)

// rdsSecret is the JSON shape RDS and Aurora keep in Secrets Manager.
type rdsSecret struct {
	Username string `json:"username"`
	Password string `json:"password"`
	Host     string `json:"host"`
	Port     any    `json:"port"`
	DBName   string `json:"dbname"`
}

// HostEnv names the variable that, when set, replaces the secret's host. In
// AWS the functions reach the database through RDS Proxy, while the
// secrets RDS keeps name the cluster: template.yaml sets it to the proxy
// endpoint that infra/ publishes.
const HostEnv = "ERP_DB_HOST"

// DatabaseURL fetches the secret and builds a PostgreSQL URL from it (its
// host replaced by ERP_DB_HOST when that is set).
func DatabaseURL(ctx context.Context, arn string) (string, error) {
	cfg, err := awsenv.Load(ctx)
	if err != nil {
		return "", fmt.Errorf("secrets: aws config: %w", err)
	}
	out, err := secretsmanager.NewFromConfig(cfg).GetSecretValue(ctx, &secretsmanager.GetSecretValueInput{SecretId: &arn})
	if err != nil {
		return "", fmt.Errorf("secrets: get %s: %w", arn, err)
	}
	if out.SecretString == nil {
		return "", fmt.Errorf("secrets: %s has no string value", arn)
	}
	return FromRDSSecretVia(*out.SecretString, os.Getenv(HostEnv))
}

// FromRDSSecret builds a URL from an RDS secret document.
func FromRDSSecret(doc string) (string, error) { return FromRDSSecretVia(doc, "") }

// FromRDSSecretVia is FromRDSSecret with the host replaced by host when it
// is not empty (the secret's port and database stay).
func FromRDSSecretVia(doc, host string) (string, error) {
	var s rdsSecret
	if err := json.Unmarshal([]byte(doc), &s); err != nil {
		return "", fmt.Errorf("secrets: decode: %w", err)
	}
	port := "5432"
	switch p := s.Port.(type) {
	case float64:
		port = strconv.Itoa(int(p))
	case string:
		if p != "" {
			port = p
		}
	}
	if host != "" {
		s.Host = host
	}
	if s.Host == "" || s.Username == "" {
		return "", fmt.Errorf("secrets: host and username are required")
	}
	db := s.DBName
	if db == "" {
		db = "postgres"
	}
	u := url.URL{Scheme: "postgres", User: url.UserPassword(s.Username, s.Password), Host: s.Host + ":" + port, Path: "/" + db, RawQuery: "sslmode=require"}
	return u.String(), nil
}
