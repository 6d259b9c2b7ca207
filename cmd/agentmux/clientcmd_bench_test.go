package main

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"testing"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/stretchr/testify/require"

	"github.com/agentmux/agentmux/client"
	"github.com/agentmux/agentmux/dirs"
	"github.com/agentmux/agentmux/hub"
	"github.com/agentmux/agentmux/internal/hubtest"
	"github.com/agentmux/agentmux/proto"
)

// benchSession builds agentmux and serves a hub in a temp runtime folder with a member
// "bot" to send to: the binary, the runtime folder and the session's name.
func benchSession(b *testing.B) (bin, rt, name string) {
	bin = filepath.Join(b.TempDir(), "agentmux")
	out, err := exec.Command("go", "build", "-o", bin, ".").CombinedOutput()
	require.NoError(b, err, "%s", out)
	rt = b.TempDir()
	b.Setenv("XDG_RUNTIME_DIR", rt)
	dir, err := dirs.RuntimeDir()
	require.NoError(b, err)
	name = hubtest.Start(b, dir, hub.Config{Session: "bench", MaxQueue: 1 << 20}).Name
	// The recipient: a member that said HELLO and left. It stays a member; its
	// messages are stored and wait for it.
	bot, err := client.Dial(dirs.SocketPath(dir, name), proto.Hello{Agent: "bot"})
	require.NoError(b, err)
	bot.Raw().Close()
	return bin, rt, name
}

// reportLatency reports lat's p50 and p99.
func reportLatency(b *testing.B, lat []time.Duration) {
	sort.Slice(lat, func(i, j int) bool { return lat[i] < lat[j] })
	b.ReportMetric(float64(lat[len(lat)/2].Microseconds())/1000, "p50-ms")
	b.ReportMetric(float64(lat[len(lat)*99/100].Microseconds())/1000, "p99-ms")
}

// BenchmarkSendCommand runs the built `agentmux send` against a live hub: the wall time
// from exec to its `queued` line, process start included (p50 and p99 reported).
func BenchmarkSendCommand(b *testing.B) {
	bin, rt, name := benchSession(b)
	lat := make([]time.Duration, 0, b.N)
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		t0 := time.Now()
		c := exec.Command(bin, "send", "--session", name, "bot", "the tests pass; over to you")
		c.Env = append(os.Environ(), "XDG_RUNTIME_DIR="+rt)
		out, err := c.Output()
		lat = append(lat, time.Since(t0))
		if err != nil || !strings.HasSuffix(string(out), " queued\n") {
			b.Fatalf("%s %v", out, err)
		}
	}
	b.StopTimer()
	reportLatency(b, lat)
}

// BenchmarkMCPSendTool is BenchmarkSendCommand through `agentmux mcp`: the built
// server started once, as an agent CLI starts it, then the send tool called over its
// stdio by the SDK's client: the wall time of one call to its result.
func BenchmarkMCPSendTool(b *testing.B) {
	bin, rt, name := benchSession(b)
	cmd := exec.Command(bin, "mcp", "--session", name)
	cmd.Env = append(os.Environ(), "XDG_RUNTIME_DIR="+rt)
	ctx := context.Background()
	cs, err := sdk.NewClient(&sdk.Implementation{Name: "bench", Version: "1"}, nil).Connect(ctx, &sdk.CommandTransport{Command: cmd}, nil)
	require.NoError(b, err)
	defer cs.Close()
	args := map[string]any{"to": "bot", "message": "the tests pass; over to you"}
	lat := make([]time.Duration, 0, b.N)
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		t0 := time.Now()
		res, err := cs.CallTool(ctx, &sdk.CallToolParams{Name: "send", Arguments: args})
		lat = append(lat, time.Since(t0))
		if err != nil || res.IsError {
			b.Fatalf("send: %v %+v", err, res)
		}
	}
	b.StopTimer()
	reportLatency(b, lat)
}
