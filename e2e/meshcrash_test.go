package e2e

// Messages across the mesh survive SIGKILLs, through the binary: a hub (package mesh,
// in the test process) and two sessions as two machines (each its own home, store and
// runtime folder). `agentmux send rx@buildbox` floods, from laptop, a pane of buildbox
// whose program logs every line it reads (lineLogger, crash_test.go); mid-flood the
// sending session's server is SIGKILLed and started again, then, mid-flood again, the
// receiving session's. Every acknowledged send (it printed "ID queued") must be read
// by the program, and a second reading of one must carry hub.RepeatNote: the sending
// side sends again what it has no phase back for, under the same id, which JetStream
// and the receiving store keep once; the receiving side types again what its pane's
// program was not recorded to have taken.

import (
	"context"
	"encoding/json"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

func TestMeshSurvivesSIGKILLFlood(t *testing.T) {
	t.Parallel()
	hub := startMeshHub(t)
	join := func(name string) []string { return hub.join(name, "--idle", "100ms", "--turns", "1000000") }
	logPath := filepath.Join(t.TempDir(), "read")
	buildboxEnv, laptopEnv := newSockEnv(t), newSockEnv(t)
	buildboxArgs := append(join("buildbox"), script(t, "rx", lineLogger, logPath))
	laptopArgs := append(join("laptop"), shArg("idle", "exec cat"))

	startReceiver := func() *session {
		s := startWith(t, buildboxEnv.opts(), buildboxArgs...)
		s.waitText(waitLong, "ready")
		return s
	}
	startSender := func() *session {
		s := startWith(t, laptopEnv.opts(), laptopArgs...)
		s.waitScreen("laptop up", func(*screen) bool { return serverUp(laptopEnv, "laptop") }, waitLong)
		return s
	}
	rx := startReceiver()
	tx := startSender()

	var acked []string
	next := 0
	// The sender dies mid-flood: what it had not published, or heard no phase of,
	// goes again from its store when it is back.
	stop := sendFlood(t, laptopEnv, "laptop", "rx@buildbox", "m1-", &next, 10+rand.IntN(30))
	kill(t, laptopEnv, "laptop", tx)
	acked = append(acked, stop()...)
	startSender()
	// The receiver dies mid-flood: what waits in its stream, and what its pane's
	// program was not recorded to have taken, is typed when it is back.
	stop = sendFlood(t, laptopEnv, "laptop", "rx@buildbox", "m1-", &next, 10+rand.IntN(30))
	kill(t, buildboxEnv, "buildbox", rx)
	acked = append(acked, stop()...)
	rx = startReceiver()
	acked = append(acked, sendFlood(t, laptopEnv, "laptop", "rx@buildbox", "m1-", &next, 5)()...)

	// A last message, sent after all of them, is read last (one sender's messages to
	// one pane keep their order).
	end := "end1-0"
	laptopEnv.run("send", "--session", "laptop", "rx@buildbox", end)
	var read string
	rx.diag = func() string { return "the program read:\n" + read }
	rx.waitScreen(end+" read", func(*screen) bool {
		b, _ := os.ReadFile(logPath)
		read = string(b)
		return strings.Contains(read, end)
	}, 2*waitLong)

	notes := map[string][]bool{}
	for _, m := range reading.FindAllStringSubmatch(read, -1) {
		notes[m[2]] = append(notes[m[2]], m[1] != "")
	}
	var lost, repeats, unrecognised []string
	for _, tok := range acked {
		rs := notes[tok]
		if len(rs) == 0 {
			lost = append(lost, tok)
		}
		for _, noted := range rs[min(1, len(rs)):] {
			if noted {
				repeats = append(repeats, tok)
			} else {
				unrecognised = append(unrecognised, tok)
			}
		}
	}
	t.Logf("%d acknowledged sends across the mesh, 2 SIGKILLs: %d lost, %d recognised repeats, %d unrecognisable duplicates",
		len(acked), len(lost), len(repeats), len(unrecognised))
	if len(lost) > 0 || len(unrecognised) > 0 {
		t.Errorf("lost %q, read again without the note %q; want none", lost, unrecognised)
		for _, e := range []struct {
			env  sockEnv
			name string
		}{{laptopEnv, "laptop"}, {buildboxEnv, "buildbox"}} {
			var h []map[string]any
			if err := json.Unmarshal([]byte(e.env.run("history", "--session", e.name, "--json", "--limit", "1000")), &h); err != nil {
				t.Logf("%s's history: %v", e.name, err)
			}
			for _, m := range h {
				for _, tok := range append(lost, unrecognised...) {
					if body, _ := m["body"].(string); strings.HasSuffix(body, tok) {
						t.Logf("%s's history: %v", e.name, m)
					}
				}
			}
		}
	}
}

// serverUp says whether session name's server answers.
func serverUp(env sockEnv, name string) bool {
	cmd := env.command(context.Background(), "ls", "--session", name)
	cmd.Env = append(cmd.Env, "GORACE=atexit_sleep_ms=0")
	return cmd.Run() == nil
}

// kill SIGKILLs session name's server and waits until its client says it ended.
func kill(t *testing.T, env sockEnv, name string, s *session) {
	t.Helper()
	if err := syscall.Kill(serverPid(t, env.environ(), name), syscall.SIGKILL); err != nil {
		t.Fatalf("kill %s's server: %v", name, err)
	}
	s.waitExit(waitLong)
}
