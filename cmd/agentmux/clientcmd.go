package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"strconv"
	"strings"
	"syscall"
	"text/tabwriter"
	"time"

	"github.com/agentmux/agentmux/client"
	"github.com/agentmux/agentmux/hub"
	"github.com/agentmux/agentmux/proto"
)

// clientUsage lists the commands that talk to a running session.
const clientUsage = `session commands (each talks to a running agentmux over its socket):
  agentmux ls                                 members: number, name, program, state, group, waiting
  agentmux send TARGET MESSAGE [--from NAME]  TARGET a name, a number or *; MESSAGE - reads stdin
      [--important | --urgent] [--timeout D] [--notify-on-delivery] [--notify-after D]
  agentmux remind D MESSAGE [--to TARGET]     (or wake) "[agentmux] reminder: MESSAGE" into this
                                              pane ($AGENTMUX_NAME) or TARGET after D
  agentmux link A B | unlink A | hold A | release A
  agentmux capture TARGET [--lines N] [--escapes]
  agentmux history [--member X] [--since D] [--limit N]
  agentmux read ID
  agentmux events                             a live NDJSON stream of what happens
  agentmux sessions                           the running sessions
  agentmux web [NAME] [--listen HOST:PORT] [--control]
                                              start the session's web view (or find it) and
                                              print its URL; --control lets the page act
common flags: --session NAME (else $AGENTMUX_SESSION, else the only running session), --json
`

// clientCommands are the first words that name a session command; runClient runs them.
var clientCommands = map[string]bool{
	"ls": true, "send": true, "remind": true, "wake": true, "link": true, "unlink": true, "hold": true, "release": true,
	"capture": true, "history": true, "read": true, "events": true, "sessions": true, "web": true,
}

// clientArgs is a session command's parsed flags and operands.
type clientArgs struct {
	session, from, member, to string
	json, escapes             bool
	lines, limit              int
	since                     time.Duration
	operands                  []string
	// send's delivery options; remind's delay is its first operand.
	mode                 string
	timeout, notifyAfter time.Duration
	notifyOnDelivery     bool
	// web's: where its view listens, and whether its pages may act.
	listen  string
	control bool
}

// switches are the flags that take no value.
var switches = map[string]bool{"json": true, "escapes": true, "important": true, "urgent": true, "notify-on-delivery": true, "control": true}

// parseClientArgs takes flags anywhere among the operands ("--" ends the flags; "-" is
// an operand: stdin).
func parseClientArgs(cmd string, args []string) (clientArgs, error) {
	var a clientArgs
	allowed := map[string]bool{"session": true, "json": true}
	switch cmd {
	case "send":
		for _, f := range []string{"from", "important", "urgent", "timeout", "notify-on-delivery", "notify-after"} {
			allowed[f] = true
		}
	case "remind", "wake":
		allowed["to"] = true
	case "capture":
		allowed["lines"], allowed["escapes"] = true, true
	case "history":
		allowed["member"], allowed["since"], allowed["limit"] = true, true, true
	case "web":
		allowed["listen"], allowed["control"] = true, true
	}
	for i := 0; i < len(args); i++ {
		arg := args[i]
		if arg == "--" {
			a.operands = append(a.operands, args[i+1:]...)
			break
		}
		if len(arg) < 2 || arg[0] != '-' {
			a.operands = append(a.operands, arg)
			continue
		}
		name, val, hasVal := strings.Cut(strings.TrimLeft(arg, "-"), "=")
		if !allowed[name] {
			return a, usagef("agentmux %s: unknown flag %s", cmd, arg)
		}
		if switches[name] {
			if hasVal {
				return a, usagef("agentmux %s: --%s takes no value", cmd, name)
			}
			switch name {
			case "json":
				a.json = true
			case "escapes":
				a.escapes = true
			case "notify-on-delivery":
				a.notifyOnDelivery = true
			case "control":
				a.control = true
			case "important", "urgent":
				if a.mode != "" && a.mode != name {
					return a, usagef("agentmux %s: --important and --urgent exclude each other", cmd)
				}
				a.mode = name
			}
			continue
		}
		if !hasVal {
			if i+1 >= len(args) {
				return a, usagef("agentmux %s: --%s needs a value", cmd, name)
			}
			i++
			val = args[i]
		}
		var err error
		switch name {
		case "session":
			a.session = val
		case "from":
			a.from = val
		case "to":
			a.to = val
		case "listen":
			a.listen = val
		case "timeout", "notify-after":
			var d time.Duration
			if d, err = time.ParseDuration(val); err == nil && d <= 0 {
				err = errors.New("not above 0")
			}
			if name == "timeout" {
				a.timeout = d
			} else {
				a.notifyAfter = d
			}
		case "member":
			a.member = val
		case "lines", "limit":
			var n int
			if n, err = strconv.Atoi(val); err == nil && n < 0 {
				err = errors.New("below 0")
			}
			if name == "lines" {
				a.lines = n
			} else {
				a.limit = n
			}
		case "since":
			a.since, err = time.ParseDuration(val)
		}
		if err != nil {
			return a, usagef("agentmux %s: --%s %q: not a valid value", cmd, name, val)
		}
	}
	want := map[string][2]int{ // operands: min, max (-1: any)
		"ls": {0, 0}, "send": {2, -1}, "remind": {2, -1}, "wake": {2, -1}, "link": {2, 2}, "unlink": {1, 1}, "hold": {1, 1}, "release": {1, 1},
		"capture": {1, 1}, "history": {0, 0}, "read": {1, 1}, "events": {0, 0}, "sessions": {0, 0}, "web": {0, 1},
	}[cmd]
	if n := len(a.operands); n < want[0] || want[1] >= 0 && n > want[1] {
		return a, usagef("agentmux %s: wrong number of arguments (agentmux --help shows the usage)", cmd)
	}
	return a, nil
}

// runClient runs session command cmd: exit status 2 on misuse, 1 on failure.
func runClient(ctx context.Context, cmd string, args []string, stdin io.Reader, stdout io.Writer) (int, error) {
	a, err := parseClientArgs(cmd, args)
	if err != nil {
		return 2, err
	}
	if cmd == "sessions" {
		return exit(sessions(a, stdout))
	}
	var body string
	var after time.Duration
	switch cmd {
	case "send":
		if body, err = messageText(a.operands[1:], stdin); err != nil {
			return 2, err
		}
	case "remind", "wake":
		if after, err = time.ParseDuration(a.operands[0]); err != nil || after < 0 {
			return 2, usagef("agentmux %s: %q: not a duration (e.g. 10m, 90s)", cmd, a.operands[0])
		}
		if body, err = messageText(a.operands[1:], stdin); err != nil {
			return 2, err
		}
		if a.to == "" {
			a.to = os.Getenv("AGENTMUX_NAME")
		}
		if a.to == "" {
			a.to = os.Getenv("AGENTMUX_PANE")
		}
		if a.to == "" {
			return 2, usagef("agentmux %s: not run in a pane ($AGENTMUX_NAME unset): name one with --to", cmd)
		}
	}
	if cmd == "web" && len(a.operands) == 1 {
		if a.session != "" && a.session != a.operands[0] {
			return 2, usagef("agentmux web: two sessions named (%s and --session %s)", a.operands[0], a.session)
		}
		a.session = a.operands[0]
	}
	path, err := client.Socket(a.session)
	if err != nil {
		return 1, err
	}
	c, err := client.DialControl(path)
	if err != nil {
		return 1, err
	}
	defer c.Close()
	switch cmd {
	case "ls":
		err = ls(c, a, stdout)
	case "send":
		err = send(c, a, body, stdout)
	case "remind", "wake":
		err = remind(c, a, after, body, stdout)
	case "link", "unlink", "hold", "release":
		err = act(c, cmd, a, stdout)
	case "capture":
		err = capture(c, a, stdout)
	case "history":
		err = history(c, a, stdout)
	case "read":
		err = read(c, a, stdout)
	case "events":
		err = events(ctx, c, stdout)
	case "web":
		err = webCommand(c, a, stdout)
	}
	return exit(err)
}

func exit(err error) (int, error) {
	if err != nil {
		return 1, err
	}
	return 0, nil
}

// messageText is the words of send (joined by spaces), or stdin for "-".
func messageText(words []string, stdin io.Reader) (string, error) {
	text := strings.Join(words, " ")
	if len(words) == 1 && words[0] == "-" {
		b, err := io.ReadAll(io.LimitReader(stdin, proto.DefaultMaxFrameBytes))
		if err != nil {
			return "", fmt.Errorf("read stdin: %w", err)
		}
		text = strings.TrimRight(string(b), "\n")
	}
	if strings.TrimSpace(text) == "" {
		return "", usagef("agentmux send: the message is empty")
	}
	return text, nil
}

func printJSON(w io.Writer, v any) error {
	enc := json.NewEncoder(w)
	enc.SetEscapeHTML(false)
	return enc.Encode(v)
}

func sessions(a clientArgs, w io.Writer) error {
	dir, err := hub.RuntimeDir()
	if err != nil {
		return err
	}
	ss, err := hub.Sessions(dir)
	if err != nil {
		return err
	}
	if a.json {
		if ss == nil {
			ss = []hub.Session{}
		}
		return printJSON(w, ss)
	}
	for _, s := range ss {
		fmt.Fprintf(w, "%s\t%s\n", s.Name, s.Socket)
	}
	return nil
}

func ls(c *client.Conn, a clientArgs, w io.Writer) error {
	res, err := c.Request(proto.TypeList, struct{}{})
	if err != nil {
		return err
	}
	if a.json {
		if res.Members == nil {
			res.Members = []proto.Member{} // no members: an empty list, not null
		}
		return printJSON(w, res.Members)
	}
	tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "#\tNAME\tPROGRAM\tSTATE\tGROUP\tWAITING")
	for _, m := range res.Members {
		num := "-"
		if m.Number > 0 {
			num = strconv.Itoa(m.Number)
		}
		group := m.Group
		if group == "" {
			group = "-"
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\t%d\n", num, m.Name, m.Program, m.State, group, m.Waiting)
	}
	return tw.Flush()
}

func send(c *client.Conn, a clientArgs, body string, w io.Writer) error {
	from := a.from
	if from == "" {
		from = os.Getenv("AGENTMUX_NAME")
	}
	if from == "" {
		from = "you"
	}
	var meta *proto.SendMeta
	if a.mode != "" || a.timeout > 0 || a.notifyOnDelivery || a.notifyAfter > 0 {
		meta = &proto.SendMeta{
			Mode: a.mode, TTLMs: a.timeout.Milliseconds(),
			XNotifyOnDelivery: a.notifyOnDelivery, XNotifyAfterMs: a.notifyAfter.Milliseconds(),
		}
	}
	id, err := c.SendMeta(from, a.operands[0], body, meta)
	if err != nil {
		return fmt.Errorf("send to %s: %w", a.operands[0], err)
	}
	if a.json {
		return printJSON(w, map[string]string{"id": id, "status": "queued"})
	}
	_, err = fmt.Fprintf(w, "%s queued\n", id)
	return err
}

// remind sends a reminder to a.to (a pane; by default the one it runs in), stored with
// its delay: a session started again on the same store still types it when due.
func remind(c *client.Conn, a clientArgs, after time.Duration, body string, w io.Writer) error {
	id, err := c.SendMeta(a.to, a.to, body, &proto.SendMeta{XRemindMs: max(after.Milliseconds(), 1)})
	if err != nil {
		return fmt.Errorf("remind %s: %w", a.to, err)
	}
	if a.json {
		return printJSON(w, map[string]string{"id": id, "status": "scheduled", "due": time.Now().Add(after).UTC().Format(time.RFC3339)})
	}
	_, err = fmt.Fprintf(w, "%s scheduled for %s\n", id, time.Now().Add(after).Format("15:04:05"))
	return err
}

func act(c *client.Conn, cmd string, a clientArgs, w io.Writer) error {
	typ := map[string]string{"link": proto.TypeLink, "unlink": proto.TypeUnlink, "hold": proto.TypeHold, "release": proto.TypeRelease}[cmd]
	t := proto.Target{A: a.operands[0]}
	if cmd == "link" {
		t.B = a.operands[1]
	}
	if _, err := c.Request(typ, t); err != nil {
		return fmt.Errorf("%s: %w", cmd, err)
	}
	if a.json {
		return printJSON(w, map[string]bool{"ok": true})
	}
	return nil
}

func capture(c *client.Conn, a clientArgs, w io.Writer) error {
	res, err := c.Request(proto.TypeCapture, proto.Capture{Target: a.operands[0], Lines: a.lines, SGR: a.escapes})
	if err != nil {
		return fmt.Errorf("capture %s: %w", a.operands[0], err)
	}
	screen := ""
	if res.Screen != nil {
		screen = *res.Screen
	}
	if a.json {
		return printJSON(w, map[string]string{"screen": screen})
	}
	if screen != "" && !strings.HasSuffix(screen, "\n") {
		screen += "\n"
	}
	_, err = io.WriteString(w, screen)
	return err
}

// phase is the furthest phase a stored message reached.
func phase(m proto.Message) string {
	switch {
	case m.Failed > 0:
		return "failed"
	case m.Dropped > 0:
		return "dropped"
	case m.Confirmed > 0:
		return "confirmed"
	case m.Submitted > 0:
		return "submitted"
	case m.Typed > 0:
		return "typed"
	}
	return "queued"
}

func history(c *client.Conn, a clientArgs, w io.Writer) error {
	q := proto.History{Member: a.member, Limit: a.limit}
	if a.since > 0 {
		q.SinceMs = time.Now().Add(-a.since).UnixMilli()
	}
	res, err := c.Request(proto.TypeHistory, q)
	if err != nil {
		return fmt.Errorf("history: %w", err)
	}
	if a.json {
		if res.Messages == nil {
			res.Messages = []proto.Message{}
		}
		return printJSON(w, res.Messages)
	}
	for _, m := range res.Messages {
		line, _, cut := strings.Cut(m.Body, "\n")
		if r := []rune(line); len(r) > 60 {
			line, cut = string(r[:60]), true
		}
		if cut {
			line += "…"
		}
		fmt.Fprintf(w, "%s  %s  %s → %s  %s  %s\n", time.UnixMilli(m.Queued).Format("2006-01-02 15:04:05"), m.ID, m.From, m.To, phase(m), line)
	}
	return nil
}

func read(c *client.Conn, a clientArgs, w io.Writer) error {
	res, err := c.Request(proto.TypeRead, proto.Read{ID: a.operands[0]})
	if err != nil {
		return fmt.Errorf("read %s: %w", a.operands[0], err)
	}
	if a.json {
		return printJSON(w, res.Messages)
	}
	m := res.Message
	fmt.Fprintf(w, "id:     %s\nfrom:   %s\nkind:   %s\nqueued: %s\n", m.ID, m.From, m.Kind, time.UnixMilli(m.Queued).Format(time.RFC3339))
	for _, r := range res.Messages {
		fmt.Fprintf(w, "to:     %s (%s)\n", r.To, phase(r))
	}
	_, err = fmt.Fprintf(w, "\n%s\n", m.Body)
	return err
}

// events prints every X_EVENT as one JSON line until the session ends or a signal.
func events(ctx context.Context, c *client.Conn, w io.Writer) error {
	if _, err := c.Request(proto.TypeEvents, struct{}{}); err != nil {
		return fmt.Errorf("events: %w", err)
	}
	ctx, stop := signal.NotifyContext(ctx, os.Interrupt, syscall.SIGTERM)
	defer stop()
	go func() {
		<-ctx.Done()
		c.Raw().Close() // unblocks the read below
	}()
	for {
		e, err := c.Read()
		if err != nil {
			if ctx.Err() != nil {
				return nil
			}
			if errors.Is(err, io.EOF) {
				return errors.New("events: the session closed the connection")
			}
			return fmt.Errorf("events: %w", err)
		}
		switch e.Type {
		case proto.TypeEvent:
			if _, err := w.Write(append(e.Payload, '\n')); err != nil {
				return err
			}
		case proto.TypeBye:
			return nil
		}
	}
}

// webCommand asks the session to start its web view (or where it runs) and prints its
// URL, then what to know about it.
func webCommand(c *client.Conn, a clientArgs, w io.Writer) error {
	res, err := c.Request(proto.TypeWeb, proto.Web{Listen: a.listen, Control: a.control})
	if err != nil {
		return err
	}
	v := res.Web
	if v == nil {
		return errors.New("web: the session answered no URL")
	}
	if a.json {
		return printJSON(w, v)
	}
	fmt.Fprintln(w, v.URL)
	if v.Warning != "" {
		fmt.Fprintln(w, "warning: "+v.Warning)
	}
	switch {
	case v.Running && (a.control != v.Control || a.listen != ""):
		fmt.Fprintf(w, "(the web view was running already, %s: as it was started)\n", webMode(v.Control))
	case !v.Control:
		fmt.Fprintln(w, "(read-only: a view started with --control lets the page send, link and type)")
	}
	return nil
}

// webMode says whether a web view's pages may act.
func webMode(control bool) string {
	if control {
		return "with control"
	}
	return "read-only"
}
