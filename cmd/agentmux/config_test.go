package main

// Strategy: config.toml texts → the relay's delivery settings or the one-line error a
// person reads; and the whole command with XDG_CONFIG_HOME pointing at a malformed file
// exits 2 before any terminal is needed, as for profiles.

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/agentmux/agentmux/session"
)

func TestParseConfig(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want session.DeliveryRules
		err  string
	}{
		{in: "", want: session.DeliveryRules{}},
		{in: "[delivery]\ninput_stale_timeout = \"4s\"\nmax_batch = 3\nurgent_delay = \"250ms\"\ndefault_timeout = \"10m\"\n",
			want: session.DeliveryRules{InputStale: 4 * time.Second, MaxBatch: 3, UrgentDelay: 250 * time.Millisecond, DefaultTimeout: 10 * time.Minute}},
		{in: "[delivery]\ndefault_timeout = \"0s\"\n", want: session.DeliveryRules{}},
		{in: "[delivery]\nhook_wait = \"2s\"\n", want: session.DeliveryRules{HookWait: 2 * time.Second}},
		{in: "[delivery]\nhook_wait = \"0s\"\n", err: "[delivery] hook_wait must be positive, not 0s"},
		{in: "[delivery]\ninput_stale_timeout = \"4\"\n", err: `[delivery] input_stale_timeout: "4" needs a unit, e.g. "4s"`},
		{in: "[delivery]\ninput_stale_timeout = 5\n", err: `[delivery] input_stale_timeout = 5 needs a unit, in quotes: input_stale_timeout = "5s"`},
		{in: "[delivery]\nurgent_delay = true\n", err: `[delivery] urgent_delay = true: write a duration in quotes, e.g. urgent_delay = "500ms"`},
		{in: "[delivery]\ninput_stale_timeout = \"soon\"\n", err: `[delivery] input_stale_timeout: "soon" is not a duration (write it as Go does: "2m")`},
		{in: "[delivery]\nurgent_delay = \"0s\"\n", err: "[delivery] urgent_delay must be positive, not 0s"},
		{in: "[delivery]\nurgent_delay = \"-1s\"\n", err: "[delivery] urgent_delay must be positive, not -1s"},
		{in: "[delivery]\nmax_batch = 0\n", err: "[delivery] max_batch must be at least 1, not 0"},
		{in: "[delivery]\nmax_btach = 3\n", err: "unknown keys: delivery.max_btach"},
		{in: "[delivery]\nmax_batch = \"3\"\n", err: `[delivery] max_batch = "3": want a whole number, without quotes`},
		{in: "[ui]\nallow_clipboard = \"yes\"\n", err: `[ui] allow_clipboard = "yes": want true or false, without quotes`},
		{in: "[delivery\n", err: "toml"},
		{in: "[store]\nretention = \"0s\"\n", err: "[store] retention must be positive, not 0s"},
		{in: "[store]\nretention = \"30d\"\n", err: `[store] retention: "30d" is not a duration (write it as Go does: "720h")`},
		{in: "[store]\nkeep = \"1h\"\n", err: "unknown keys: store.keep"},
	} {
		conf, err := parseConfig([]byte(tc.in))
		got := conf.Delivery
		switch {
		case tc.err == "" && (err != nil || got != tc.want):
			t.Errorf("%q: %+v, %v; want %+v", tc.in, got, err, tc.want)
		case tc.err != "" && (err == nil || !strings.Contains(err.Error(), tc.err) || strings.Contains(err.Error(), "\n")):
			t.Errorf("%q: error %v, want one line with %q", tc.in, err, tc.err)
		}
	}
}

func TestAllowClipboard(t *testing.T) {
	conf, err := parseConfig([]byte("[ui]\nallow_clipboard = true\n"))
	if err != nil || !conf.AllowClipboard {
		t.Errorf("allow_clipboard = true: %+v, %v", conf, err)
	}
	conf, err = parseConfig(nil)
	if err != nil || conf.AllowClipboard {
		t.Errorf("no config: %+v, %v; want the clipboard closed", conf, err)
	}
}

func TestStoreRetention(t *testing.T) {
	conf, err := parseConfig([]byte("[store]\nretention = \"48h\"\n"))
	if err != nil || conf.Retention != 48*time.Hour || conf.Delivery != (session.DeliveryRules{}) {
		t.Fatalf("%+v, %v; want a retention of 48h and no delivery settings", conf, err)
	}
}

func TestMalformedConfigExit2(t *testing.T) {
	dir := t.TempDir()
	t.Setenv("XDG_CONFIG_HOME", dir)
	if err := os.MkdirAll(filepath.Join(dir, "agentmux"), 0o700); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(dir, "agentmux", "config.toml")
	if err := os.WriteFile(path, []byte("[delivery]\nmax_batch = 0\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	var out, errb bytes.Buffer
	code, err := run(context.Background(), []string{"true"}, nil, &out, &errb)
	if code != 2 || err == nil || err.Error() != path+": [delivery] max_batch must be at least 1, not 0" {
		t.Fatalf("exit %d, err %v: want 2 and the path with the reason", code, err)
	}
}

func TestConfigFileOptional(t *testing.T) {
	t.Setenv("XDG_CONFIG_HOME", t.TempDir())
	if d, err := loadConfig(); err != nil || !reflect.DeepEqual(d, settings{}) {
		t.Fatalf("no file: %+v, %v", d, err)
	}
}

// [web] starts the web view with the session; --web and its flags override it.
func TestWebSettings(t *testing.T) {
	conf, err := parseConfig([]byte("[web]\nweb = true\nweb_listen = \"127.0.0.1:8099\"\ncontrol = true\n"))
	if err != nil || conf.Web != (webFlags{on: true, listen: "127.0.0.1:8099", control: true}) {
		t.Fatalf("[web]: %+v, %v", conf.Web, err)
	}
	for _, tc := range []struct{ in, err string }{
		{"[web]\nweb = \"yes\"\n", `[web] web = "yes": want true or false, without quotes`},
		{"[web]\nweb_listen = 8080\n", `[web] web_listen = 8080: write HOST:PORT in quotes`},
		{"[web]\nweb_listen = \"localhost\"\n", `[web] web_listen = "localhost": write HOST:PORT`},
		// The flag's rule (checkListen): a port that is no number from 0 to 65535 too.
		{"[web]\nweb_listen = \"127.0.0.1:70000\"\n", `[web] web_listen = "127.0.0.1:70000": write HOST:PORT`},
		{"[web]\nweb_listen = \"localhost:http\"\n", `[web] web_listen = "localhost:http": write HOST:PORT`},
		{"[web]\nport = 1\n", "unknown keys: web.port"},
	} {
		if _, err := parseConfig([]byte(tc.in)); err == nil || !strings.Contains(err.Error(), tc.err) {
			t.Errorf("%q: error %v, want %q", tc.in, err, tc.err)
		}
	}
	o, err := parseArgs([]string{"--web=false", "sh"})
	if err != nil {
		t.Fatal(err)
	}
	if w := conf.webWith(o); w.on {
		t.Errorf("--web=false left the view on: %+v", w)
	}
	o, err = parseArgs([]string{"--web-control", "sh"})
	if err != nil {
		t.Fatal(err)
	}
	if w := (settings{}).webWith(o); !w.on || !w.control || w.listen != "" {
		t.Errorf("--web-control: %+v, want on, control, the default address", w)
	}
	o, _ = parseArgs([]string{"sh"})
	if w := conf.webWith(o); w != conf.Web {
		t.Errorf("no flags: %+v, want config.toml's %+v", w, conf.Web)
	}
}

// [mcp] enabled turns --mcp on for every session; --mcp alone does too, and the demo
// never (its simulated agents take no MCP server).
func TestMCPEnabled(t *testing.T) {
	conf, err := parseConfig([]byte("[mcp]\nenabled = true\n"))
	if err != nil || !conf.MCP {
		t.Fatalf("[mcp] enabled = true: %+v, %v", conf.MCP, err)
	}
	if _, err := parseConfig([]byte("[mcp]\nenabled = \"yes\"\n")); err == nil || !strings.Contains(err.Error(), `[mcp] enabled = "yes": want true or false`) {
		t.Errorf("[mcp] enabled = \"yes\": %v", err)
	}
	if _, err := parseConfig([]byte("[mcp]\nenable = true\n")); err == nil || !strings.Contains(err.Error(), "unknown keys: mcp.enable") {
		t.Errorf("[mcp] enable: %v", err)
	}
	for _, tc := range []struct {
		args []string
		conf bool
		want bool
	}{
		{[]string{"sh"}, false, false},
		{[]string{"sh"}, true, true},
		{[]string{"--mcp", "sh"}, false, true},
		{[]string{"demo"}, true, false},
	} {
		o, err := parseArgs(tc.args)
		if err != nil {
			t.Fatal(err)
		}
		applyPaneConfig(&o, settings{MCP: tc.conf})
		if o.mcp != tc.want {
			t.Errorf("%v with [mcp] enabled = %v: mcp %v, want %v", tc.args, tc.conf, o.mcp, tc.want)
		}
	}
}

// [session] restore takes ask, auto or never; anything else is refused.
func TestSessionRestore(t *testing.T) {
	for _, v := range []string{"ask", "auto", "never"} {
		conf, err := parseConfig([]byte("[session]\nrestore = \"" + v + "\"\n"))
		if err != nil || conf.Restore != v {
			t.Errorf("restore = %q: %+v, %v", v, conf.Restore, err)
		}
	}
	for _, in := range []string{"restore = \"yes\"", "restore = true"} {
		_, err := parseConfig([]byte("[session]\n" + in + "\n"))
		if err == nil || !strings.Contains(err.Error(), `want "ask", "auto" or "never"`) {
			t.Errorf("%s: %v", in, err)
		}
	}
	if conf, err := parseConfig(nil); err != nil || conf.Restore != "" {
		t.Errorf("no config: %q, %v; want the default (never)", conf.Restore, err)
	}
}

func TestMeshAnswerFrom(t *testing.T) {
	st, err := parseConfig([]byte("[mesh]\nanswer_from = [\"laptop\", \"desk-2\"]\n"))
	if err != nil {
		t.Fatal(err)
	}
	if want := []string{"laptop", "desk-2"}; !reflect.DeepEqual(st.MeshAnswerFrom, want) {
		t.Errorf("answer_from = %q, want %q", st.MeshAnswerFrom, want)
	}
	if _, err := parseConfig([]byte("[mesh]\nanswer_from = [\"my laptop\"]\n")); err == nil || !strings.Contains(err.Error(), `[mesh] answer_from: session name "my laptop"`) {
		t.Errorf("a name no mesh takes: %v", err)
	}
	if _, err := parseConfig([]byte("[mesh]\nanswer_from = \"laptop\"\n")); err == nil {
		t.Error("a string, not a list: no error")
	}
}
