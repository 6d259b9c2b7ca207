package main

import (
	"bytes"
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"text/tabwriter"
	"time"

	"github.com/agentmux/agentmux/action"
	"github.com/agentmux/agentmux/attach"
	"github.com/agentmux/agentmux/client"
	"github.com/agentmux/agentmux/dirs"
	"github.com/agentmux/agentmux/proto"
	"github.com/agentmux/agentmux/store"
	spend "github.com/agentmux/agentmux/usage"
)

// clientArgs is a subcommand's parsed words: the common flags, the operands, and the
// command's own flags (own reads them), each set by a flagSpec of the command table
// (commands.go).
type clientArgs struct {
	session  string
	json     bool
	operands []string
	// given names the flags given (by their first name).
	given map[string]bool
	// own holds the command's own flags (a *sendArgs for send…), nil when none was
	// given.
	own any
}

// sendArgs are send's own flags: its delivery options, its waits, and --raw's.
type sendArgs struct {
	from                 string
	mode                 string // important or urgent
	timeout, notifyAfter time.Duration
	notifyOnDelivery     bool
	// wait: wait for the message's last phase; reply: for the answer to it.
	wait, reply bool
	// raw: type the text as it is; noEnter: without the Enter after it.
	raw, enter, noEnter bool
}

// remindArgs are remind's and wake's: the pane reminded.
type remindArgs struct{ to string }

// linkArgs are link's: its budgets and shells, or an answer to another session's
// link request (accept, refuse) or their list (pending).
type linkArgs struct {
	shell                   bool
	turns                   int
	budget                  string
	accept, refuse, pending bool
}

// captureArgs are capture's: lines of history, and colour.
type captureArgs struct {
	lines   int
	escapes bool
}

// historyArgs are history's: whose messages, since when, how many.
type historyArgs struct {
	member string
	since  time.Duration
	limit  int
}

// sessionsArgs are sessions': ended sessions too.
type sessionsArgs struct{ all bool }

// webArgs are web's: where its view listens, whether its pages may act, its TLS, and
// --stop.
type webArgs struct {
	listen                  string
	control, readOnly, stop bool
	tlsCert, tlsKey         string
}

// timeFormat is how the commands print a time for a person (JSON has ms since the
// epoch): local time, to the second, as history, read and sessions --all all show it.
const timeFormat = "2006-01-02 15:04:05"

// dialSession connects to the session a names (--session, else $AGENTMUX_SESSION, else
// the only running one): inside a pane the pane's proof says the command comes from
// it; elsewhere it is the person's. path is the session's socket.
func dialSession(a clientArgs) (c *client.Conn, path string, err error) {
	if path, err = client.Socket(a.session); err != nil {
		return nil, "", err
	}
	c, err = client.DialHere(path)
	return c, path, err
}

// onSession is the exec of a session command that asks the running session and
// prints its answer: fn, on a connection to it; exit 1 when the session cannot be
// reached or fn fails.
func onSession(fn func(c *client.Conn, a clientArgs, w io.Writer) error) execFunc {
	return orFromStore("", fn)
}

// orFromStore is onSession(fn) for command cmd whose answer the store gives, when the
// session cannot be reached (offline.go: it keeps what ended sessions said): history's
// and read's. With cmd "" there is none: exit 1.
func orFromStore(cmd string, fn func(c *client.Conn, a clientArgs, w io.Writer) error) execFunc {
	return func(_ context.Context, a clientArgs, sio stdio) (int, error) {
		c, _, err := dialSession(a)
		switch {
		case err != nil && cmd != "":
			return fromStore(cmd, a, sio.out, err)
		case err != nil:
			return 1, err
		}
		defer c.Close()
		return exit(fn(c, a, sio.out))
	}
}

// execLs is ls: the session's members, or with the mesh flags the mesh's (meshcmd.go).
func execLs(ctx context.Context, a clientArgs, sio stdio) (int, error) {
	if o := own[lsArgs](a); o.meshOn || o.mesh != (meshFlags{}) {
		return lsMesh(a, sio.out)
	}
	return onSession(ls)(ctx, a, sio)
}

// offSession is the exec of a session command that reads the sockets and the store,
// asking no one session: sessions, inbox (inboxcmd.go).
func offSession(fn func(a clientArgs, w io.Writer) error) execFunc {
	return func(_ context.Context, a clientArgs, sio stdio) (int, error) {
		return exit(fn(a, sio.out))
	}
}

// execSend is send: its flags and message checked before the session is asked; then
// typed as it is (--raw), or sent and waited for (--wait, --reply: sendwait.go).
func execSend(ctx context.Context, a clientArgs, sio stdio) (int, error) {
	o := own[sendArgs](a)
	if o.from != "" {
		if err := proto.CheckName(proto.SenderName, o.from); err != nil {
			return 2, usagef("agentmux send: --from %s: %v", strconv.Quote(o.from), err)
		}
	}
	body, err := messageText(a.operands[1:], sio.in)
	if err != nil {
		return 2, err
	}
	if err := rawFlags(a); err != nil {
		return 2, err
	}
	if o.wait && a.operands[0] == "*" {
		return 2, usagef("agentmux send: --wait waits for one recipient, not *")
	}
	if err := replyFlags(a); err != nil {
		return 2, err
	}
	if o.from != "" {
		if err := proto.CheckVisible(o.from); err != nil {
			return 2, usagef("agentmux send: --from: %v", err)
		}
	}
	c, path, err := dialSession(a)
	if err != nil {
		return 1, err
	}
	defer c.Close()
	switch {
	case o.raw:
		return exit(typeRaw(c, a, body, sio.out))
	case o.wait:
		return sendAndWait(ctx, path, c, a, body, sio.out)
	case o.reply:
		return sendAndReply(ctx, path, c, a, body, sio.out) // sendwait.go
	}
	_, err = send(c, a, body, sio.out)
	return exit(err)
}

// execNew is new: the pane's command checked, then started (panecmd.go).
func execNew(ctx context.Context, a clientArgs, sio stdio) (int, error) {
	np, err := newPane(a)
	if err != nil {
		return 2, err
	}
	return onSession(func(c *client.Conn, a clientArgs, w io.Writer) error {
		return startPane(c, a, np, w)
	})(ctx, a, sio)
}

// execRename is rename: the new name checked first.
func execRename(ctx context.Context, a clientArgs, sio stdio) (int, error) {
	if err := proto.CheckName(proto.PaneName, a.operands[1]); err != nil {
		return 2, usagef("agentmux rename: %v", err)
	}
	return onSession(paneAct(action.Rename))(ctx, a, sio)
}

// execRemind is remind and wake (cmd): the delay and the message checked, the pane by
// default the one it runs in.
func execRemind(cmd string) execFunc {
	return func(ctx context.Context, a clientArgs, sio stdio) (int, error) {
		return remindExec(ctx, cmd, a, sio)
	}
}

func remindExec(ctx context.Context, cmd string, a clientArgs, sio stdio) (int, error) {
	after, err := time.ParseDuration(a.operands[0])
	if err != nil || after < 0 {
		return 2, usagef("agentmux %s: %q: not a duration (e.g. 10m, 90s)", cmd, a.operands[0])
	}
	body, err := messageText(a.operands[1:], sio.in)
	if err != nil {
		return 2, err
	}
	to := cmp.Or(own[remindArgs](a).to, os.Getenv("AGENTMUX_NAME"), os.Getenv("AGENTMUX_PANE"))
	if to == "" {
		return 2, usagef("agentmux %s: not run in a pane ($AGENTMUX_NAME unset): name one with --to", cmd)
	}
	return onSession(func(c *client.Conn, a clientArgs, w io.Writer) error {
		return remind(c, a, to, after, body, w)
	})(ctx, a, sio)
}

// execLink is link: two panes, or an answer to another session's request.
func execLink(ctx context.Context, a clientArgs, sio stdio) (int, error) {
	if err := checkLinkArgs(a); err != nil {
		return 2, err
	}
	return onSession(act(action.Link))(ctx, a, sio)
}

// execEvents is events: the stream until the session ends or a signal.
func execEvents(ctx context.Context, a clientArgs, sio stdio) (int, error) {
	return onSession(func(c *client.Conn, _ clientArgs, w io.Writer) error { return events(ctx, c, w) })(ctx, a, sio)
}

// execWeb is web: NAME, when given, is the session.
func execWeb(ctx context.Context, a clientArgs, sio stdio) (int, error) {
	if len(a.operands) == 1 {
		if a.session != "" && a.session != a.operands[0] {
			return 2, usagef("agentmux web: two sessions named (%s and --session %s)", a.operands[0], a.session)
		}
		a.session = a.operands[0]
	}
	return onSession(webCommand)(ctx, a, sio)
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
		b, err := io.ReadAll(io.LimitReader(stdin, proto.DefaultMaxFrameBytes+1))
		if err != nil {
			return "", fmt.Errorf("read stdin: %w", err)
		}
		if len(b) > proto.DefaultMaxFrameBytes {
			return "", usagef("agentmux send: the message on stdin is longer than %d bytes, the most one message holds: send a shorter one (or a file's path)", proto.DefaultMaxFrameBytes)
		}
		text = strings.TrimRight(string(b), "\n")
	}
	if strings.TrimSpace(text) == "" {
		return "", usagef("agentmux send: the message is empty")
	}
	return text, nil
}

// printJSON writes v as one line of JSON, with what a terminal would obey escaped.
func printJSON(w io.Writer, v any) error {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return err
	}
	_, err := w.Write(safeJSON(b.Bytes()))
	return err
}

// sessions prints the running sessions (with --all also the ended ones whose messages
// the store keeps): --json as before, a list of each; for a person one table, the same
// columns with and without --all, under a header.
func sessions(a clientArgs, w io.Writer) error {
	o := own[sessionsArgs](a)
	dir, err := dirs.RuntimeDir()
	if err != nil {
		return err
	}
	ss, err := dirs.Sessions(dir)
	if err != nil {
		return err
	}
	var kept []store.SessionSummary
	if st, err := openStoreIfAny(); err == nil {
		kept, err = st.Sessions()
		st.Close()
		if err != nil && o.all {
			return err
		}
	}
	live := make([]liveSession, 0, len(ss))
	for _, s := range ss {
		cl, ok := sessionClients(s.Socket)
		if !ok {
			live = append(live, liveSession{Session: s, Attached: true, Clients: []attach.Client{}, InProcess: true})
			continue
		}
		live = append(live, liveSession{Session: s, Attached: len(cl.Clients) > 0, Clients: cl.Clients, Pid: cl.Pid, Isolation: cl.Isolation})
	}
	rows := sessionRows(live, kept, o.all)
	var rs []restorable
	if o.all {
		if st, err := openStoreIfAny(); err == nil {
			rs, err = restorables(st)
			st.Close()
			if err != nil {
				return err
			}
		}
		rows = withRestorables(rows, rs)
	}
	switch {
	case a.json && o.all:
		return printJSON(w, rows)
	case a.json:
		return printJSON(w, live)
	case len(rows) == 0 && o.all:
		_, err := fmt.Fprintln(w, "no session is running, and the store keeps no ended one's messages")
		return err
	case len(rows) == 0:
		_, err := fmt.Fprintln(w, "no session is running (agentmux sessions --all also lists ended ones with history)")
		return err
	}
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "NAME\tSTATE\tTERMINALS\tMESSAGES\tLAST\tSOCKET")
	for _, r := range rows {
		terms, msgs, last, socket := "-", "-", "-", "-"
		if r.Terminals != "" {
			terms = r.Terminals
		}
		if r.Messages > 0 {
			msgs = strconv.Itoa(r.Messages)
		}
		if r.Last > 0 {
			last = time.UnixMilli(r.Last).Format(timeFormat)
		}
		if r.Socket != "" {
			socket = line(r.Socket)
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\t%s\n", line(r.Name), r.State, terms, msgs, last, socket)
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	return printRestorables(w, rs)
}

// withRestorables marks the rows of the sessions restore can bring back, adding those
// the store has no messages of.
func withRestorables(rows []sessionRow, rs []restorable) []sessionRow {
	for _, r := range rs {
		found := false
		for i := range rows {
			if rows[i].Name == r.Name && !rows[i].Running {
				rows[i].Restore, rows[i].State, found = &r, "restorable", true
			}
		}
		if !found {
			rows = append(rows, sessionRow{Name: r.Name, State: "restorable", Restore: &r})
		}
	}
	return rows
}

// liveSession is a running session as sessions --json lists it.
type liveSession struct {
	dirs.Session
	Attached bool            `json:"attached"`
	Clients  []attach.Client `json:"clients"`
	Pid      int             `json:"pid,omitempty"` // the session server's
	// InProcess: the session runs inside its terminal (agentmux demo, or a test's
	// hub): it cannot detach and lists no clients.
	InProcess bool `json:"in_process,omitempty"`
	// Isolation says how the session tells its panes from the person
	// (docs/security.md).
	Isolation string `json:"isolation,omitempty"`
}

// sessionRow is one line of sessions' table (and of sessions --all --json): a running
// session, or an ended one the store still has messages of.
type sessionRow struct {
	Name     string `json:"name"`
	Running  bool   `json:"running"`
	Socket   string `json:"socket,omitempty"`
	Messages int    `json:"messages"`
	Last     int64  `json:"last_ms,omitempty"`
	// State is attached, detached, in its terminal or ended; Terminals the attached
	// ones' sizes ("" when none). For the table only.
	State     string `json:"-"`
	Terminals string `json:"-"`
	// Restore, for a session that is not running, is what agentmux restore would bring
	// back (nil: it cannot).
	Restore *restorable `json:"restore,omitempty"`
	// A running session's row says what sessions --json says of it too (attached, its
	// terminals, the server's pid, isolation): --all adds rows, it takes nothing away.
	*liveSession
}

// sessionRows are the running sessions, with what the store keeps of each, then with
// all the ended ones the store keeps, by name.
func sessionRows(live []liveSession, kept []store.SessionSummary, all bool) []sessionRow {
	rows := map[string]*sessionRow{}
	var order []string
	for _, e := range live {
		r := &sessionRow{Name: e.Name, Running: true, Socket: e.Socket, State: "detached", liveSession: &e}
		switch {
		case e.InProcess:
			r.State = "in its terminal"
		case e.Attached:
			var cs []string
			for _, c := range e.Clients {
				d := fmt.Sprintf("%dx%d", c.Cols, c.Rows)
				if c.Control {
					d += " in control"
				}
				if c.ReadOnly {
					d += " read-only"
				}
				cs = append(cs, d)
			}
			r.State, r.Terminals = "attached", fmt.Sprintf("%d: %s", len(e.Clients), strings.Join(cs, ", "))
		}
		rows[e.Name] = r
		order = append(order, e.Name)
	}
	for _, k := range kept {
		r := rows[k.Name]
		if r == nil {
			if !all {
				continue
			}
			r = &sessionRow{Name: k.Name, State: "ended"}
			rows[k.Name] = r
			order = append(order, k.Name)
		}
		r.Messages, r.Last = k.Messages, k.Last
	}
	out := make([]sessionRow, 0, len(order))
	for _, n := range order {
		out = append(out, *rows[n])
	}
	return out
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
	folders := false
	for _, m := range res.Members {
		folders = folders || m.Folder != ""
	}
	head := "#\tNAME\tPROGRAM\tPROFILE\tSTATE\tGROUP\tWAITING\tTOKENS\tCOST"
	if folders {
		head += "\tFOLDER"
	}
	fmt.Fprintln(tw, head)
	for _, m := range res.Members {
		num := "-"
		if m.Number > 0 {
			num = strconv.Itoa(m.Number)
		}
		group := m.Group
		if group == "" {
			group = "-"
		} else if m.Turns != nil { // as the status line counts it: "1⇄bob@buildbox 3/8"
			group += " " + m.Turns.String()
		}
		state := m.State
		if m.Held { // as the border says it
			state += " · held"
		}
		if m.Addressing {
			state += " · addressing"
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\t%s\t%d\t%s", num, line(m.Name), line(m.Program), line(cmp.Or(m.Profile, "-")), line(state), line(group), m.Waiting, memberSpend(m))
		if folders {
			fmt.Fprintf(tw, "\t%s", line(folderText(m)))
		}
		fmt.Fprintln(tw)
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	// Link requests from other sessions waiting for the person (a session in a mesh;
	// any other says it joined none, which ls need not repeat).
	if p, err := c.Request(proto.TypeLink, proto.Target{Pending: true}); err == nil {
		for _, r := range p.LinkRequests {
			fmt.Fprintf(w, "pending: %s asks to link with %s (%d turns): agentmux link --accept %s, or --refuse\n",
				line(r.From), line(r.To), r.Turns, line(r.From))
		}
	}
	return nil
}

// send sends body from the pane the command runs in (proved by its $AGENTMUX_PROOF),
// else from the person, or from --from NAME; it prints and returns the message's id.
func send(c *client.Conn, a clientArgs, body string, w io.Writer) (string, error) {
	ack, err := post(c, a, body)
	if err != nil {
		return "", err
	}
	id := ack.MessageID
	if a.json {
		out := map[string]string{"id": id, "status": "queued"}
		if ack.XNote != "" {
			out["note"] = ack.XNote
		}
		return id, printJSON(w, out)
	}
	if ack.XNote != "" {
		_, err = fmt.Fprintf(w, "%s queued (%s)\n", line(id), line(ack.XNote))
		return id, err
	}
	_, err = fmt.Fprintf(w, "%s queued\n", line(id))
	return id, err
}

// post sends body to a.operands[0] with send's options and returns the session's ACK.
func post(c *client.Conn, a clientArgs, body string) (proto.Ack, error) {
	o := own[sendArgs](a)
	var meta *proto.SendMeta
	if o.mode != "" || o.timeout > 0 || o.notifyOnDelivery || o.notifyAfter > 0 {
		meta = &proto.SendMeta{
			Mode: o.mode, TTLMs: o.timeout.Milliseconds(),
			XNotifyOnDelivery: o.notifyOnDelivery, XNotifyAfterMs: o.notifyAfter.Milliseconds(),
		}
	}
	ack, err := c.SendAck(o.from, a.operands[0], body, meta)
	if err != nil {
		return proto.Ack{}, fmt.Errorf("send to %s: %w", a.operands[0], err)
	}
	return ack, nil
}

// remind sends a reminder to pane to (by default the one it runs in), stored with its
// delay: a session started again on the same store still types it when due.
func remind(c *client.Conn, a clientArgs, to string, after time.Duration, body string, w io.Writer) error {
	id, err := c.SendMeta("", to, body, &proto.SendMeta{XRemindMs: max(after.Milliseconds(), 1)})
	if err != nil {
		return fmt.Errorf("remind %s: %w", to, err)
	}
	if a.json {
		return printJSON(w, map[string]string{"id": id, "status": "scheduled", "due": time.Now().Add(after).UTC().Format(time.RFC3339)})
	}
	_, err = fmt.Fprintf(w, "%s scheduled for %s\n", line(id), time.Now().Add(after).Format("15:04:05"))
	return err
}

// act is link, unlink, hold or release (cmd), asked of the session as its request.
func act(cmd action.Name) func(c *client.Conn, a clientArgs, w io.Writer) error {
	return func(c *client.Conn, a clientArgs, w io.Writer) error {
		var link linkArgs
		if cmd == action.Link {
			link = *own[linkArgs](a)
		}
		if link.accept || link.refuse || link.pending {
			return answerLink(c, a, w)
		}
		t := proto.Target{A: a.operands[0]}
		if cmd == action.Link {
			t.B, t.Shell, t.Turns, t.Budget = a.operands[1], link.shell, link.turns, link.budget
		}
		if _, err := c.Request(cmd.Request(), t); err != nil {
			if cmd == action.Link && strings.Contains(err.Error(), "runs a shell") {
				return fmt.Errorf("link: %w (agentmux link --shell A B links it anyway)", err)
			}
			return fmt.Errorf("%s: %w", cmd, err)
		}
		if a.json {
			return printJSON(w, map[string]bool{"ok": true})
		}
		return nil
	}
}

// checkLinkArgs checks link's operands: A and B, or an answer (--accept, --refuse
// with at most one NAME@SESSION) or --pending alone.
func checkLinkArgs(a clientArgs) error {
	o := own[linkArgs](a)
	n := 0
	for _, on := range []bool{o.accept, o.refuse, o.pending} {
		if on {
			n++
		}
	}
	switch {
	case n == 0 && len(a.operands) != 2:
		return usagef("agentmux link: wrong number of arguments (agentmux help link shows the usage)")
	case n > 1 || n == 1 && (len(a.operands) > 1 || o.pending && len(a.operands) > 0 || o.shell || o.turns > 0 || a.given["budget"]):
		return usagef("agentmux link: --accept [NAME@SESSION], --refuse [NAME@SESSION] or --pending, one of them, alone")
	}
	if b, err := spend.ParseBudget(o.budget); a.given["budget"] && (err != nil || b.IsZero()) {
		return usagef("agentmux link: --budget %q: use tokens like 300k, 1.5M or 12000, or dollars like '$2' or '$0.50'", o.budget)
	}
	return nil
}

// answerLink answers (--accept, --refuse) or lists (--pending) the link requests of
// other sessions' members.
func answerLink(c *client.Conn, a clientArgs, w io.Writer) error {
	o := own[linkArgs](a)
	t := proto.Target{Accept: o.accept, Refuse: o.refuse, Pending: o.pending}
	if len(a.operands) == 1 {
		t.A = a.operands[0]
	}
	res, err := c.Request(proto.TypeLink, t)
	if err != nil {
		return fmt.Errorf("link: %w", err)
	}
	switch {
	case a.json && o.pending:
		if res.LinkRequests == nil {
			res.LinkRequests = []proto.LinkRequest{}
		}
		return printJSON(w, res.LinkRequests)
	case a.json:
		return printJSON(w, map[string]bool{"ok": true})
	case o.pending:
		if len(res.LinkRequests) == 0 {
			_, err = fmt.Fprintln(w, "no link request waits")
			return err
		}
		for _, r := range res.LinkRequests {
			_, err = fmt.Fprintf(w, "%s asks to link with %s (%d turns) since %s\n", visible(r.From, false), visible(r.To, false),
				r.Turns, time.UnixMilli(r.At).Format("15:04:05"))
		}
		return err
	case o.accept:
		_, err = fmt.Fprintln(w, "linked")
	default:
		_, err = fmt.Fprintln(w, "refused")
	}
	return err
}

func capture(c *client.Conn, a clientArgs, w io.Writer) error {
	o := own[captureArgs](a)
	res, err := c.Request(proto.TypeCapture, proto.Capture{Target: a.operands[0], Lines: o.lines, SGR: o.escapes})
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
	if o.escapes {
		screen = visibleStyled(screen) // the styles pass, what the cells hold does not
	} else {
		screen = visible(screen, true) // what a pane's cells hold may still be a C1 control
	}
	if screen != "" && !strings.HasSuffix(screen, "\n") {
		screen += "\n"
	}
	_, err = io.WriteString(w, screen)
	return err
}

// historyPages asks for the newest limit messages (0: the server's default, 100), page
// by page: each answer fits a frame, and says where the older ones go on.
func historyPages(c *client.Conn, q proto.History) ([]proto.Message, error) {
	want := q.Limit
	if want <= 0 {
		want = 100
	}
	var got []proto.Message
	for {
		q.Limit = want - len(got)
		res, err := c.Request(proto.TypeHistory, q)
		if err != nil {
			return nil, err
		}
		got = append(res.Messages, got...)
		if res.Next == 0 || len(got) >= want || len(res.Messages) == 0 {
			return got, nil
		}
		q.Before = res.Next
	}
}

func history(c *client.Conn, a clientArgs, w io.Writer) error {
	o := own[historyArgs](a)
	q := proto.History{Member: o.member, Limit: o.limit}
	if o.since > 0 {
		q.SinceMs = time.Now().Add(-o.since).UnixMilli()
	}
	ms, err := historyPages(c, q)
	if err != nil {
		return fmt.Errorf("history: %w", err)
	}
	return printHistory(w, a, ms)
}

// printHistory prints messages as history does: one line each, or JSON.
func printHistory(w io.Writer, a clientArgs, ms []proto.Message) error {
	if a.json {
		if ms == nil {
			ms = []proto.Message{}
		}
		return printJSON(w, ms)
	}
	for _, m := range ms {
		first, _, cut := strings.Cut(m.Body, "\n")
		if r := []rune(first); len(r) > 60 {
			first, cut = string(r[:60]), true
		}
		first = line(first)
		if cut || m.Cut {
			first += "…"
		}
		fmt.Fprintf(w, "%s  %s  %s → %s  %s  %s\n", time.UnixMilli(m.Queued).Format(timeFormat), line(m.ID), line(m.From), line(m.To), m.Phase(), first)
	}
	return nil
}

// read prints message ID: its header, then its body as the parts arrive (a body larger
// than a frame comes in several answers).
func read(c *client.Conn, a clientArgs, w io.Writer) error {
	id := a.operands[0]
	res, err := c.Request(proto.TypeRead, proto.Read{ID: id})
	if err != nil {
		return fmt.Errorf("read %s: %w", id, err)
	}
	if res.Message == nil || len(res.Messages) == 0 {
		return fmt.Errorf("read %s: the session answered no message", id)
	}
	m := *res.Message
	next := func(res *proto.Result) (*proto.Result, error) {
		r, err := c.Request(proto.TypeRead, proto.Read{ID: id, Offset: res.NextOffset})
		if err == nil && r.Message == nil {
			err = errors.New("the session answered no message")
		}
		if err != nil {
			return nil, fmt.Errorf("read %s from byte %d: %w", id, res.NextOffset, err)
		}
		return r, nil
	}
	if a.json {
		var body strings.Builder
		body.WriteString(m.Body)
		for r := res; r.NextOffset > 0; {
			if r, err = next(r); err != nil {
				return err
			}
			body.WriteString(r.Message.Body)
		}
		rows := res.Messages
		for i := range rows {
			if rows[i].Cut {
				rows[i].Body, rows[i].Data, rows[i].Cut, rows[i].BodyBytes = body.String(), m.Data, false, 0
			}
		}
		return printJSON(w, rows)
	}
	writeReadHeader(w, m, res.Messages)
	if _, err := fmt.Fprintf(w, "\n%s", visible(m.Body, true)); err != nil {
		return err
	}
	for r := res; r.NextOffset > 0; {
		if r, err = next(r); err != nil {
			return err
		}
		if _, err := io.WriteString(w, visible(r.Message.Body, true)); err != nil {
			return err
		}
	}
	_, err = io.WriteString(w, "\n")
	return err
}

// writeReadHeader prints read's header: the message's id, sender, kind, time, and each
// recipient with its phase.
func writeReadHeader(w io.Writer, m proto.Message, rows []proto.Message) {
	fmt.Fprintf(w, "id:     %s\nfrom:   %s\nkind:   %s\nqueued: %s\n", line(m.ID), line(m.From), line(m.Kind), time.UnixMilli(m.Queued).Format(timeFormat))
	for _, r := range rows {
		fmt.Fprintf(w, "to:     %s (%s)\n", line(r.To), r.Phase())
	}
}

// events prints every X_EVENT as one JSON line until the session ends or a signal.
func events(ctx context.Context, c *client.Conn, w io.Writer) error {
	if _, err := c.Request(proto.TypeEvents, struct{}{}); err != nil {
		return fmt.Errorf("events: %w", err)
	}
	err := eachEvent(ctx, c, func(payload json.RawMessage) (bool, error) {
		_, err := w.Write(append(safeJSON(payload), '\n'))
		return false, err
	})
	switch {
	case errors.Is(err, errInterrupted), errors.Is(err, errBye):
		return nil
	case errors.Is(err, io.EOF):
		return errors.New("events: the session closed the connection")
	}
	if he, ok := err.(handlerError); ok {
		return he.err
	}
	if err != nil {
		return fmt.Errorf("events: %w", err)
	}
	return nil
}

// How an event stream ended, besides a handler that said it is done (nil).
var (
	errInterrupted = errors.New("interrupted")          // a signal, or ctx
	errBye         = errors.New("the session said BYE") // the session ends
)

// handlerError is an eachEvent handler's own error, returned as it is.
type handlerError struct{ err error }

func (h handlerError) Error() string { return h.err.Error() }

// eachEvent hands every X_EVENT payload on c (subscribed already) to fn until fn says
// it is done (nil), a signal or ctx stops it (errInterrupted), the session says BYE
// (errBye), fn fails (handlerError holding its error) or reading fails (io.EOF when
// the session closed the connection).
func eachEvent(ctx context.Context, c *client.Conn, fn func(json.RawMessage) (bool, error)) error {
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
				return errInterrupted
			}
			return err
		}
		switch e.Type {
		case proto.TypeEvent:
			done, err := fn(e.Payload)
			if err != nil {
				return handlerError{err}
			}
			if done {
				return nil
			}
		case proto.TypeBye:
			return errBye
		}
	}
}

// webCommand asks the session to start its web view (or for a fresh link to it, or to
// stop it) and prints its URL, then what to know about it.
func webCommand(c *client.Conn, a clientArgs, w io.Writer) error {
	o := own[webArgs](a)
	req := proto.Web{Listen: o.listen, Control: o.control, ReadOnly: o.readOnly, Stop: o.stop}
	if o.control && o.readOnly {
		return usagef("agentmux web: --control and --read-only exclude each other")
	}
	if o.stop && (o.control || o.readOnly || o.listen != "" || o.tlsCert != "" || o.tlsKey != "") {
		return usagef("agentmux web: --stop takes no other flag")
	}
	if (o.tlsCert == "") != (o.tlsKey == "") {
		return usagef("agentmux web: --tls-cert and --tls-key go together")
	}
	var err error
	if o.tlsCert != "" {
		// The session's server reads them, from its own working folder.
		if req.TLSCert, err = filepath.Abs(o.tlsCert); err != nil {
			return err
		}
		if req.TLSKey, err = filepath.Abs(o.tlsKey); err != nil {
			return err
		}
	}
	res, err := c.Request(proto.TypeWeb, req)
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
	if v.Stopped {
		switch {
		case !v.Running:
			fmt.Fprintln(w, "no web view was running")
		case v.Pages == 1:
			fmt.Fprintln(w, "web view stopped (1 page closed)")
		case v.Pages > 0:
			fmt.Fprintf(w, "web view stopped (%d pages closed)\n", v.Pages)
		default:
			fmt.Fprintln(w, "web view stopped")
		}
		return nil
	}
	fmt.Fprintln(w, v.URL)
	if v.Warning != "" {
		fmt.Fprintln(w, "warning: "+v.Warning)
	}
	switch {
	case v.Restarted != "":
		fmt.Fprintf(w, "(the web view was restarted, %s: %s; its pages were closed and its old links no longer work)\n", webMode(v.Control), v.Restarted)
	case v.Running:
		fmt.Fprintf(w, "(the web view was running already, %s; this link is new: a link opens one page)\n", webMode(v.Control))
	case !v.Control:
		fmt.Fprintln(w, "(read-only: agentmux web --control restarts it so that the page may send, link and type)")
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
