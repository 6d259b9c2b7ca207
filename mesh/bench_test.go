package mesh_test

import (
	"bufio"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/agentmux/agentmux/hub"
	"github.com/agentmux/agentmux/mesh"
	"github.com/agentmux/agentmux/proto"
)

// sinkCore is a hub.Core that takes every Send at once and tells the benchmark when.
type sinkCore struct {
	hub.Core // nil: only Panes, Resolve, Send, RegisterMember and Events are used
	mu       sync.Mutex
	got      chan string
	opts     []proto.SendOptions
}

func (c *sinkCore) Panes() []proto.Member { return nil }

func (c *sinkCore) Resolve(string) (int, error) { return 1, nil } // every name is its pane

func (c *sinkCore) Send(from, to, text string, o proto.SendOptions) error {
	c.mu.Lock()
	c.opts = append(c.opts, o)
	c.mu.Unlock()
	c.got <- text
	return nil
}

func (c *sinkCore) RegisterMember(string, func(proto.RelayMessage)) (func(), error) {
	return func() {}, nil
}

func (c *sinkCore) Events() proto.Events { return &quiet{done: make(chan struct{})} }

type quiet struct {
	once sync.Once
	done chan struct{}
}

func (q *quiet) Ready() <-chan struct{} { return q.done }
func (q *quiet) Next() []proto.Event    { return nil }
func (q *quiet) Close()                 { q.once.Do(func() { close(q.done) }) }

// pair is a hub and two nodes, laptop sending to buildbox's sink.
func benchPair(b *testing.B) (*mesh.Node, *sinkCore, func()) {
	dir := b.TempDir()
	h, err := mesh.Serve(mesh.HubConfig{Dir: dir, Listen: "127.0.0.1:0"})
	require.NoError(b, err)
	join := func(name string, core hub.Core) *mesh.Node {
		creds, err := mesh.WriteCreds(dir, name)
		require.NoError(b, err)
		n, err := mesh.Join(mesh.Options{URL: h.URL(), Session: name, CredsFile: creds, Store: openStoreB(b), Core: core})
		require.NoError(b, err)
		return n
	}
	sink := &sinkCore{got: make(chan string, 1<<16)}
	recv := join("buildbox", sink)
	send := join("laptop", &sinkCore{got: make(chan string, 1<<16)})
	return send, sink, func() { send.Close(); recv.Close(); h.Close() }
}

// Cross-session latency: Send on one node to the receiving core's Send on the other,
// through the hub (JetStream publish, acknowledgement, consumer, store write).
func BenchmarkCrossSessionLatency(b *testing.B) {
	send, sink, stop := benchPair(b)
	defer stop()
	var lat []time.Duration
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		t0 := time.Now()
		_, err := send.Send("alice", "bob", "buildbox", "ping "+strconv.Itoa(i), proto.SendOptions{})
		require.NoError(b, err)
		<-sink.got
		lat = append(lat, time.Since(t0))
	}
	b.StopTimer()
	slices.Sort(lat)
	b.ReportMetric(float64(lat[len(lat)/2].Microseconds()), "p50-µs")
	b.ReportMetric(float64(lat[len(lat)*99/100].Microseconds()), "p99-µs")
}

// Sustained throughput: b.N messages sent at once, every one received, none twice.
func BenchmarkCrossSessionThroughput(b *testing.B) {
	send, sink, stop := benchPair(b)
	defer stop()
	b.ResetTimer()
	t0 := time.Now()
	for i := 0; i < b.N; i++ {
		_, err := send.Send("alice", "bob", "buildbox", "m"+strconv.Itoa(i), proto.SendOptions{})
		require.NoError(b, err)
	}
	seen := map[string]bool{}
	for len(seen) < b.N {
		m := <-sink.got
		require.False(b, seen[m], "%s twice", m)
		seen[m] = true
	}
	b.ReportMetric(float64(b.N)/time.Since(t0).Seconds(), "msgs/s")
}

// Idle cost: CPU two joined sessions (nodes, in this process) and their hub (a process
// of its own, hubProcess) use in 5 s with nothing sent, apart: a session is a NATS
// client, and its hub the NATS server whose timers tick.
func BenchmarkIdleCPU(b *testing.B) {
	url, dir, pid := hubProcess(b)
	join := func(name string) *mesh.Node {
		creds, err := mesh.WriteCreds(dir, name)
		require.NoError(b, err)
		n, err := mesh.Join(mesh.Options{URL: url, Session: name, CredsFile: creds, Store: openStoreB(b),
			Core: &sinkCore{got: make(chan string, 1)}})
		require.NoError(b, err)
		return n
	}
	laptop, buildbox := join("laptop"), join("buildbox")
	defer buildbox.Close()
	defer laptop.Close()
	time.Sleep(time.Second) // let the joins' background work settle
	b.ResetTimer()
	var before, after syscall.Rusage
	_ = syscall.Getrusage(syscall.RUSAGE_SELF, &before)
	hub0 := cpuOf(b, pid)
	time.Sleep(5 * time.Second) // measuring idleness: nothing to wait for
	hub1 := cpuOf(b, pid)
	_ = syscall.Getrusage(syscall.RUSAGE_SELF, &after)
	self := time.Duration(after.Utime.Nano()+after.Stime.Nano()-before.Utime.Nano()-before.Stime.Nano()) / 5
	b.ReportMetric(float64(self.Microseconds())/1000, "sessions-cpu-ms/s")
	b.ReportMetric(float64((hub1-hub0)/5)/1e6, "hub-cpu-ms/s")
}

// hubEnv tells the test binary to run a hub in the folder it names (hubProcess).
const hubEnv = "AGENTMUX_MESH_BENCH_HUB"

// serveHub runs a hub for hubProcess: it prints its URL and serves until its input
// closes.
func serveHub(dir string) int {
	h, err := mesh.Serve(mesh.HubConfig{Dir: dir, Listen: "127.0.0.1:0"})
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	fmt.Println(h.URL())
	_, _ = io.Copy(io.Discard, os.Stdin)
	h.Close()
	return 0
}

// hubProcess starts a hub in a child process (this test binary) and returns its URL,
// its state folder and its pid; it ends with the benchmark.
func hubProcess(b *testing.B) (url, dir string, pid int) {
	dir = filepath.Join(b.TempDir(), "mesh")
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	cmd.Env = append(os.Environ(), hubEnv+"="+dir)
	in, err := cmd.StdinPipe()
	require.NoError(b, err)
	out, err := cmd.StdoutPipe()
	require.NoError(b, err)
	cmd.Stderr = os.Stderr
	require.NoError(b, cmd.Start())
	b.Cleanup(func() { in.Close(); _ = cmd.Wait() })
	line, err := bufio.NewReader(out).ReadString('\n')
	require.NoError(b, err, "the hub's URL")
	return strings.TrimSpace(line), dir, cmd.Process.Pid
}

// cpuOf is the CPU time process pid's threads have used, in ns (schedstat).
func cpuOf(b *testing.B, pid int) int64 {
	tasks, err := filepath.Glob(fmt.Sprintf("/proc/%d/task/*/schedstat", pid))
	require.NoError(b, err)
	var total int64
	for _, t := range tasks {
		raw, err := os.ReadFile(t)
		if err != nil {
			continue // a thread that ended
		}
		var ns int64
		if _, err := fmt.Sscan(string(raw), &ns); err == nil {
			total += ns
		}
	}
	return total
}

// Joining: Dial (connect, log in, name check, stream and consumer) and Start, then
// Close, against a running hub.
func BenchmarkJoin(b *testing.B) {
	dir := b.TempDir()
	h, err := mesh.Serve(mesh.HubConfig{Dir: dir, Listen: "127.0.0.1:0"})
	require.NoError(b, err)
	defer h.Close()
	creds, err := mesh.WriteCreds(dir, "laptop")
	require.NoError(b, err)
	st := openStoreB(b)
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		n, err := mesh.Join(mesh.Options{URL: h.URL(), Session: "laptop", CredsFile: creds, Store: st, Core: &sinkCore{got: make(chan string, 1)}})
		require.NoError(b, err)
		n.Close()
	}
}
