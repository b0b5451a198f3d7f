package awsenv_test

import (
	"context"
	"errors"
	"testing"

	"github.com/erpcr/erp/shared/awsenv"
)

func TestLoadReadsTheLambdaEnvironment(t *testing.T) {
	t.Setenv("AWS_ACCESS_KEY_ID", "AKIDEXAMPLE")
	t.Setenv("AWS_SECRET_ACCESS_KEY", "secreto")
	t.Setenv("AWS_SESSION_TOKEN", "sesion")
	t.Setenv("AWS_REGION", "us-east-1")
	cfg, err := awsenv.Load(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	creds, err := cfg.Credentials.Retrieve(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if cfg.Region != "us-east-1" || creds.AccessKeyID != "AKIDEXAMPLE" || creds.SecretAccessKey != "secreto" || creds.SessionToken != "sesion" {
		t.Fatalf("%q %+v", cfg.Region, creds)
	}
}

func TestLoadWithoutCredentialsIsAnError(t *testing.T) {
	t.Setenv("AWS_ACCESS_KEY_ID", "")
	t.Setenv("AWS_SECRET_ACCESS_KEY", "")
	if _, err := awsenv.Load(context.Background()); !errors.Is(err, awsenv.ErrNoCredentials) {
		t.Fatalf("err = %v", err)
	}
}
