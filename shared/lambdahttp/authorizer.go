package lambdahttp

import (
	"bytes"
	"context"
	"encoding/json"

	"github.com/aws/aws-lambda-go/events"
	"github.com/aws/aws-lambda-go/lambda"

	"github.com/erpcr/erp/shared/auth"
)

// Authorizer is the authorizer's Lambda handler on the raw payload: the
// request is read by the event decoder (decodeEvent: the headers and the
// domain name are all auth.Authorizer.Handle reads, and an authorizer's
// request spells them as a function's event does) instead of
// encoding/json's reflection over the whole request, which cost about a
// tenth of the Go CPU of a product show. A payload the decoder refuses is
// read by encoding/json, as lambda.NewHandler would, so that its error is
// the same; the response is written as lambda.NewHandler writes it.
func Authorizer(a *auth.Authorizer) lambda.Handler { return authorizerHandler{a} }

type authorizerHandler struct{ a *auth.Authorizer }

func (h authorizerHandler) Invoke(ctx context.Context, payload []byte) ([]byte, error) {
	var req events.APIGatewayV2CustomAuthorizerV2Request
	var e v2Event
	if err := decodeEvent(payload, &e); err == nil {
		req.Headers, req.RequestContext.DomainName = e.Headers, e.RequestContext.DomainName
	} else if err := json.NewDecoder(bytes.NewReader(payload)).Decode(&req); err != nil {
		return nil, err
	}
	resp, err := h.a.Handle(ctx, req)
	if err != nil {
		return nil, err
	}
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(resp); err != nil {
		return nil, err
	}
	// Without the encoder's newline, as lambda.NewHandler answers.
	return bytes.TrimSuffix(b.Bytes(), []byte("\n")), nil
}
