package e2e

// Who counts as the person, through the binary: a pane's program (here a script in a
// pane of session pidA) tries every way the kernel once let it pass as the person —
// without its proof after setsid, from a grandchild whose parent exited, from
// session pidA against session pidB, with another pane's proof read from
// /proc/PID/environ — and each is refused; this test's own process, outside every
// pane, still acts as the person. The script appends each attempt's exit status to a
// results file, then done=yes; the test waits on the folder's changes (inotify, no
// sleeps, no polling), each attempt within its own bound: a dozen process starts one
// after another take long on a loaded machine, while one that hangs is caught.

import (
	"bufio"
	"os"
	"path/filepath"
	"regexp"
	"runtime"
	"strings"
	"testing"

	"github.com/agentmux/agentmux/internal/oswait"
)

// attacks is the pane's script: $1 the results folder, $2 agentmux.
const attacks = `D=$1; AM=$2
res() { echo "$1=$2" >>"$D/results"; }
# detached: without the proof, after setsid (the parent exits at once).
detached() { n=$1; shift; mkfifo "$D/$n.r"
	env -u AGENTMUX_PROOF setsid -f sh -c '"$@" >"$0.out" 2>&1; echo $? >"$0.r"' "$D/$n" "$@" </dev/null
	res "$n" "$(cat "$D/$n.r")"; }
# orphan: without the proof, from a grandchild that runs once its parent exited.
orphan() { n=$1; shift; mkfifo "$D/$n.r" "$D/$n.gate"
	env -u AGENTMUX_PROOF sh -c 'sh -c "cat >/dev/null; \"\$@\" >\"\$0.out\" 2>&1; echo \$? >\"\$0.r\"" "$0" "$@" <"$0.gate" & exec 4>"$0.gate"' "$D/$n" "$@"
	res "$n" "$(cat "$D/$n.r")"; }
# onTTY: as detached, on the pane's terminal (attach needs one).
T=$(tty)
onTTY() { n=$1; shift; mkfifo "$D/$n.r"
	env -u AGENTMUX_PROOF setsid -f sh -c 't=$1; shift; "$@" <"$t" >"$t" 2>"$0.out"; echo $? >"$0.r"' "$D/$n" "$T" "$@"
	res "$n" "$(cat "$D/$n.r")"; }
plain() { n=$1; shift; "$@" >"$D/$n.out" 2>&1; res "$n" $?; }

detached setsid-send "$AM" send --raw --session pidA victim 'echo PWNED'
orphan orphan-send "$AM" send --raw --session pidA victim 'echo PWNED'
plain cross-send "$AM" send --raw --session pidB victimb 'echo PWNED'
plain cross-send-noproof env -u AGENTMUX_PROOF "$AM" send --raw --session pidB victimb 'echo PWNED'
detached setsid-new "$AM" new --session pidA sh
detached setsid-web "$AM" web --session pidA --control
detached setsid-link-shell "$AM" link --shell --session pidA victim evil
onTTY setsid-attach env -u AGENTMUX_PANE timeout 10 "$AM" attach pidB
# Another pane's proof, read from its process's environment, shown after setsid.
proof=
for e in /proc/[0-9]*/environ; do
	if tr '\0' '\n' <"$e" 2>/dev/null | grep -qx AGENTMUX_NAME=victim; then
		proof=$(tr '\0' '\n' <"$e" 2>/dev/null | sed -n 's/^AGENTMUX_PROOF=//p'); break
	fi
done
res proof-read "${proof:+yes}"
mkfifo "$D/stolen-send.r"
AGENTMUX_PROOF=$proof setsid -f sh -c '"$@" >"$0.out" 2>&1; echo $? >"$0.r"' "$D/stolen-send" "$AM" send --session pidA evil 'as the victim' </dev/null
res stolen-send "$(cat "$D/stolen-send.r")"
detached setsid-kill "$AM" kill-session pidB
plain cross-kill env -u AGENTMUX_PROOF "$AM" kill-session pidB
res done yes
exec cat
`

func TestPanesNeverPassAsThePerson(t *testing.T) { personTrial(t, true) }

// Without user namespaces ([security] pane_namespaces = false, or a kernel that
// refuses them) the session is the reaper of its panes' orphans and tells them by
// their parents (its own, or another session's server among them): the same attempts
// are refused; only reading another pane's proof succeeds (docs/security.md).
func TestPanesNeverPassAsThePersonWithoutNamespaces(t *testing.T) { personTrial(t, false) }

func personTrial(t *testing.T, namespaces bool) {
	if runtime.GOOS != "linux" {
		t.Skip("setsid, /proc and user namespaces are Linux's")
	}
	t.Parallel()
	env := newSockEnv(t)
	if !namespaces {
		conf := filepath.Join(env.home, "config", "agentmux", "config.toml")
		if err := os.MkdirAll(filepath.Dir(conf), 0o700); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(conf, []byte("[security]\npane_namespaces = false\n"), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	dir := t.TempDir()
	b := startWith(t, env.opts(), "--session", "pidB", "victimb=sh", "cat")
	b.waitText(waitLong, "victimb")
	isolation := regexp.MustCompile(`"isolation":\s*"([a-z-]+)"`).FindStringSubmatch(env.run("sessions", "--json"))
	switch {
	case isolation == nil:
		t.Fatal("agentmux sessions --json does not say how panes are told from the person")
	case !namespaces && isolation[1] != "process-lineage":
		t.Fatalf("pane_namespaces = false, yet the session says %s", isolation[1])
	case namespaces && isolation[1] != "user-namespace":
		t.Skipf("this machine refuses user namespaces (%s): TestPanesNeverPassAsThePersonWithoutNamespaces covers it", isolation[1])
	}
	startWith(t, env.opts(), "--session", "pidA", "victim=sh", script(t, "evil", attacks, dir, agentmuxBin))

	var seen string // the results file as last read
	for !strings.Contains(seen, "done=yes") {
		before := seen
		changed := func() bool {
			b, _ := os.ReadFile(filepath.Join(dir, "results"))
			seen = string(b)
			return seen != before
		}
		if err := oswait.Until(2*waitLong, changed, dir); err != nil {
			t.Fatalf("the pane's next attempt did not finish within %v (%v); results so far:\n%s", 2*waitLong, err, seen)
		}
	}
	results := map[string]string{}
	f, err := os.Open(filepath.Join(dir, "results"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	for sc := bufio.NewScanner(f); sc.Scan(); {
		k, v, _ := strings.Cut(sc.Text(), "=")
		results[k] = v
	}
	for _, n := range []string{"setsid-send", "orphan-send", "setsid-new", "setsid-web", "setsid-link-shell", "stolen-send",
		"cross-send", "cross-send-noproof", "setsid-attach", "setsid-kill", "cross-kill"} {
		out := readFile(t, filepath.Join(dir, n+".out"))
		if results[n] == "0" || results[n] == "124" || results[n] == "" || !strings.Contains(out, "person") && !strings.Contains(out, "proof") {
			t.Errorf("%s from a pane was taken as the person's (exit %q): %s", n, results[n], out)
		} else if testing.Verbose() {
			t.Logf("%s refused: %s", n, strings.TrimSpace(out))
		}
	}
	if namespaces && results["proof-read"] != "" {
		t.Errorf("a pane read another pane's proof from /proc/PID/environ")
	}
	// The person, outside every pane, still does all of it.
	env.run("send", "--raw", "--session", "pidA", "victim", "echo PERSON-OK")
	env.run("send", "--raw", "--session", "pidB", "victimb", "echo PERSON-OK")
	env.run("kill-session", "pidB")
}

// readFile is path's text, or why it cannot be read.
func readFile(t *testing.T, path string) string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		return err.Error()
	}
	return string(b)
}
