package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/charmbracelet/x/term"

	"github.com/agentmux/agentmux/attach"
	"github.com/agentmux/agentmux/dirs"
	"github.com/agentmux/agentmux/store"
	"github.com/agentmux/agentmux/ui"
)

// restorable is a session agentmux restore can bring back, as sessions --all lists it.
type restorable struct {
	Name   string `json:"name"`
	Folder string `json:"folder"`
	Panes  int    `json:"panes"`
	// Stopped is when it stopped (ms since the epoch): for a server that died without a
	// word, when its snapshot last changed.
	Stopped int64  `json:"stopped"`
	Why     string `json:"why"`
}

// crashWhy is why a session stopped whose server recorded no end.
const crashWhy = "its server died (killed, out of memory, a crash or a reboot)"

// restorables lists the sessions of the store that restore offers: not running, not
// ended by the person (unless kill-session --keep).
func restorables(st *store.Store) ([]restorable, error) {
	sns, err := st.Snapshots()
	if err != nil {
		return nil, err
	}
	live := liveNames()
	var out []restorable
	for _, sn := range sns {
		if !sn.Offered || live[strings.ToLower(sn.Session)] {
			continue
		}
		out = append(out, describeRestorable(sn))
	}
	return out, nil
}

// describeRestorable says what restore would bring back of sn.
func describeRestorable(sn store.Snapshot) restorable {
	r := restorable{Name: sn.Session, Folder: sn.Folder, Stopped: sn.Stopped, Why: sn.Why}
	var sv savedSession
	if json.Unmarshal(sn.Spec, &sv) == nil {
		r.Panes = len(sv.Panes)
	}
	if r.Stopped == 0 {
		r.Stopped, r.Why = sn.Updated, crashWhy
	}
	return r
}

// liveNames are the running sessions' names, lower case.
func liveNames() map[string]bool {
	out := map[string]bool{}
	dir, err := dirs.RuntimeDir()
	if err != nil {
		return out
	}
	ss, _ := dirs.Sessions(dir)
	for _, s := range ss {
		out[strings.ToLower(s.Name)] = true
	}
	return out
}

// restoreArgs are restore's: no terminal attaches.
type restoreArgs struct{ detached bool }

// runRestore is agentmux restore [NAME]: it starts session NAME's server again from
// the store and attaches this terminal (or, --detached or without one, prints its name).
func runRestore(ctx context.Context, a clientArgs, sio stdio) (int, error) {
	name := a.session
	if len(a.operands) == 1 {
		if name != "" && !strings.EqualFold(name, a.operands[0]) {
			return 2, usagef("agentmux restore: two sessions named (%s and --session %s)", a.operands[0], name)
		}
		name = a.operands[0]
	}
	sn, err := findRestorable(name)
	if err != nil {
		return 1, err
	}
	if err := os.Chdir(sn.Folder); err != nil {
		fmt.Fprintf(sio.err, "agentmux restore: its folder %s: %v; panes in it start here\n", sn.Folder, err)
	}
	in, inOK := sio.in.(*os.File)
	out, outOK := sio.out.(*os.File)
	terminal := inOK && outOK && term.IsTerminal(in.Fd()) && term.IsTerminal(out.Fd())
	args := []string{restoreWord, sn.Session}
	if own[restoreArgs](a).detached || !terminal {
		return runDetached(args, sio.out)
	}
	cols, rows, err := attach.TerminalSize(out)
	if err != nil {
		return 2, errors.New("agentmux restore needs a terminal (or --detached)")
	}
	info, typed, err := ui.ProbeTerminal(ctx, in, out)
	if err != nil {
		return 1, err
	}
	n, socket, status, err := startServer(args, cols, rows, info)
	if err != nil {
		return status, err
	}
	return attachTo(ctx, n, socket, attach.Options{Terminal: probedWord(info), Typed: typed}, in, out)
}

// findRestorable returns the snapshot of the session restore should bring back: name
// (any case), or the only restorable one when name is "". A running session, or one
// the person ended, is refused with its name and what to do instead.
func findRestorable(name string) (store.Snapshot, error) {
	st, err := openStoreIfAny()
	if err != nil {
		return store.Snapshot{}, fmt.Errorf("agentmux restore: %w", err)
	}
	defer st.Close()
	if name == "" {
		rs, err := restorables(st)
		if err != nil {
			return store.Snapshot{}, err
		}
		switch len(rs) {
		case 0:
			return store.Snapshot{}, errors.New("agentmux restore: no session to restore (agentmux sessions --all lists them)")
		case 1:
			name = rs[0].Name
		default:
			names := make([]string, len(rs))
			for i, r := range rs {
				names[i] = r.Name
			}
			return store.Snapshot{}, fmt.Errorf("agentmux restore: %d sessions can be restored: %s; name one", len(rs), strings.Join(names, ", "))
		}
	}
	sns, err := st.Snapshots()
	if err != nil {
		return store.Snapshot{}, err
	}
	for _, sn := range sns {
		if !strings.EqualFold(sn.Session, name) {
			continue
		}
		switch {
		case liveNames()[strings.ToLower(sn.Session)]:
			return store.Snapshot{}, fmt.Errorf("agentmux restore: session %s is running (agentmux attach %s)", sn.Session, sn.Session)
		case !sn.Offered:
			return store.Snapshot{}, fmt.Errorf("agentmux restore: session %s was ended on purpose (%s): it is not restored (kill-session --keep keeps a session restorable)", sn.Session, sn.Why)
		}
		return sn, nil
	}
	return store.Snapshot{}, fmt.Errorf("agentmux restore: the store knows no session %q (agentmux sessions --all lists the restorable ones)", name)
}

// restorableHint adds to attach's "no such session" how to restore name, when the
// store can bring it back; with no name, the sessions it can (restorablesNamed).
func restorableHint(err error, name string) error {
	if name == "" {
		return restorablesNamed(err)
	}
	for _, r := range storedRestorables() {
		if strings.EqualFold(r.Name, name) {
			return fmt.Errorf("session %s is not running: it stopped (%s) and can be restored: agentmux restore %s", r.Name, r.Why, r.Name)
		}
	}
	return err
}

// restorablesNamed adds to err (no session runs, no agents given) the sessions the
// store can bring back, if any: after a reboot, plain agentmux and attach are what
// the person types first.
func restorablesNamed(err error) error {
	rs := storedRestorables()
	if len(rs) == 0 {
		return err
	}
	names := make([]string, len(rs))
	for i, r := range rs {
		names[i] = r.Name
	}
	return fmt.Errorf("%w; restorable: %s (agentmux restore NAME brings one back)", err, strings.Join(names, ", "))
}

// storedRestorables is restorables of the store, if there is one (none when it cannot
// be read: a hint, never an error of its own).
func storedRestorables() []restorable {
	st, err := openStoreIfAny()
	if err != nil {
		return nil
	}
	defer st.Close()
	rs, _ := restorables(st)
	return rs
}

// printRestorables writes the restorable sessions' table (sessions --all).
func printRestorables(w io.Writer, rs []restorable) error {
	if len(rs) == 0 {
		return nil
	}
	fmt.Fprintln(w, "\nrestorable (agentmux restore NAME):")
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "NAME\tPANES\tSTOPPED\tWHY\tFOLDER")
	for _, r := range rs {
		fmt.Fprintf(tw, "%s\t%d\t%s\t%s\t%s\n", line(r.Name), r.Panes, time.UnixMilli(r.Stopped).Format(timeFormat), line(r.Why), line(r.Folder))
	}
	return tw.Flush()
}

// restorableNamed returns the restorable snapshot of the session o names with
// --session, if there is one (the demo and --in-process sessions are never recorded).
func restorableNamed(o options) (store.Snapshot, bool) {
	if !o.set["session"] || o.demo || o.inProcess {
		return store.Snapshot{}, false
	}
	st, err := openStoreIfAny()
	if err != nil {
		return store.Snapshot{}, false
	}
	defer st.Close()
	sn, err := st.Snapshot(o.session)
	if err != nil || !sn.Offered || liveNames()[strings.ToLower(sn.Session)] {
		return store.Snapshot{}, false
	}
	return sn, true
}

// wantRestore decides, by [session] restore, whether starting session sn's name
// restores it instead: "auto" does, "ask" asks on the terminal (a start without one,
// --detached or piped, starts anew and says so), "never" or unset starts anew.
func wantRestore(mode string, sn store.Snapshot, stdin io.Reader, stderr io.Writer, detached bool) (bool, error) {
	r := describeRestorable(sn)
	switch mode {
	case "auto":
		fmt.Fprintf(stderr, "agentmux: restoring session %s (%s, %d panes; [session] restore = \"auto\")\n", r.Name, line(r.Why), r.Panes)
		return true, nil
	case "ask":
		in, ok := stdin.(*os.File)
		if detached || !ok || !term.IsTerminal(in.Fd()) {
			fmt.Fprintf(stderr, "agentmux: session %s could have been restored (%s); starting it anew\n", r.Name, line(r.Why))
			return false, nil
		}
		fmt.Fprintf(stderr, "session %s can be restored: %d panes in %s, stopped %s (%s).\nRestore it? [y/N] ",
			r.Name, r.Panes, line(r.Folder), time.UnixMilli(r.Stopped).Format(timeFormat), line(r.Why))
		var answer string
		if _, err := fmt.Fscanln(in, &answer); err != nil && err.Error() != "unexpected newline" {
			return false, fmt.Errorf("restore %s: %w", r.Name, err)
		}
		return strings.EqualFold(answer, "y") || strings.EqualFold(answer, "yes"), nil
	}
	// "never": started anew, which replaces the record; said, as a session that
	// stopped by accident (a reboot) is often started again by habit.
	fmt.Fprintf(stderr, "agentmux: session %s could have been restored (%s, %d panes); it starts anew, which replaces its record (agentmux restore %s, instead of starting it, brings one back; [session] restore = \"ask\" asks first)\n",
		r.Name, line(r.Why), r.Panes, r.Name)
	return false, nil
}
