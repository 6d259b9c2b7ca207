package hub_test

import (
	"fmt"
	"sort"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/agentmux/agentmux/client"
	"github.com/agentmux/agentmux/hub"
	"github.com/agentmux/agentmux/proto"
)

// BenchmarkSendDeliver measures one SEND from alice to the DELIVER bob reads, through
// the store (written before it is queued), one at a time; it reports p50 and p99.
func BenchmarkSendDeliver(b *testing.B) {
	e := start(b, nil, "", nil)
	alice := benchMember(b, e.path, "alice")
	bob := benchMember(b, e.path, "bob")
	body := "please review the tests in hub/hub_test.go and tell me what is missing"
	lat := make([]time.Duration, 0, b.N)
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		env, _ := proto.New(proto.TypeSend, fmt.Sprint("s", i), 1, proto.Send{Body: body})
		env.To = "bob"
		t0 := time.Now()
		if err := alice.WriteEnvelope(env); err != nil {
			b.Fatal(err)
		}
		d, err := bob.Read()
		if err != nil || d.Type != proto.TypeDeliver {
			b.Fatalf("%v %v", d, err)
		}
		lat = append(lat, time.Since(t0))
		if err := bob.Ack(d); err != nil {
			b.Fatal(err)
		}
		if a, err := alice.Read(); err != nil || a.Type != proto.TypeAck {
			b.Fatalf("%v %v", a, err)
		}
	}
	b.StopTimer()
	sort.Slice(lat, func(i, j int) bool { return lat[i] < lat[j] })
	b.ReportMetric(float64(lat[len(lat)/2].Microseconds()), "p50-µs")
	b.ReportMetric(float64(lat[len(lat)*99/100].Microseconds()), "p99-µs")
}

// BenchmarkThroughput pipelines b.N SENDs from alice, at most 256 unanswered (a client
// that sends without reading its answers is dropped, as it should be), while bob reads
// and ACKs; it checks that every message arrived once, in order, and reports messages
// per second.
func BenchmarkThroughput(b *testing.B) {
	e := start(b, nil, "", func(c *hub.Config) { c.MaxQueue = 1 << 30 })
	alice := benchMember(b, e.path, "alice")
	bob := benchMember(b, e.path, "bob")
	window := make(chan struct{}, 256)
	acks := make(chan error, 1)
	go func() { // alice's ACKs, read beside her writes
		for i := 0; i < b.N; i++ {
			a, err := alice.Read()
			<-window
			if err == nil && a.Type != proto.TypeAck {
				err = fmt.Errorf("got %s", a.Type)
			}
			if err != nil {
				acks <- err
				return
			}
		}
		acks <- nil
	}()
	body := "a status line from a build: 312 tests passed, 0 failed"
	b.ResetTimer()
	t0 := time.Now()
	go func() {
		for i := 0; i < b.N; i++ {
			env, _ := proto.New(proto.TypeSend, fmt.Sprint("s", i), 1, proto.Send{Body: body})
			env.To = "bob"
			window <- struct{}{}
			if err := alice.WriteEnvelope(env); err != nil {
				return
			}
		}
	}()
	for i := 0; i < b.N; i++ {
		d, err := bob.Read()
		if err != nil || d.Type != proto.TypeDeliver || d.Delivery.Seq != int64(i+1) {
			b.Fatalf("message %d: %v %v", i, d, err)
		}
		if err := bob.Ack(d); err != nil {
			b.Fatal(err)
		}
	}
	el := time.Since(t0)
	b.StopTimer()
	require.NoError(b, <-acks)
	b.ReportMetric(float64(b.N)/el.Seconds(), "msgs/s")
}

func benchMember(b *testing.B, path, name string) *client.Conn {
	c, err := client.Dial(path, proto.Hello{Agent: name})
	require.NoError(b, err)
	c.SetDeadline(time.Now().Add(time.Minute)) // a lost message fails, never hangs
	b.Cleanup(func() { c.Raw().Close() })
	return c
}
