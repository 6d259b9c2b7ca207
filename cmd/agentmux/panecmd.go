package main

import (
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/agentmux/agentmux/action"
	"github.com/agentmux/agentmux/client"
	"github.com/agentmux/agentmux/proto"
	"github.com/agentmux/agentmux/ptyhost"
	"github.com/agentmux/agentmux/session"
)

// This file is the pane commands: new, respawn, rename and send --raw.

// rawFlags checks send's flags that go with --raw (and those that do not).
func rawFlags(a clientArgs) error {
	o := own[sendArgs](a)
	if !o.raw {
		if o.enter || o.noEnter {
			return usagef("agentmux send: --enter and --no-enter go with --raw")
		}
		return nil
	}
	switch {
	case o.enter && o.noEnter:
		return usagef("agentmux send: --enter and --no-enter exclude each other")
	case o.from != "" || o.mode != "" || o.timeout != 0 || o.notifyOnDelivery || o.notifyAfter != 0 || o.wait:
		return usagef("agentmux send: --raw types the text as it is, at once: it takes no --from, --important, --urgent, --timeout, --notify-… or --wait")
	case a.operands[0] == "*":
		return usagef("agentmux send: --raw types into one pane, not *")
	}
	return nil
}

// typeRaw types body into a pane exactly (X_TYPE).
func typeRaw(c *client.Conn, a clientArgs, body string, w io.Writer) error {
	o := own[sendArgs](a)
	if _, err := c.Request(proto.TypeType, proto.TypeText{A: a.operands[0], Text: body, Enter: !o.noEnter}); err != nil {
		return fmt.Errorf("send --raw %s: %w", a.operands[0], err)
	}
	if a.json {
		return printJSON(w, map[string]bool{"ok": true})
	}
	return nil
}

// newArgs are new's: the pane's name, its folder, and a worktree of its own.
type newArgs struct {
	name, cwd string
	worktree  bool
}

// respawnArgs are respawn's: end a program that still runs first.
type respawnArgs struct{ kill bool }

// resizeArgs are resize's: the pane's width and height, in percent of an even share.
type resizeArgs struct{ width, height int }

// newPane reads new's operands and flags into the pane to start: the operands as one
// AGENT argument when there is one (NAME=COMMAND, a command line split like a shell's),
// else NAME=PROGRAM or PROGRAM then its arguments as they are.
func newPane(a clientArgs) (proto.NewPane, error) {
	o := own[newArgs](a)
	spec, err := parseAgent(a.operands[0])
	if err != nil {
		return proto.NewPane{}, err
	}
	if len(a.operands) > 1 {
		if len(spec.Argv) != 1 {
			return proto.NewPane{}, usagef("agentmux new: %q: give the command as one quoted argument or as its words, not both", a.operands[0])
		}
		spec.Argv = append(spec.Argv, a.operands[1:]...)
	}
	np := proto.NewPane{Argv: spec.Argv, Env: spec.Env}
	if n, _, ok := strings.Cut(a.operands[0], "="); ok && n == spec.Name {
		np.Name = spec.Name // named NAME=COMMAND; otherwise the session picks a free one
	}
	if o.name != "" {
		if err := proto.CheckName(proto.PaneName, o.name); err != nil {
			return proto.NewPane{}, usagef("agentmux new: --name: %v", err)
		}
		np.Name = o.name
	}
	if o.cwd != "" {
		dir, err := filepath.Abs(o.cwd)
		if err == nil {
			var st os.FileInfo
			if st, err = os.Stat(dir); err == nil && !st.IsDir() {
				err = errors.New("not a folder")
			}
		}
		if err != nil {
			return proto.NewPane{}, usagef("agentmux new: --cwd %s: %v", o.cwd, err)
		}
		np.Dir = dir
	}
	if o.worktree {
		np.Worktree = true
		if np.Dir == "" { // the repository of the folder it is asked from
			wd, err := os.Getwd()
			if err != nil {
				return proto.NewPane{}, err
			}
			np.Dir = wd
		}
	}
	return np, nil
}

// startPane asks the session to start np (X_NEW) and prints its number and name.
func startPane(c *client.Conn, a clientArgs, np proto.NewPane, w io.Writer) error {
	res, err := c.Request(proto.TypeNew, np)
	if err != nil {
		return fmt.Errorf("new: %w", err)
	}
	if a.json {
		return printJSON(w, map[string]any{"number": res.Number, "name": res.Name})
	}
	_, err = fmt.Fprintf(w, "pane %d %s started\n", res.Number, visible(res.Name, false))
	return err
}

// paneAct is respawn or rename (cmd).
func paneAct(cmd action.Name) func(c *client.Conn, a clientArgs, w io.Writer) error {
	return func(c *client.Conn, a clientArgs, w io.Writer) error {
		var err error
		if cmd == action.Respawn {
			_, err = c.Request(cmd.Request(), proto.Respawn{A: a.operands[0], Kill: own[respawnArgs](a).kill})
			if err != nil && strings.Contains(err.Error(), session.ErrRunning.Error()) {
				return fmt.Errorf("respawn: %w (agentmux respawn --kill %s ends it first)", err, a.operands[0])
			}
		} else {
			_, err = c.Request(cmd.Request(), proto.Rename{A: a.operands[0], Name: a.operands[1]})
		}
		if err != nil {
			return fmt.Errorf("%s: %w", cmd, err)
		}
		if a.json {
			return printJSON(w, map[string]bool{"ok": true})
		}
		return nil
	}
}

// parsePaneLine reads prefix c's command line as an AGENT argument, with a name only
// when NAME= gives one (else the session picks the program's name, made unique). It may
// start with --worktree (tree: the pane gets a worktree of its own) and --cwd DIR (a
// folder without spaces).
func parsePaneLine(line string) (spec session.PaneSpec, tree bool, err error) {
	line = strings.TrimSpace(line)
	dir := ""
	for {
		switch {
		case line == "--worktree" || strings.HasPrefix(line, "--worktree "):
			tree, line = true, strings.TrimSpace(strings.TrimPrefix(line, "--worktree"))
			continue
		case strings.HasPrefix(line, "--cwd "):
			rest := strings.TrimSpace(strings.TrimPrefix(line, "--cwd "))
			d, after, _ := strings.Cut(rest, " ")
			if dir, err = folder(d); err != nil {
				return spec, false, fmt.Errorf("--cwd %s: %w", d, err)
			}
			line = strings.TrimSpace(after)
			continue
		}
		break
	}
	if spec, err = parseAgent(line); err != nil {
		return spec, false, err
	}
	spec.Dir = dir
	if n, _, ok := strings.Cut(line, "="); !ok || n != spec.Name {
		spec.Name = ""
	}
	if _, err := ptyhost.LookPath(spec.Argv[0]); err != nil {
		return spec, false, withNameHint(err, spec.Argv)
	}
	return spec, tree, nil
}

// resize sets (or, without flags, prints) a pane's share of the screen (X_RESIZE).
func resize(c *client.Conn, a clientArgs, w io.Writer) error {
	o := own[resizeArgs](a)
	res, err := c.Request(proto.TypeResize, proto.Resize{A: a.operands[0], Width: o.width, Height: o.height})
	if err != nil {
		return fmt.Errorf("resize %s: %w", a.operands[0], err)
	}
	if len(res.Share) != 2 {
		return fmt.Errorf("resize %s: the session answered no share", a.operands[0])
	}
	if a.json {
		return printJSON(w, map[string]int{"width": res.Share[0], "height": res.Share[1]})
	}
	_, err = fmt.Fprintf(w, "%s: width %d%%, height %d%% of an even share\n", visible(a.operands[0], false), res.Share[0], res.Share[1])
	return err
}

// diff prints what a pane's agent changed in its own worktree (X_DIFF), what a
// terminal would obey made visible.
func diff(c *client.Conn, a clientArgs, w io.Writer) error {
	res, err := c.Request(proto.TypeDiff, proto.Target{A: a.operands[0]})
	if err != nil {
		return fmt.Errorf("diff %s: %w", a.operands[0], err)
	}
	if res.Screen == nil {
		return fmt.Errorf("diff %s: the session answered no text", a.operands[0])
	}
	if a.json {
		return printJSON(w, map[string]string{"diff": *res.Screen})
	}
	out := visible(*res.Screen, true)
	if out != "" && !strings.HasSuffix(out, "\n") {
		out += "\n" // the shell's prompt starts on a line of its own
	}
	_, err = io.WriteString(w, out)
	return err
}
