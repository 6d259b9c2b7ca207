package e2e

// agentmux mcp is driven as an agent CLI drives it: the MCP SDK's own client starts
// the real binary (built with -race) and speaks JSON-RPC over its stdin and stdout,
// against a real detached session whose panes run the fake agent. The person's server
// (started by the test) lists and calls every tool and gets each bad input refused
// with the field named; a server started inside a pane (its stdio on FIFOs the test
// holds) speaks for that pane, proved as the socket proves any client. The session
// ending turns a pending wait into "ended"; a client closing mid-call gets the call
// answered ("pending", with a token) from a server that then exits cleanly.

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"syscall"
	"testing"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

// mcpClient starts `agentmux mcp` with args and connects the SDK's client to it.
func (e sockEnv) mcpClient(args ...string) (*sdk.ClientSession, *exec.Cmd, *strings.Builder) {
	e.t.Helper()
	cmd := e.command(context.Background(), append([]string{"mcp"}, args...)...)
	var stderr strings.Builder
	cmd.Stderr = &stderr
	ctx, cancel := context.WithTimeout(context.Background(), waitLong)
	defer cancel()
	cs, err := sdk.NewClient(&sdk.Implementation{Name: "e2e", Version: "1"}, nil).
		Connect(ctx, &sdk.CommandTransport{Command: cmd, TerminateDuration: waitLong}, nil)
	if err != nil {
		e.t.Fatalf("agentmux mcp %s: %v\n%s", strings.Join(args, " "), err, stderr.String())
	}
	e.t.Cleanup(func() {
		cs.Close()
		if strings.Contains(stderr.String(), "DATA RACE") {
			e.t.Errorf("agentmux mcp: a race:\n%s", stderr.String())
		}
	})
	return cs, cmd, &stderr
}

// call calls tool name with args and returns its structured result; a tool error
// fails the test.
func call(t *testing.T, cs *sdk.ClientSession, name string, args map[string]any) map[string]any {
	t.Helper()
	res, err := callTool(cs, name, args)
	if err != nil {
		t.Fatalf("%s %v: %v", name, args, err)
	}
	if res.IsError {
		t.Fatalf("%s %v: tool error %s", name, args, toolText(res))
	}
	var out map[string]any
	b, _ := json.Marshal(res.StructuredContent)
	if err := json.Unmarshal(b, &out); err != nil {
		t.Fatalf("%s: structured content %s: %v", name, b, err)
	}
	return out
}

func callTool(cs *sdk.ClientSession, name string, args map[string]any) (*sdk.CallToolResult, error) {
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	return cs.CallTool(ctx, &sdk.CallToolParams{Name: name, Arguments: args})
}

// toolText is a tool result's text content.
func toolText(res *sdk.CallToolResult) string {
	var b strings.Builder
	for _, c := range res.Content {
		if tc, ok := c.(*sdk.TextContent); ok {
			b.WriteString(tc.Text)
		}
	}
	return b.String()
}

// refused calls tool name with args and returns the tool error's text; a success
// fails the test.
func refused(t *testing.T, cs *sdk.ClientSession, name string, args map[string]any) string {
	t.Helper()
	res, err := callTool(cs, name, args)
	if err != nil {
		t.Fatalf("%s %v: %v", name, args, err)
	}
	if !res.IsError {
		t.Fatalf("%s %v: succeeded (%s), want a tool error", name, args, toolText(res))
	}
	return toolText(res)
}

func TestMCPToolsOverStdio(t *testing.T) {
	t.Parallel()
	env := newSockEnv(t)
	if code, out, errOut := env.detached([]string{"mc"}, "--detached", "--session", "mc", agent("bob", "--style", "inline")); code != 0 {
		t.Fatalf("agentmux --detached: exit %d: %s%s", code, out, errOut)
	}
	cs, _, _ := env.mcpClient("--session", "mc")

	// initialize happened in Connect: the server says who it is.
	if got := cs.InitializeResult().ServerInfo.Name; got != "agentmux" {
		t.Errorf("server name %q, want agentmux", got)
	}
	ctx, cancel := context.WithTimeout(context.Background(), waitLong)
	defer cancel()
	tools, err := cs.ListTools(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, tool := range tools.Tools {
		names = append(names, tool.Name)
		if tool.Description == "" || tool.InputSchema == nil {
			t.Errorf("tool %s: no description or schema", tool.Name)
		}
	}
	sort.Strings(names)
	if got := strings.Join(names, " "); got != "capture history members read send wait" {
		t.Errorf("tools %q", got)
	}

	m := call(t, cs, "members", nil)
	if m["session"] != "mc" || m["you"] != "the person (you)" {
		t.Errorf("members: session %v, you %v", m["session"], m["you"])
	}
	if ms, _ := m["members"].([]any); len(ms) != 1 || ms[0].(map[string]any)["name"] != "bob" || ms[0].(map[string]any)["number"] != 1.0 {
		t.Errorf("members: %v", m["members"])
	}

	// send, then wait for the answer: the message goes in, bob answers it.
	sent := call(t, cs, "send", map[string]any{"to": "bob", "message": "what is two plus two", "mode": "important", "timeout": "5m"})
	id, _ := sent["id"].(string)
	if id == "" || sent["phase"] != "queued" {
		t.Fatalf("send: %v", sent)
	}
	ans := call(t, cs, "wait", map[string]any{"id": id, "answer": true})
	if ans["status"] != "answered" || ans["member"] != "bob" || !strings.Contains(fmt.Sprint(ans["text"]), "bob heard:") {
		t.Errorf("wait for the answer: %v", ans)
	}
	if w := call(t, cs, "wait", map[string]any{"id": id}); w["status"] != "confirmed" || w["member"] != "bob" {
		t.Errorf("wait for confirmed: %v", w)
	}
	r := call(t, cs, "read", map[string]any{"id": id})
	if r["from"] != "you" || r["body"] != "what is two plus two" || fmt.Sprint(r["recipients"]) != "[map[phase:confirmed to:bob]]" {
		t.Errorf("read: %v", r)
	}
	h := call(t, cs, "history", map[string]any{"member": "bob", "since": "1h"})
	if msgs, _ := h["messages"].([]any); len(msgs) == 0 || msgs[0].(map[string]any)["id"] != id {
		t.Errorf("history: %v", h)
	}
	if c := call(t, cs, "capture", map[string]any{"target": "1", "lines": 50}); !strings.Contains(fmt.Sprint(c["screen"]), "what is two plus two") {
		t.Errorf("capture: %v", c)
	}

	// Nothing comes: pending within max_seconds, with a token that goes on waiting.
	p := call(t, cs, "wait", map[string]any{"member": "bob", "max_seconds": 1})
	tok, _ := p["token"].(string)
	if p["status"] != "pending" || tok == "" {
		t.Fatalf("wait for a silent member: %v", p)
	}
	if p = call(t, cs, "wait", map[string]any{"token": tok, "max_seconds": 1}); p["status"] != "pending" || p["member"] != "bob" {
		t.Errorf("wait again with the token: %v", p)
	}

	// Bad input: each refusal names the field (the schema's, or the tool's own words).
	for _, c := range []struct {
		tool string
		args map[string]any
		want string
	}{
		{"send", map[string]any{"message": "hi"}, `"to"`},
		{"send", map[string]any{"to": "bob"}, `"message"`},
		{"send", map[string]any{"to": "bob", "message": "hi", "too": 1}, `"too"`},
		{"send", map[string]any{"to": "bob", "message": 7}, "message"},
		{"send", map[string]any{"to": "bob", "message": "hi", "mode": "loud"}, "mode"},
		{"send", map[string]any{"to": "bob", "message": "hi", "timeout": "soon"}, "timeout"},
		{"send", map[string]any{"to": " ", "message": "hi"}, "to: empty"},
		{"send", map[string]any{"to": "nobody", "message": "hi"}, "nobody"},
		{"send", map[string]any{"to": "bob", "message": "hi", "from": "bob"}, "passes for pane bob"},
		{"send", map[string]any{"to": "bob", "message": "hi", "from": "3"}, "sender"},
		{"wait", map[string]any{}, "id: missing"},
		{"wait", map[string]any{"token": "not-a-token"}, "token:"},
		{"wait", map[string]any{"id": id, "max_seconds": 60}, "max_seconds"},
		{"wait", map[string]any{"id": id, "phase": "eaten"}, "phase"},
		{"wait", map[string]any{"id": "m0000000000000000000000"}, "id: no message"},
		{"wait", map[string]any{"member": "ghost"}, "member: no member ghost in this session"},
		{"wait", map[string]any{"member": "77"}, "member: no pane numbered 77"},
		{"read", map[string]any{}, `"id"`},
		{"capture", map[string]any{"target": "bob", "lines": -1}, "lines"},
		{"capture", map[string]any{"target": "9"}, "9"},
		{"history", map[string]any{"limit": 1000}, "limit"},
		{"history", map[string]any{"since": "yesterday"}, "since"},
	} {
		if got := refused(t, cs, c.tool, c.args); !strings.Contains(got, c.want) {
			t.Errorf("%s %v: %q, want it to name %q", c.tool, c.args, got, c.want)
		}
	}
	if got := refused(t, cs, "send", map[string]any{"to": "nobody", "message": "hi"}); strings.Count(got, "send to") != 1 {
		t.Errorf("an error says what failed once: %q", got)
	}
	// A message over the frame limit is refused with the limit, before the socket.
	if got := refused(t, cs, "send", map[string]any{"to": "bob", "message": strings.Repeat("x", 1<<20)}); !strings.Contains(got, "limit of 1048576 bytes") {
		t.Errorf("an oversized message: %q", got)
	}

	// A call the client gives up on: the server carries on.
	gone, stop := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() {
		_, err := cs.CallTool(gone, &sdk.CallToolParams{Name: "wait", Arguments: map[string]any{"member": "bob"}})
		done <- err
	}()
	stop()
	if err := <-done; err == nil {
		t.Errorf("a cancelled wait returned no error")
	}
	if m := call(t, cs, "members", nil); m["session"] != "mc" {
		t.Errorf("members after a cancelled call: %v", m)
	}

	// The session ends under a pending wait: it says ended.
	ended := make(chan map[string]any, 1)
	go func() {
		res, err := callTool(cs, "wait", map[string]any{"member": "bob"})
		if err != nil || res.IsError {
			ended <- map[string]any{"error": fmt.Sprint(err, toolText(res))}
			return
		}
		out, _ := res.StructuredContent.(map[string]any)
		ended <- out
	}()
	env.run("kill-session", "mc")
	if w := <-ended; w["status"] != "ended" {
		t.Errorf("a wait when the session ended: %v", w)
	}
	if w := call(t, cs, "wait", map[string]any{"member": "bob"}); w["status"] != "ended" {
		t.Errorf("a wait after the session ended: %v", w)
	}
}

func TestMCPClientClosingMidCall(t *testing.T) {
	t.Parallel()
	env := newSockEnv(t)
	if code, out, errOut := env.detached([]string{"mx"}, "--detached", "--session", "mx", agent("bob")); code != 0 {
		t.Fatalf("agentmux --detached: exit %d: %s%s", code, out, errOut)
	}
	// The client at the pipe's level: initialize, a wait that would last 45 s, then
	// its side closed at once.
	cmd := env.command(context.Background(), "mcp", "--session", "mx")
	stdin, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	var stderr strings.Builder
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	lines := bufio.NewScanner(stdout)
	for i, m := range []string{
		`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"e2e","version":"1"}}}`,
		`{"jsonrpc":"2.0","method":"notifications/initialized","params":{}}`,
		`{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"wait","arguments":{"member":"bob"}}}`,
	} {
		if _, err := io.WriteString(stdin, m+"\n"); err != nil {
			t.Fatal(err)
		}
		if i == 0 && (!lines.Scan() || !strings.Contains(lines.Text(), `"id":1`)) {
			t.Fatalf("no answer to initialize: %q %v\n%s", lines.Text(), lines.Err(), stderr.String())
		}
	}
	stdin.Close()
	exited := make(chan error, 1)
	var rest strings.Builder
	go func() {
		for lines.Scan() { // until the process closed it: then Wait
			rest.WriteString(lines.Text() + "\n")
		}
		exited <- cmd.Wait()
	}()
	timer := time.NewTimer(10 * time.Second)
	defer timer.Stop()
	select {
	case err := <-exited:
		if err != nil || strings.Contains(stderr.String(), "DATA RACE") {
			t.Errorf("agentmux mcp after its client closed mid-call: %v\n%s", err, stderr.String())
		}
	case <-timer.C:
		_ = cmd.Process.Kill()
		<-exited
		t.Fatalf("agentmux mcp still ran 10 s after its client closed mid-call (its wait holds it)\n%s", stderr.String())
	}
	// The wait was answered with what it had, a token to go on from.
	if out := rest.String(); !strings.Contains(out, `"id":2`) || !strings.Contains(out, `\"status\":\"pending\"`) {
		t.Errorf("the wait in flight was not answered when the client closed: %q", out)
	}
	// The session is unharmed.
	if out := env.run("ls", "--session", "mx"); !strings.Contains(out, "bob") {
		t.Errorf("ls after the MCP client left:\n%s", out)
	}
}

func TestMCPServerInAPaneSpeaksForIt(t *testing.T) {
	t.Parallel()
	env := newSockEnv(t)
	dir := t.TempDir()
	in, out := filepath.Join(dir, "in"), filepath.Join(dir, "out")
	for _, f := range []string{in, out} {
		if err := syscall.Mkfifo(f, 0o600); err != nil {
			t.Fatal(err)
		}
	}
	// Pane "tools" runs the server with its stdio on the FIFOs: the process is the
	// pane's, as an agent CLI's MCP server would be.
	script := fmt.Sprintf("exec %s mcp <%s >%s", agentmuxBin, in, out)
	if code, o, errOut := env.detached([]string{"mp"}, "--detached", "--session", "mp", agent("bob", "--style", "inline"), "tools=sh -c '"+script+"'"); code != 0 {
		t.Fatalf("agentmux --detached: exit %d: %s%s", code, o, errOut)
	}
	w, err := os.OpenFile(in, os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	r, err := os.Open(out)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), waitLong)
	defer cancel()
	cs, err := sdk.NewClient(&sdk.Implementation{Name: "e2e", Version: "1"}, nil).Connect(ctx, &sdk.IOTransport{Reader: r, Writer: w}, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer cs.Close()

	if m := call(t, cs, "members", nil); m["you"] != "pane tools" {
		t.Errorf("members from pane tools: you %v", m["you"])
	}
	sent := call(t, cs, "send", map[string]any{"to": "bob", "message": "hello from the tools pane"})
	id, _ := sent["id"].(string)
	if w := call(t, cs, "wait", map[string]any{"id": id}); w["status"] != "confirmed" {
		t.Errorf("wait: %v", w)
	}
	if rd := call(t, cs, "read", map[string]any{"id": id}); rd["from"] != "tools" {
		t.Errorf("the message is from %v, want the pane (tools)", rd["from"])
	}
	if c := call(t, cs, "capture", map[string]any{"target": "bob", "lines": 50}); !strings.Contains(fmt.Sprint(c["screen"]), "tools (2)") {
		t.Errorf("bob's screen does not show the message headed by the pane:\n%v", c["screen"])
	}
	// A pane passes for the person no more than for another pane.
	for _, from := range []string{"you", "bob"} {
		if got := refused(t, cs, "send", map[string]any{"to": "bob", "message": "hi", "from": from}); !strings.Contains(got, "send to bob") {
			t.Errorf("send from %q out of pane tools: %q", from, got)
		}
	}
}
