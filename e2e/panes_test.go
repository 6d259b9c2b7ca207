package e2e

// Panes at run time through the binary: agentmux new, send --raw, rename and respawn
// from outside; prefix c, comma, R, space, braces and S from the keyboard.

import (
	"context"
	"os"
	"regexp"
	"strings"
	"testing"
)

// fails runs an agentmux command that must fail, and returns its output.
func (e sockEnv) fails(args ...string) string {
	e.t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), waitLong)
	defer cancel()
	out, err := e.command(ctx, args...).CombinedOutput()
	if err == nil {
		e.t.Fatalf("agentmux %s succeeded:\n%s", strings.Join(args, " "), out)
	}
	return string(out)
}

func TestPaneCommandsNewRawRenameRespawn(t *testing.T) {
	t.Parallel()
	env := newSockEnv(t)
	// a counts its starts in a file, then exits 3 on a line read.
	starts := t.TempDir() + "/starts"
	script := `echo run >> ` + starts + `; echo A-READY-$(wc -l < ` + starts + ` | tr -d " "); read x; exit 3`
	s := startWith(t, env.opts(), "--session", "pn", shArg("a", script), "b=cat")
	s.waitScreen("both panes", func(sc *screen) bool { return sc.paneHas(1, "A-READY-1") && sc.titleHas(2, "2 b") }, waitLong)

	// new: the next number, a free name from the program, the folder asked for.
	dir := t.TempDir()
	if out := env.run("new", "--session", "pn", "--cwd", dir, "sh", "-c", `test "$(pwd)" = "`+dir+`" && echo IN-DIR; exec cat`); !strings.Contains(out, "pane 3 sh started") {
		t.Fatalf("agentmux new said %q", out)
	}
	s.waitScreen("pane 3 with its folder", func(sc *screen) bool { return sc.titleHas(3, "3 sh") && sc.paneHas(3, "IN-DIR") }, waitLong)
	if out := env.run("new", "--session", "pn", "c=cat"); !strings.Contains(out, "pane 4 c started") {
		t.Fatalf("agentmux new c=cat said %q", out)
	}
	// A pane's program may not start panes: a prompt-injected agent would escape.
	env.run("new", "--session", "pn", "--name", "inner", "sh", "-c", agentmuxBin+" new cat 2>&1 | grep -q 'only the person' && echo INSIDE-REFUSED; exec cat")
	s.waitScreen("new refused inside a pane", func(sc *screen) bool { return sc.paneHas(5, "INSIDE-REFUSED") }, waitLong)
	env.fails("new", "--session", "pn", "--name", "c", "cat")       // taken
	env.fails("new", "--session", "pn", "--name", "you", "cat")     // reserved
	env.fails("new", "--session", "pn", "no-such-program-agentmux") // not found

	// send --raw: the text exactly, then Enter; --no-enter leaves the line open.
	env.run("send", "--raw", "--session", "pn", "c", "raw-line")
	env.run("send", "--raw", "--no-enter", "--session", "pn", "c", "open-line")
	sc := s.waitScreen("raw text in pane 4", func(sc *screen) bool { return sc.paneHas(4, "open-line") }, waitLong)
	if p, _ := sc.pane(4); strings.Count(p.text(), "raw-line") != 2 || strings.Contains(p.text(), "you:") {
		t.Errorf("pane 4 should show raw-line typed and echoed by cat, no header:\n%s", p.text())
	}

	// rename: border, ls and addressing follow; the rules hold.
	env.run("rename", "--session", "pn", "c", "reviewer")
	s.waitScreen("renamed border", func(sc *screen) bool { return sc.titleHas(4, "4 reviewer") }, waitLong)
	if ls := env.run("ls", "--session", "pn"); !regexp.MustCompile(`(?m)^4\s+reviewer\s`).MatchString(ls) {
		t.Errorf("ls does not show the new name:\n%s", ls)
	}
	env.fails("rename", "--session", "pn", "reviewer", "7")
	env.fails("rename", "--session", "pn", "reviewer", "b")
	env.run("send", "--raw", "--session", "pn", "reviewer", "by-new-name")
	s.waitScreen("the new name addresses it", func(sc *screen) bool { return sc.paneHas(4, "by-new-name") }, waitLong)

	// respawn: refused while it runs; after its exit, the same command, name, number
	// and links.
	env.run("link", "--session", "pn", "1", "4")
	if out := env.fails("respawn", "--session", "pn", "a"); !strings.Contains(out, "--kill") {
		t.Errorf("respawn of a running pane should point at --kill: %s", out)
	}
	env.run("send", "--raw", "--session", "pn", "a", "bye")
	s.waitScreen("pane 1 exited", func(sc *screen) bool { return sc.titleHas(1, "exited (3)") }, waitLong)
	env.run("respawn", "--session", "pn", "1")
	s.waitScreen("pane 1 runs again", func(sc *screen) bool {
		return sc.titleHas(1, "1 a") && !sc.titleHas(1, "exited") && sc.paneHas(1, "A-READY-2")
	}, waitLong)
	ls := env.run("ls", "--session", "pn")
	if !regexp.MustCompile(`(?m)^1\s+a\s+sh\s+\S+\s+\S+\s+1⇄4`).MatchString(ls) {
		t.Errorf("pane 1 is not linked with 4 again after the respawn:\n%s", ls)
	}
	env.run("respawn", "--kill", "--session", "pn", "1")
	s.waitScreen("killed and started again", func(sc *screen) bool { return sc.paneHas(1, "A-READY-3") }, waitLong)
}

func TestPaneKeysNewRenameRespawnLayoutSwapSync(t *testing.T) {
	t.Parallel()
	s := start(t, "a=cat", "b=cat")
	s.waitScreen("two panes", func(sc *screen) bool { return sc.titleHas(1, "1 a") && sc.titleHas(2, "2 b") }, waitLong)

	// prefix c: a prompt for the command line; the new pane is focused.
	s.send(prefix + "c")
	s.waitScreen("the prompt", func(sc *screen) bool { return sc.statusHas("new pane") }, waitLong)
	s.send("x=cat\r")
	s.waitScreen("pane 3 x", func(sc *screen) bool { return sc.titleHas(3, "3 x") }, waitLong)
	s.send("in-three\r")
	s.waitScreen("typing reaches pane 3", func(sc *screen) bool { return sc.paneHas(3, "in-three") }, waitLong)
	// ↑ brings the last command line back.
	s.send(prefix + "c")
	s.waitScreen("the prompt again", func(sc *screen) bool { return sc.statusHas("new pane") }, waitLong)
	s.send("\x1b[A")
	s.waitScreen("history", func(sc *screen) bool { return sc.statusHas("x=cat") }, waitLong)
	s.send("\x1b")
	s.waitScreen("prompt gone", func(sc *screen) bool { return !sc.statusHas("new pane") }, waitLong)

	// prefix ,: rename the focused pane; the prompt holds its name.
	s.send(prefix + ",")
	s.waitScreen("rename prompt", func(sc *screen) bool { return sc.statusHas("rename pane 3: x") }, waitLong)
	s.send("\x7fy\r")
	s.waitScreen("renamed", func(sc *screen) bool { return sc.titleHas(3, "3 y") }, waitLong)

	// prefix R on a running pane asks first.
	s.send(prefix + "R")
	s.waitScreen("respawn question", func(sc *screen) bool { return sc.statusHas("still runs") }, waitLong)
	s.send("y")
	s.waitScreen("respawned: a fresh screen", func(sc *screen) bool {
		return sc.statusHas("respawn") && sc.titleHas(3, "3 y") && !sc.paneHas(3, "in-three")
	}, waitLong)

	// prefix space twice: auto (columns for three) → columns → rows.
	s.send(prefix + " ")
	s.waitScreen("columns", func(sc *screen) bool { return sc.statusHas("layout: columns") }, waitLong)
	s.send(prefix + " ")
	sc := s.waitScreen("rows", func(sc *screen) bool { return sc.statusHas("layout: rows") }, waitLong)
	p1, _ := sc.pane(1)
	p3, _ := sc.pane(3)
	if p1.left != p3.left || p1.top >= p3.top {
		t.Fatalf("rows layout: pane 1 at %d,%d and pane 3 at %d,%d\n%s", p1.left, p1.top, p3.left, p3.top, sc.dump())
	}
	// prefix }: the focused pane (3, last) swaps with the next, wrapping to the first.
	s.send(prefix + "}")
	s.waitScreen("swapped", func(sc *screen) bool {
		p1, ok1 := sc.pane(1)
		p3, ok3 := sc.pane(3)
		return ok1 && ok3 && p3.top < p1.top
	}, waitLong)

	// prefix S: typing goes to every pane, and every border says so.
	s.send(prefix + "S")
	s.waitScreen("SYNC on every border", func(sc *screen) bool {
		return sc.titleHas(1, "SYNC") && sc.titleHas(2, "SYNC") && sc.titleHas(3, "SYNC")
	}, waitLong)
	s.send("all-panes\r")
	s.waitScreen("typed everywhere", func(sc *screen) bool {
		return sc.paneHas(1, "all-panes") && sc.paneHas(2, "all-panes") && sc.paneHas(3, "all-panes")
	}, waitLong)
	s.send(prefix + "S")
	s.waitScreen("SYNC off", func(sc *screen) bool { return !sc.titleHas(1, "SYNC") }, waitLong)
}

func TestPaneShareByKeyAndCommandKeptOnResize(t *testing.T) {
	t.Parallel()
	env := newSockEnv(t)
	s := startWith(t, env.opts(), "--session", "sh", "a=cat", "b=cat")
	s.waitScreen("two panes", func(sc *screen) bool { return sc.titleHas(1, "1 a") && sc.titleHas(2, "2 b") }, waitLong)
	widths := func(sc *screen) (int, int) {
		p1, ok1 := sc.pane(1)
		p2, ok2 := sc.pane(2)
		if !ok1 || !ok2 {
			return 0, 0
		}
		return p1.right - p1.left + 1, p2.right - p2.left + 1
	}
	if out := env.run("resize", "--session", "sh", "a", "--width", "300"); !strings.Contains(out, "width 300%") {
		t.Fatalf("agentmux resize said %q", out)
	}
	s.waitScreen("pane 1 three times as wide", func(sc *screen) bool { w1, w2 := widths(sc); return w1 == 90 && w2 == 30 }, waitLong)
	// prefix ctrl+left narrows the focused pane (1) by a quarter of an even share.
	s.send(prefix + "\x1b[1;5D")
	s.waitScreen("narrower", func(sc *screen) bool { w1, w2 := widths(sc); return w1 == 88 && w2 == 32 }, waitLong)
	// A smaller terminal keeps the proportion.
	s.resize(60, 20)
	s.waitScreen("kept on resize", func(sc *screen) bool { w1, w2 := widths(sc); return w1 == 44 && w2 == 16 }, waitLong)
	env.fails("resize", "--session", "sh", "a", "--width", "-5")
}

// config.toml's [ui]: its prefix, layout and a key binding take effect; a flag wins.
func TestConfigUIPrefixLayoutAndKeys(t *testing.T) {
	t.Parallel()
	home := t.TempDir()
	dir := home + "/config/agentmux"
	if err := os.MkdirAll(dir, 0o700); err != nil {
		t.Fatal(err)
	}
	conf := "[ui]\nprefix = \"ctrl+b\"\nlayout = \"rows\"\n[ui.keys]\n\"n\" = \"new-pane\"\n"
	if err := os.WriteFile(dir+"/config.toml", []byte(conf), 0o600); err != nil {
		t.Fatal(err)
	}
	s := startWith(t, options{home: home}, "a=cat", "b=cat")
	sc := s.waitScreen("two panes", func(sc *screen) bool { return sc.titleHas(1, "1 a") && sc.titleHas(2, "2 b") }, waitLong)
	if p1, _ := sc.pane(1); !strings.Contains(sc.status(), "^B") || p1.right < cols-2 {
		t.Fatalf("want prefix ^B and rows (pane 1 full width):\n%s", sc.dump())
	}
	s.send("\x02n")
	s.waitScreen("the bound key opens the new-pane prompt", func(sc *screen) bool { return sc.statusHas("new pane") }, waitLong)
	s.send("\x1b")

	// --layout columns wins over the file's rows.
	s2 := startWith(t, options{home: home}, "--layout", "columns", "a=cat", "b=cat")
	s2.waitScreen("columns", func(sc *screen) bool {
		p1, ok1 := sc.pane(1)
		p2, ok2 := sc.pane(2)
		return ok1 && ok2 && p1.top == p2.top && p1.right < p2.left
	}, waitLong)
}

// The new-pane prompt (prefix c) given a program that is not found stays open with the
// error, so the Esc that follows cancels it and reaches no pane.
func TestNewPanePromptKeepsTheError(t *testing.T) {
	t.Parallel()
	s := start(t, "a=sh -c 'stty -icanon -echo; echo A-READY; exec cat -v'")
	s.waitScreen("pane 1", func(sc *screen) bool { return sc.paneHas(1, "A-READY") }, waitLong)
	s.send(prefix + "c")
	s.waitScreen("the prompt", func(sc *screen) bool { return sc.statusHas("new pane") }, waitLong)
	s.send("no-such-program-agentmux\r")
	s.waitScreen("the prompt with the error", func(sc *screen) bool {
		return sc.statusHas("new pane: ") && sc.statusHas("not found")
	}, waitLong)
	s.send("\x1b")
	s.waitScreen("the prompt cancelled", func(sc *screen) bool { return !sc.statusHas("new pane") }, waitLong)
	s.send("z") // cat -v shows what reached the pane: z alone, no Esc (^[) before it
	sc := s.waitScreen("z in pane 1", func(sc *screen) bool { return sc.paneHas(1, "z") }, waitLong)
	if p, _ := sc.pane(1); strings.Contains(p.text(), "^[") {
		t.Errorf("the Esc reached the pane:\n%s", p.text())
	}
}
