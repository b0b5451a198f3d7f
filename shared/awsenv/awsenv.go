// Package awsenv is the AWS configuration of code that runs in Lambda: the
// region and the execution role's credentials, which the Lambda runtime
// puts in the environment (AWS_REGION, AWS_ACCESS_KEY_ID,
// AWS_SECRET_ACCESS_KEY, AWS_SESSION_TOKEN; "Defined runtime environment
// variables" in the Lambda developer guide).
//
// It replaces aws-sdk-go-v2/config's default chain in the function
// binaries: in Lambda that chain resolves exactly these variables (its
// first provider), but linking it brings SSO, SSO-OIDC, sign-in, STS,
// instance metadata and shared-file parsing into every function, about
// 2.4 MB of a stripped binary that never uses them. Code that runs outside
// Lambda with profiles (tools, make run: shared/app sets plataforma.Deps.AWS)
// keeps the default chain.
package awsenv

import (
	"context"
	"errors"
	"os"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/credentials"
)

// ErrNoCredentials: the environment holds no credentials (not in Lambda).
var ErrNoCredentials = errors.New("awsenv: AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY are not set (the Lambda runtime sets them)")

// Load returns the configuration the environment describes.
func Load(context.Context) (aws.Config, error) {
	id, secret := os.Getenv("AWS_ACCESS_KEY_ID"), os.Getenv("AWS_SECRET_ACCESS_KEY")
	if id == "" || secret == "" {
		return aws.Config{}, ErrNoCredentials
	}
	region := os.Getenv("AWS_REGION")
	if region == "" {
		region = os.Getenv("AWS_DEFAULT_REGION")
	}
	return aws.Config{
		Region:      region,
		Credentials: aws.NewCredentialsCache(credentials.NewStaticCredentialsProvider(id, secret, os.Getenv("AWS_SESSION_TOKEN"))),
	}, nil
}
