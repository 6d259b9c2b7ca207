// The import graph is checked from `go list`'s view of each package's direct, non-test
// imports, so a forbidden import fails here before it spreads.
package archtest

import (
	"os/exec"
	"strings"
	"testing"
)

const module = "github.com/agentmux/agentmux"

// allowed maps a project package (relative to the module) to the project packages it may
// import directly. A package missing from the map may import nothing of the project.
//
// The layers, top to bottom: cmd/agentmux wires; ui is the TUI (bubbletea model and
// rendering) and reaches panes only through session's API, never ptyhost, relay or
// parser; tty is the outer terminal; session is the core (panes, relay, members, the
// event loop) and knows nothing of screens; the leaves import nothing of the project
// but relay's types from parser.
var allowed = map[string][]string{
	"cmd/agentmux": {"action", "docs", "peer", "ui", "session", "demo", "ptyhost", "keys", "parser", "hub", "client", "proto", "store", "dirs", "server", "attach", "web", "mesh", "worktree", "hooks", "mcp", "usage", "usage/opencode", "notify"},
	"ui":           {"action", "session", "tty", "vterm", "keys", "ui/quietterm"},
	"tty":          {"keys", "vterm"},
	// session names proto's types in what it offers the socket (Panes, Events, Send's
	// options), so that it is the hub's Core as it is; it never imports hub.
	"session": {"relay", "parser", "ptyhost", "vterm", "keys", "proto", "usage"},
	"relay":   {"parser", "usage"},
	"demo":    {"keys"},
	// The PTY harness the tests of e2e, internal/sysbench and agents share.
	"internal/ptytest": {"vterm"},
	// The session socket the tests of hub, session, mesh and cmd/agentmux start.
	"internal/hubtest": {"hub", "store", "dirs"},
	// The fake pane process the tests of session and ui share.
	"internal/fakeproc": {"ptyhost"},
	// The standalone fake model server used by `make test-agents`.
	"internal/mockmodel/cmd/mockmodel": {"internal/mockmodel"},

	// The session socket: the server (hub) and its client; proto imports nothing of the
	// project, and dirs (where the state folder and the session sockets are) nothing
	// either, so that client and hooks find sockets without linking the hub or SQLite;
	// store takes its private folder from dirs. None of them sees ui. hub declares the
	// Core it needs and *session.Session is it, with no adapter package in between.
	"hub":    {"proto", "store", "peer", "accept", "internal/mailbox"},
	"client": {"proto", "dirs"},
	"store":  {"dirs"},
	// The mesh: sessions on many machines through NATS, a client of the session
	// core through hub.Core and of the store.
	"mesh": {"hub", "proto", "store", "internal/mailbox"},
	// The MCP server: agents' tools, a thin client of the session socket.
	"mcp": {"action", "proto", "client"},

	// The action vocabulary every road names its actions by: a leaf, naming the frame
	// types the socket asks them with.
	"action": {"proto"},

	// The session as a server: server runs the ui for each attached terminal and hands
	// the hub its connections; attach is the attach stream's wire and the thin client.
	"server": {"ui", "session", "attach", "proto", "peer", "accept"},
	"attach": {"proto", "tty"},

	// The agents' own hooks (Claude, Codex, Gemini's home of its own) and `agentmux
	// hook`: a leaf beside session, never ui, tty, hub or the store.
	"hooks": {"session", "parser", "proto", "client"},

	// What the agents spend: the usage readers, the price table and the budget forms; a
	// leaf that the relay (budgets), the session (its meters) and cmd (config) use.
	"usage": {},
	// opencode's usage, from its SQLite database: apart from usage so that the relay
	// and the hooks do not link SQLite; cmd hands it to the session.
	"usage/opencode": {"usage"},

	// The web view: a client of the session core, reading pictures (vterm's types) and
	// the store's history; never ui or tty, and nothing but cmd imports it.
	"web": {"action", "session", "store", "vterm"},

	// Notifications out (a command, a webhook, ntfy): a client of the session core's
	// events, naming proto's asks in its JSON; nothing but cmd imports it.
	"notify": {"session", "proto"},

	// Agents' git worktrees: git run where a pane's program runs (ptyhost.RunConfined).
	"worktree": {"ptyhost"},
}

// tuiOnly are external packages that only ui (and its own packages below it) may import.
var tuiOnly = []string{
	"github.com/charmbracelet/bubbletea",
	"github.com/charmbracelet/lipgloss",
}

func TestImportGraph(t *testing.T) {
	out, err := exec.Command("go", "list", "-f", "{{.ImportPath}} {{join .Imports \" \"}}", module+"/...").CombinedOutput()
	if err != nil {
		t.Fatalf("go list: %v\n%s", err, out)
	}
	seen := 0
	for _, line := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		fields := strings.Fields(line)
		if len(fields) == 0 {
			continue
		}
		pkg := strings.TrimPrefix(strings.TrimPrefix(fields[0], module), "/")
		seen++
		ok := map[string]bool{}
		for _, a := range allowed[pkg] {
			ok[a] = true
		}
		for _, imp := range fields[1:] {
			if rel, inProject := strings.CutPrefix(imp, module+"/"); inProject {
				if !ok[rel] {
					t.Errorf("%s imports %s: not allowed by the package graph", pkg, rel)
				}
				continue
			}
			for _, tui := range tuiOnly {
				if (imp == tui || strings.HasPrefix(imp, tui+"/")) && pkg != "ui" && !strings.HasPrefix(pkg, "ui/") {
					t.Errorf("%s imports %s: only ui may", pkg, imp)
				}
			}
		}
	}
	if seen < 2 {
		t.Fatalf("go list saw %d packages; expected the whole module", seen)
	}
}

// TestSocketIsAClientOfTheCore keeps the session socket a client of the core like the
// TUI: hub reaches the session only through the Core interface it declares, so nothing
// hub depends on, directly or through another package, is session; and no adapter
// package (a "bridge") stands between them.
func TestSocketIsAClientOfTheCore(t *testing.T) {
	out, err := exec.Command("go", "list", "-deps", module+"/hub").CombinedOutput()
	if err != nil {
		t.Fatalf("go list -deps: %v\n%s", err, out)
	}
	deps := strings.Fields(string(out))
	if len(deps) < 2 {
		t.Fatalf("go list -deps saw %d packages of hub", len(deps))
	}
	for _, d := range deps {
		if d == module+"/session" {
			t.Errorf("hub depends on session: the socket must reach the core through hub.Core only")
		}
	}
	out, err = exec.Command("go", "list", module+"/...").CombinedOutput()
	if err != nil {
		t.Fatalf("go list: %v\n%s", err, out)
	}
	for _, pkg := range strings.Fields(string(out)) {
		if pkg == module+"/bridge" || strings.HasSuffix(pkg, "/bridge") {
			t.Errorf("%s: no adapter package between the core and its clients (*session.Session is hub.Core as it is)", pkg)
		}
	}
}

// TestClientsLinkNoServer keeps the socket's clients light: client (every CLI command
// that talks to a session) and hooks (`agentmux hook`, run at each agent turn) find
// sockets through dirs and link neither the hub nor SQLite, directly or through
// another package.
func TestClientsLinkNoServer(t *testing.T) {
	for _, pkg := range []string{"client", "hooks"} {
		out, err := exec.Command("go", "list", "-deps", module+"/"+pkg).CombinedOutput()
		if err != nil {
			t.Fatalf("go list -deps: %v\n%s", err, out)
		}
		deps := strings.Fields(string(out))
		if len(deps) < 2 {
			t.Fatalf("go list -deps saw %d packages of %s", len(deps), pkg)
		}
		for _, d := range deps {
			if d == module+"/hub" || d == module+"/store" || strings.Contains(d, "sqlite") {
				t.Errorf("%s depends on %s", pkg, d)
			}
		}
	}
}
