package queue

import (
	"context"
	"encoding/json"
	"fmt"
	"log/slog"
	"math"
	"time"

	"github.com/aws/aws-lambda-go/events"
	"github.com/aws/aws-sdk-go-v2/service/sqs"

	"github.com/erpcr/erp/shared/awsenv"
)

// SQSAPI is the part of the SQS client the queue uses.
type SQSAPI interface {
	SendMessage(ctx context.Context, in *sqs.SendMessageInput, opts ...func(*sqs.Options)) (*sqs.SendMessageOutput, error)
}

// SQS sends wake-ups to an Amazon SQS queue; the consumer is a Lambda with
// an SQS event source (see Consume).
type SQS struct {
	Client SQSAPI
	URL    string
}

// NewSQS builds the queue with the Lambda environment's AWS configuration (awsenv: the Lambda
// role's credentials and region).
func NewSQS(ctx context.Context, url string) (*SQS, error) {
	cfg, err := awsenv.Load(ctx)
	if err != nil {
		return nil, fmt.Errorf("queue: aws config: %w", err)
	}
	return &SQS{Client: sqs.NewFromConfig(cfg), URL: url}, nil
}

// DelaySeconds is the SQS delay for d: rounded up to whole seconds and
// clamped to 0..900 (SQS's maximum; longer waits are the sweep's).
func DelaySeconds(d time.Duration) int32 {
	if d <= 0 {
		return 0
	}
	s := math.Ceil(d.Seconds())
	if s > MaxDelay.Seconds() {
		s = MaxDelay.Seconds()
	}
	return int32(s)
}

// Wake implements Queue with SendMessage and DelaySeconds.
func (q *SQS) Wake(ctx context.Context, j Job, d time.Duration) error {
	body, err := json.Marshal(j)
	if err != nil {
		return err
	}
	s := string(body)
	_, err = q.Client.SendMessage(ctx, &sqs.SendMessageInput{QueueUrl: &q.URL, MessageBody: &s, DelaySeconds: DelaySeconds(d)})
	if err != nil {
		return fmt.Errorf("queue: sqs send %s: %w", j, err)
	}
	return nil
}

// Consume is the Lambda entry point of an SQS consumer: it hands every
// record of the batch to h and reports the ones that failed (or could not
// be decoded) as batch item failures, so only those are delivered again
// (the event source mapping must enable ReportBatchItemFailures). A message
// that keeps failing ends in the dead-letter queue.
func Consume(h Handler, log *slog.Logger) func(ctx context.Context, ev events.SQSEvent) (events.SQSEventResponse, error) {
	if log == nil {
		log = slog.Default()
	}
	return func(ctx context.Context, ev events.SQSEvent) (events.SQSEventResponse, error) {
		resp := events.SQSEventResponse{BatchItemFailures: []events.SQSBatchItemFailure{}}
		for _, rec := range ev.Records {
			var j Job
			if err := json.Unmarshal([]byte(rec.Body), &j); err != nil || j.Tipo == "" || j.EmpresaID <= 0 || j.ID <= 0 {
				log.Error("queue: undecodable message", "message_id", rec.MessageId)
				resp.BatchItemFailures = append(resp.BatchItemFailures, events.SQSBatchItemFailure{ItemIdentifier: rec.MessageId})
				continue
			}
			if err := h(ctx, j); err != nil {
				log.Error("queue: job failed", "message_id", rec.MessageId, "job", j.String(), "error", err.Error())
				resp.BatchItemFailures = append(resp.BatchItemFailures, events.SQSBatchItemFailure{ItemIdentifier: rec.MessageId})
			}
		}
		return resp, nil
	}
}
