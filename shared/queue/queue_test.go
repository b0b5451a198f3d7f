package queue

import (
	"context"
	"encoding/json"
	"errors"
	"testing"
	"time"

	"github.com/aws/aws-lambda-go/events"
	"github.com/aws/aws-sdk-go-v2/service/sqs"
	"github.com/erpcr/erp/shared/testenv/reloj"
)

func TestLocalDeliversJobsWhenTheClockSaysSo(t *testing.T) {
	clk := reloj.En(time.Date(2026, 11, 21, 10, 0, 0, 0, time.UTC))
	q := NewLocal(clk.Now)
	ctx := context.Background()
	var got []int64
	h := func(_ context.Context, j Job) error { got = append(got, j.ID); return nil }
	_ = q.Wake(ctx, Job{Tipo: "x", EmpresaID: 1, ID: 2}, 30*time.Second)
	_ = q.Wake(ctx, Job{Tipo: "x", EmpresaID: 1, ID: 1}, 0)
	if n, err := q.Drain(ctx, h); n != 1 || err != nil || len(got) != 1 || got[0] != 1 {
		t.Fatalf("first drain: %d %v %v", n, err, got)
	}
	clk.Avanzar(29 * time.Second)
	if n, _ := q.Drain(ctx, h); n != 0 {
		t.Fatalf("a job ran early")
	}
	clk.Avanzar(time.Second)
	if n, _ := q.Drain(ctx, h); n != 1 || got[1] != 2 || q.Len() != 0 {
		t.Fatalf("due job: %d %v", n, got)
	}
}

func TestLocalDrainRunsJobsWokenWithoutDelayAndRedeliversFailures(t *testing.T) {
	clk := reloj.En(time.Unix(0, 0))
	q := NewLocal(clk.Now)
	ctx := context.Background()
	calls := 0
	h := func(ctx context.Context, j Job) error {
		calls++
		switch j.ID {
		case 1:
			return q.Wake(ctx, Job{Tipo: "x", EmpresaID: 1, ID: 2}, 0)
		case 2:
			return errors.New("falla")
		}
		return nil
	}
	_ = q.Wake(ctx, Job{Tipo: "x", EmpresaID: 1, ID: 1}, 0)
	n, err := q.Drain(ctx, h)
	if n != 2 || err == nil || calls != 2 {
		t.Fatalf("drain: %d %v calls %d", n, err, calls)
	}
	p := q.Pending()
	if len(p) != 1 || p[0].Job.ID != 2 || !p[0].Due.Equal(clk.Now().Add(30*time.Second)) {
		t.Fatalf("failed job not redelivered after 30 s: %+v", p)
	}
}

func TestLocalRunStopsWithItsContext(t *testing.T) {
	q := NewLocal(nil)
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	ran := make(chan Job, 1)
	go func() {
		_ = q.Run(ctx, func(_ context.Context, j Job) error { ran <- j; return nil }, 10*time.Millisecond)
		close(done)
	}()
	_ = q.Wake(ctx, Job{Tipo: "x", EmpresaID: 1, ID: 9}, 0)
	if j := <-ran; j.ID != 9 {
		t.Fatalf("job %v", j)
	}
	cancel()
	<-done
}

type fakeSQS struct{ in []*sqs.SendMessageInput }

func (f *fakeSQS) SendMessage(_ context.Context, in *sqs.SendMessageInput, _ ...func(*sqs.Options)) (*sqs.SendMessageOutput, error) {
	f.in = append(f.in, in)
	return &sqs.SendMessageOutput{}, nil
}

func TestSQSSendsTheJobWithItsDelayClampedTo15Minutes(t *testing.T) {
	f := &fakeSQS{}
	q := &SQS{Client: f, URL: "https://sqs.us-east-1.amazonaws.com/123/erp-hacienda"}
	ctx := context.Background()
	for _, d := range []time.Duration{0, 1500 * time.Millisecond, 30 * time.Second, time.Hour} {
		if err := q.Wake(ctx, Job{Tipo: "hacienda", EmpresaID: 3, ID: 7}, d); err != nil {
			t.Fatal(err)
		}
	}
	want := []int32{0, 2, 30, 900}
	for i, in := range f.in {
		if in.DelaySeconds != want[i] || *in.QueueUrl != q.URL {
			t.Errorf("message %d: delay %d url %s", i, in.DelaySeconds, *in.QueueUrl)
		}
		var j Job
		if err := json.Unmarshal([]byte(*in.MessageBody), &j); err != nil || j != (Job{Tipo: "hacienda", EmpresaID: 3, ID: 7}) {
			t.Errorf("body %s", *in.MessageBody)
		}
	}
}

func TestConsumeReportsOnlyTheFailedRecords(t *testing.T) {
	h := func(_ context.Context, j Job) error {
		if j.ID == 2 {
			return errors.New("falla")
		}
		return nil
	}
	ev := events.SQSEvent{Records: []events.SQSMessage{
		{MessageId: "a", Body: `{"tipo":"hacienda","empresa_id":1,"id":1}`},
		{MessageId: "b", Body: `{"tipo":"hacienda","empresa_id":1,"id":2}`},
		{MessageId: "c", Body: `no es json`},
	}}
	resp, err := Consume(h, nil)(context.Background(), ev)
	if err != nil || len(resp.BatchItemFailures) != 2 || resp.BatchItemFailures[0].ItemIdentifier != "b" || resp.BatchItemFailures[1].ItemIdentifier != "c" {
		t.Fatalf("%+v %v", resp, err)
	}
}
