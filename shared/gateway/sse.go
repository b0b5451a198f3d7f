package gateway

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"mime"
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/aws/aws-lambda-go/events"

	"github.com/erpcr/erp/shared/httpx"
	"github.com/erpcr/erp/shared/routes"
)

// Server-Sent Events through a Lambda function. An HTTP API buffers a
// Lambda's whole response (it has no response streaming), so a function
// that serves text/event-stream answers one event with a retry: field and
// ends; in AWS the browser's EventSource reconnects after that delay and
// gets the next event. The local gateway does the reconnecting itself: it
// keeps the client's connection open and invokes the function again every
// interval (the function's Retry-After, in seconds), authorizing each
// invocation as API Gateway would authorize each reconnection, and writes
// every new event to the same stream as it comes. The function's code path
// is the same in both places.
const (
	sseIntervalDefault = 5 * time.Second
	sseIntervalMax     = time.Minute
	// sseWriteTimeout bounds the write of one event (the server's own
	// WriteTimeout would otherwise end the stream after 65 s).
	sseWriteTimeout = 30 * time.Second
)

// respond writes the function's answer: as it is, or, when both the client
// and the function speak Server-Sent Events, as the first event of a stream
// kept open (stream).
func (g *Gateway) respond(w http.ResponseWriter, r *http.Request, route routes.Route, fn *Function, ev events.APIGatewayV2HTTPRequest, resp events.APIGatewayV2HTTPResponse) {
	if !httpx.AceptaSSE(r) || !isSSE(resp) {
		writeResponse(w, resp)
		return
	}
	g.stream(w, r, route, fn, ev, resp)
}

func isSSE(resp events.APIGatewayV2HTTPResponse) bool {
	if resp.StatusCode != 0 && resp.StatusCode != http.StatusOK {
		return false
	}
	for k, v := range resp.Headers {
		if strings.EqualFold(k, "Content-Type") {
			mt, _, err := mime.ParseMediaType(v)
			return err == nil && mt == httpx.TipoSSE
		}
	}
	return false
}

// sseInterval is the function's Retry-After (seconds), bounded.
func sseInterval(resp events.APIGatewayV2HTTPResponse) time.Duration {
	for k, v := range resp.Headers {
		if strings.EqualFold(k, "Retry-After") {
			if n, err := strconv.Atoi(strings.TrimSpace(v)); err == nil && n > 0 {
				return min(time.Duration(n)*time.Second, sseIntervalMax)
			}
		}
	}
	return sseIntervalDefault
}

// stream writes the first answer and then one event per interval until the
// client goes away or an invocation fails; a refusal or an error answer is
// sent as a last event named "error" carrying the function's body.
func (g *Gateway) stream(w http.ResponseWriter, r *http.Request, route routes.Route, fn *Function, ev events.APIGatewayV2HTTPRequest, resp events.APIGatewayV2HTTPResponse) {
	rc := http.NewResponseController(w)
	_ = rc.SetWriteDeadline(time.Now().Add(sseWriteTimeout))
	writeResponse(w, resp)
	if rc.Flush() != nil {
		return // the connection cannot stream: one event was written
	}
	ctx := r.Context()
	interval := sseInterval(resp)
	t := time.NewTimer(interval)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
		next, ok := g.reinvoke(ctx, route, fn, ev)
		_ = rc.SetWriteDeadline(time.Now().Add(sseWriteTimeout))
		if !ok {
			_, _ = w.Write(errorEvent(next))
			_ = rc.Flush()
			return
		}
		if _, err := w.Write([]byte(next.Body)); err != nil || rc.Flush() != nil {
			return
		}
		t.Reset(sseInterval(next))
	}
}

// reinvoke authorizes and invokes the function again with the same
// request; ok is false when the answer is not a further event.
func (g *Gateway) reinvoke(ctx context.Context, route routes.Route, fn *Function, ev events.APIGatewayV2HTTPRequest) (events.APIGatewayV2HTTPResponse, bool) {
	now := time.Now()
	ev.RequestContext.RequestID = "local-" + strconv.FormatInt(now.UnixNano(), 10)
	ev.RequestContext.Time = now.UTC().Format("02/Jan/2006:15:04:05 -0700")
	ev.RequestContext.TimeEpoch = now.UnixMilli()
	failed := func(status int, msg string) (events.APIGatewayV2HTTPResponse, bool) {
		body, _ := json.Marshal(map[string]string{"message": msg})
		return events.APIGatewayV2HTTPResponse{StatusCode: status, Body: string(body)}, false
	}
	if !route.Public {
		authCtx, status := g.authorize(ctx, ev)
		if status != 0 {
			return failed(status, http.StatusText(status))
		}
		ev.RequestContext.Authorizer = &events.APIGatewayV2HTTPRequestContextAuthorizerDescription{Lambda: authCtx}
	}
	payload, err := encodeEvent(&ev)
	if err != nil {
		return failed(http.StatusInternalServerError, "Internal Server Error")
	}
	// A body of its own: the stream keeps it while it waits for the next.
	resp, body, err := call(ctx, fn, payload, nil)
	if errors.Is(err, errDecode) {
		return failed(http.StatusBadGateway, "Bad Gateway")
	}
	if err != nil {
		return failed(http.StatusInternalServerError, "Internal Server Error")
	}
	resp.Body = string(body)
	return resp, isSSE(resp)
}

// errorEvent turns a failed invocation's answer into a last SSE event.
func errorEvent(resp events.APIGatewayV2HTTPResponse) []byte {
	body := bytes.ReplaceAll([]byte(resp.Body), []byte("\n"), []byte(" "))
	if resp.IsBase64Encoded || len(body) == 0 {
		body = []byte(`{"message":"` + http.StatusText(resp.StatusCode) + `"}`)
	}
	var b bytes.Buffer
	b.WriteString("event: error\ndata: ")
	b.Write(body)
	b.WriteString("\n\n")
	return b.Bytes()
}
