package mesh

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/agentmux/agentmux/hub"
	"github.com/agentmux/agentmux/proto"
	"github.com/agentmux/agentmux/store"
	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"
)

// Options configure a session's membership of a mesh.
type Options struct {
	// URL is the mesh's NATS URL (a hub's, or a NATS server's client listener).
	URL string
	// Session is this session's name, unique in the mesh.
	Session string
	// CAFile, when set, is the PEM file of the certificate authority the hub's TLS
	// certificate is checked against (else the system's).
	CAFile string
	// CredsFile holds the credentials: the file `agentmux mesh creds` writes, or a
	// NATS .creds file (user JWT and seed). NkeyFile holds an nkey seed instead.
	CredsFile, NkeyFile string
	// Store records the messages that reach this session's members (history, and
	// the ids that make a message crossing twice typed once).
	Store *store.Store
	// Core types the crossing messages into this session's panes (Join; Dial leaves
	// it to Start). It must be a core of its own, not the one the session socket's hub
	// uses (Wrap that one): the node calls it from its own loop.
	Core hub.Core
	// Logger receives diagnostics; nil discards them.
	Logger *slog.Logger
	// ReconnectWait is the pause between attempts to reach the hub (0: 500 ms).
	ReconnectWait time.Duration
	// Timeout bounds joining (0: 10 s).
	Timeout time.Duration
}

// ErrNameTaken says another session of the mesh has the name.
var ErrNameTaken = errors.New("session name taken in the mesh")

// Node is a session's membership of a mesh: it sends its members' messages to other
// sessions and types theirs into its panes.
type Node struct {
	o    Options
	log  *slog.Logger
	nc   *nats.Conn
	js   jetstream.JetStream
	cons jetstream.Consumer
	cc   jetstream.ConsumeContext
	core atomic.Pointer[hub.Core]
	who  *nats.Subscription
	out  *outbox
	evq  *eventQueue
	in   chan jetstream.Msg
	evs  hub.Events
	stop chan struct{}
	wg   sync.WaitGroup

	knownMu sync.Mutex
	known   map[string]func() // learnt names of other sessions' members (learn.go)

	// Owned by the loop: the core's events' Ready; ended once they ended (the
	// session stopped); signalled when coreGone took a signal of theirs.
	ready            <-chan struct{}
	ended, signalled bool

	// refs maps the core's delivery refs of crossing messages typed here to them
	// (owned by the loop).
	refs map[string]received
}

// received is a crossing message typed into one of this session's panes.
type received struct{ id, fromSession, to string }

// Join is Dial, then Start with o.Core.
func Join(o Options) (*Node, error) {
	if o.Core == nil {
		return nil, errors.New("mesh: join needs a core")
	}
	n, err := Dial(o)
	if err != nil {
		return nil, err
	}
	if err := n.Start(o.Core); err != nil {
		return nil, err
	}
	return n, nil
}

// Dial connects the session to the mesh before its panes start: it refuses wrong
// credentials and a name another live session has, and makes (or finds) the
// session's stream and consumer. Start then types what waits there.
func Dial(o Options) (*Node, error) {
	if err := CheckName(o.Session); err != nil {
		return nil, err
	}
	if o.Store == nil {
		return nil, errors.New("mesh: dial needs a store")
	}
	if o.Timeout <= 0 {
		o.Timeout = 10 * time.Second
	}
	if o.ReconnectWait <= 0 {
		o.ReconnectWait = 500 * time.Millisecond
	}
	log := o.Logger
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	n := &Node{
		o: o, log: log, evq: newEventQueue(), in: make(chan jetstream.Msg, maxBatch),
		stop: make(chan struct{}), refs: map[string]received{},
	}
	n.out = newOutbox()
	opts, err := connectOptions(o)
	if err != nil {
		return nil, err
	}
	opts = append(opts,
		nats.ReconnectHandler(func(*nats.Conn) { n.out.wake() }),
		nats.DisconnectErrHandler(func(_ *nats.Conn, err error) {
			if err != nil {
				log.Warn("mesh: link to the hub down", "err", err)
			}
		}),
	)
	nc, err := nats.Connect(o.URL, opts...)
	if err != nil {
		return nil, fmt.Errorf("mesh %s: %w", o.URL, explainConnect(err))
	}
	n.nc = nc
	if err := n.dial(); err != nil {
		if n.who != nil {
			_ = n.who.Unsubscribe()
		}
		nc.Close()
		return nil, err
	}
	return n, nil
}

func (n *Node) dial() error {
	o := n.o
	// The name: a live session with it answers on amux.who.NAME.
	// A session that just left may still be subscribed for a moment and answer
	// nothing: silence (a timeout) is no live session either.
	if _, err := n.nc.Request("amux.who."+o.Session, nil, min(o.Timeout, 2*time.Second)); err == nil {
		return fmt.Errorf("mesh: %w: a session named %q is live in the mesh; pick another name with --session", ErrNameTaken, o.Session)
	} else if errors.Is(err, nats.ErrTimeout) {
		n.log.Warn("mesh: a session of this name was subscribed but did not answer: taken as gone", "session", o.Session)
	} else if !errors.Is(err, nats.ErrNoResponders) {
		return fmt.Errorf("mesh: checking the session name: %w", err)
	}
	sub, err := n.nc.Subscribe("amux.who."+o.Session, n.answerWho)
	if err != nil {
		return fmt.Errorf("mesh: %w", err)
	}
	n.who = sub
	js, err := jetstream.New(n.nc)
	if err != nil {
		return fmt.Errorf("mesh: %w", err)
	}
	n.js = js
	ctx, cancel := context.WithTimeout(context.Background(), o.Timeout)
	defer cancel()
	stream := streamName(o.Session)
	if _, err := js.Stream(ctx, stream); errors.Is(err, jetstream.ErrStreamNotFound) {
		// A NATS server that is not an agentmux hub: make the stream ourselves.
		_, err = js.CreateStream(ctx, streamConfig(o.Session, 10*time.Minute))
		if err != nil {
			return fmt.Errorf("mesh: making stream %s: %w", stream, err)
		}
	} else if err != nil {
		return fmt.Errorf("mesh: stream %s: %w", stream, err)
	}
	cons, err := js.CreateOrUpdateConsumer(ctx, stream, jetstream.ConsumerConfig{
		Durable:   o.Session,
		AckPolicy: jetstream.AckExplicitPolicy,
		AckWait:   30 * time.Second,
	})
	if err != nil {
		return fmt.Errorf("mesh: consumer %s: %w", o.Session, err)
	}
	n.cons = cons
	return nil
}

// Start starts typing the crossing messages into core's panes and publishing what
// the session sends. Call it once, after Dial; Close ends it.
func (n *Node) Start(core hub.Core) error {
	n.core.Store(&core)
	cc, err := n.cons.Consume(func(m jetstream.Msg) {
		select {
		case n.in <- m: // the loop takes it once started
		case <-n.stop:
		}
	}, jetstream.PullMaxMessages(256))
	if err != nil {
		n.Close()
		return fmt.Errorf("mesh: consuming %s: %w", streamName(n.o.Session), err)
	}
	n.cc = cc
	n.evs = core.Subscribe()
	n.wg.Add(2)
	go n.run()
	go n.publish()
	n.discover()
	return nil
}

// connectOptions are the NATS options for o's credentials.
func connectOptions(o Options) ([]nats.Option, error) {
	opts := []nats.Option{
		nats.Name("agentmux " + o.Session),
		nats.CustomInboxPrefix(inboxPrefix(o.Session)),
		nats.MaxReconnects(-1),
		nats.ReconnectWait(o.ReconnectWait),
		nats.RetryOnFailedConnect(false),
		nats.Timeout(o.Timeout),
	}
	if o.CAFile != "" {
		opts = append(opts, nats.RootCAs(o.CAFile))
	}
	switch {
	case o.CredsFile != "" && o.NkeyFile != "":
		return nil, errors.New("mesh: give --mesh-creds or --mesh-nkey, not both")
	case o.NkeyFile != "":
		if err := checkPrivate(o.NkeyFile); err != nil {
			return nil, fmt.Errorf("--mesh-nkey: %w", err)
		}
		opt, err := nats.NkeyOptionFromSeed(o.NkeyFile)
		if err != nil {
			return nil, fmt.Errorf("--mesh-nkey: %w", err)
		}
		opts = append(opts, opt)
	case o.CredsFile != "":
		if err := checkPrivate(o.CredsFile); err != nil {
			return nil, fmt.Errorf("--mesh-creds: %w", err)
		}
		b, err := os.ReadFile(o.CredsFile)
		if err != nil {
			return nil, fmt.Errorf("--mesh-creds: %w", err)
		}
		if strings.Contains(string(b), "BEGIN NATS USER JWT") {
			opts = append(opts, nats.UserCredentials(o.CredsFile))
			break
		}
		session, pass, err := parseCreds(string(b))
		if err != nil {
			return nil, fmt.Errorf("--mesh-creds %s: %w", o.CredsFile, err)
		}
		if session != o.Session {
			return nil, fmt.Errorf("--mesh-creds %s: the credentials are session %q's; start with --session %s, or have the hub's owner run `agentmux mesh creds %s`",
				o.CredsFile, session, session, o.Session)
		}
		opts = append(opts, nats.UserInfo(session, pass))
	}
	return opts, nil
}

// parseCreds reads the file WriteCreds writes.
func parseCreds(text string) (session, pass string, err error) {
	for _, line := range strings.Split(text, "\n") {
		k, v, _ := strings.Cut(strings.TrimSpace(line), " ")
		switch k {
		case "session":
			session = strings.TrimSpace(v)
		case "password":
			pass = strings.TrimSpace(v)
		}
	}
	if session == "" || pass == "" {
		return "", "", errors.New("not an agentmux mesh credentials file (session and password lines)")
	}
	return session, pass, nil
}

// explainConnect says what a refused login means.
func explainConnect(err error) error {
	if errors.Is(err, nats.ErrAuthorization) || strings.Contains(strings.ToLower(err.Error()), "authorization") {
		return fmt.Errorf("refused: wrong or missing credentials (--mesh-creds / --mesh-nkey): %w", err)
	}
	return err
}

// answerWho answers amux.who.NAME with the members (runs on a NATS goroutine; the
// core's Members is safe from any).
func (n *Node) answerWho(m *nats.Msg) {
	w := who{Session: n.o.Session, Members: []WhoMember{}}
	core := n.core.Load()
	if core == nil {
		b, _ := json.Marshal(w)
		_ = m.Respond(b)
		return
	}
	for _, p := range (*core).Members() {
		w.Members = append(w.Members, WhoMember{Name: p.Name, Program: p.Program, State: p.State})
	}
	b, _ := json.Marshal(w)
	_ = m.Respond(b)
}

// Session is this session's name in the mesh.
func (n *Node) Session() string { return n.o.Session }

// Close leaves the mesh: consuming stops, the outbox is given up to a second to
// drain, the connection closes and every goroutine has ended when it returns.
func (n *Node) Close() {
	if n.cc != nil {
		n.cc.Stop()
	}
	if n.who != nil {
		_ = n.who.Unsubscribe()
	}
	if n.evs != nil { // started
		n.forget()
		n.out.drain(time.Second)
	}
	close(n.stop)
	n.out.wake()
	n.wg.Wait()
	if n.evs != nil {
		n.evs.Close()
	}
	n.nc.Close()
}

// run is the loop: it types the crossing messages that arrive (in order) and sends
// back their delivery phases.
func (n *Node) run() {
	defer n.wg.Done()
	n.resume()
	n.ready = n.evs.Ready()
	for {
		select {
		case <-n.stop:
			return
		case m := <-n.in:
			batch := []jetstream.Msg{m}
		more:
			for len(batch) < maxBatch {
				select {
				case m := <-n.in:
					batch = append(batch, m)
				default:
					break more
				}
			}
			if n.ended {
				for _, m := range batch {
					_ = m.Nak() // for the session's next start
				}
				continue
			}
			n.handle(batch)
			if n.signalled {
				n.signalled = false
				n.coreEvents()
			}
		case _, ok := <-n.ready:
			if !ok {
				n.end()
				continue
			}
			n.coreEvents()
		}
	}
}

func (n *Node) coreEvents() {
	for _, ev := range n.evs.Next() {
		n.coreEvent(ev)
	}
}

// end is the core's end (the session stopped before the node): nothing more is taken
// from the stream; what was taken and not typed stays for the next start.
func (n *Node) end() {
	n.ended, n.ready = true, nil
	if n.cc != nil {
		n.cc.Stop()
	}
}

// coreGone says whether the core's events have ended (a Send refused by a stopped
// session is no failure of the message). A signal it takes is handled after the batch.
func (n *Node) coreGone() bool {
	if n.ended {
		return true
	}
	select {
	case _, ok := <-n.ready:
		if !ok {
			n.end()
			return true
		}
		n.signalled = true
	default:
	}
	return false
}

// maxBatch bounds the messages of the stream handled (and written to the store) at
// once.
const maxBatch = 256

// incoming is a message of the session's stream being handled.
type incoming struct {
	m           jetstream.Msg
	fromSession string
	msg         *wireMsg   // a message for a member here
	phase       *wirePhase // or a phase of one a member here sent
	dup         bool       // crossed before: acknowledged, not typed again
}

// handle takes a batch of the session's stream, in order: the new messages for its
// members are written to the store in one transaction, then handed to the core; the
// phases of messages its members sent go to the hub's events. Each is acknowledged
// once handled; a batch the store refuses is left for JetStream to deliver again.
func (n *Node) handle(batch []jetstream.Msg) {
	var ins []incoming
	var ids []string
	for _, m := range batch {
		in, err := n.decode(m)
		if err != nil {
			n.log.Warn("mesh: message refused", "subject", m.Subject(), "err", err)
			_ = m.Term()
			continue
		}
		if in.msg != nil {
			ids = append(ids, in.msg.ID)
		}
		ins = append(ins, in)
	}
	known, err := n.o.Store.Known(ids...)
	if err != nil {
		n.log.Error("mesh: store", "err", err)
		for _, in := range ins {
			_ = in.m.Nak()
		}
		return
	}
	var rows []store.Message
	now := time.Now()
	for i := range ins {
		in := &ins[i]
		if in.msg == nil {
			continue
		}
		if known[in.msg.ID] {
			in.dup = true
			continue
		}
		known[in.msg.ID] = true
		w := in.msg
		kind := w.Kind
		if kind == "" {
			kind = proto.KindMessage
		}
		meta, _ := json.Marshal(storedMeta{Mode: w.Mode, DeadlineMs: w.DeadlineMs, FromPane: w.FromPane})
		rows = append(rows, store.Message{ID: w.ID, Session: n.o.Session, From: w.From + "@" + in.fromSession, To: w.To,
			Kind: kind, Body: w.Text, Meta: string(meta), Queued: now.UnixMilli()})
	}
	if len(rows) > 0 {
		if err := n.o.Store.Insert(rows...); err != nil {
			n.log.Error("mesh: store", "n", len(rows), "err", err)
			for _, in := range ins {
				_ = in.m.Nak()
			}
			return
		}
	}
	for _, in := range ins {
		switch {
		case in.phase != nil:
			p := in.phase
			n.evq.push(proto.Event{Kind: "delivery", ID: refPrefix + p.ID, Member: p.To + "@" + in.fromSession, Phase: p.Phase, Text: p.Text})
		case !in.dup:
			n.learn(in.msg.From + "@" + in.fromSession)
			n.deliver(in.fromSession, in.msg, now)
		}
		_ = in.m.Ack()
	}
}

// decode reads a message of the stream; its subject names the sending session, as
// the hub checked it.
func (n *Node) decode(m jetstream.Msg) (incoming, error) {
	toks := strings.Split(m.Subject(), ".")
	if len(toks) != 4 || toks[0] != "amux" || toks[1] != n.o.Session || !validName.MatchString(toks[3]) {
		return incoming{}, errors.New("unexpected subject")
	}
	in := incoming{m: m, fromSession: toks[3]}
	switch toks[2] {
	case "msg":
		var w wireMsg
		if err := json.Unmarshal(m.Data(), &w); err != nil {
			return in, fmt.Errorf("message: %w", err)
		}
		if w.ID == "" || w.To == "" || w.From == "" {
			return in, errors.New("message: missing id, from or to")
		}
		// Names reach a person's terminal and the pane's attribution: no control
		// or invisible characters, no second session.
		for _, name := range []string{w.From, w.To} {
			if err := proto.CheckVisible(name); err != nil {
				return in, fmt.Errorf("message: %w", err)
			}
		}
		if strings.Contains(w.From, "@") {
			return in, fmt.Errorf("message: sender %q names a session: the subject says which", w.From)
		}
		in.msg = &w
	case "ph":
		var p wirePhase
		if err := json.Unmarshal(m.Data(), &p); err != nil {
			return in, fmt.Errorf("phase: %w", err)
		}
		in.phase = &p
	default:
		return in, fmt.Errorf("unknown kind %q", toks[2])
	}
	return in, nil
}

// deliver hands a recorded crossing message to the core.
func (n *Node) deliver(fromSession string, w *wireMsg, now time.Time) {
	from := w.From + "@" + fromSession
	if w.FromPane > 0 {
		from = fmt.Sprintf("%s (%d)", from, w.FromPane) // as a pane of this session is framed
	}
	st, id, to := n.o.Store, w.ID, w.To
	o := hub.SendOptions{ID: w.ID, Mode: w.Mode, BeforeSubmit: func() error {
		// As the hub does: recorded before the pane may read it, so that after a
		// crash it is typed again marked as a possible repeat.
		_, err := st.Mark(id, to, store.Submitting, time.Now().UnixMilli())
		return err
	}}
	if w.DeadlineMs > 0 {
		if o.Timeout = time.UnixMilli(w.DeadlineMs).Sub(now); o.Timeout <= 0 {
			n.final(w.ID, fromSession, w.To, store.Expired, "not typed within its timeout")
			return
		}
	}
	ref, err := (*n.core.Load()).Send(from, w.To, w.Text, o)
	if err != nil {
		if n.coreGone() {
			return // recorded, not typed: the next start hands it again (resume)
		}
		n.final(w.ID, fromSession, w.To, store.Failed, err.Error())
		return
	}
	if ref != "" {
		n.refs[ref] = received{id: w.ID, fromSession: fromSession, to: w.To}
	}
}

// storedMeta is what the store keeps of a crossing message's options (its Meta).
type storedMeta struct {
	Mode       string `json:"mode,omitempty"`
	DeadlineMs int64  `json:"x_deadline_ms,omitempty"`
	FromPane   int    `json:"x_from_pane,omitempty"`
}

// resume hands the core again the crossing messages recorded here and never typed
// (the session ended in between): the hub leaves them to the mesh.
func (n *Node) resume() {
	now := time.Now()
	for _, m := range (*n.core.Load()).Members() {
		pending, err := n.o.Store.Pending(n.o.Session, m.Name, store.Typed)
		if err != nil {
			n.log.Error("mesh: pending", "member", m.Name, "err", err)
			continue
		}
		for _, row := range pending {
			from, fromSession, ok := SplitAddress(row.From)
			if !ok {
				continue
			}
			var meta storedMeta
			_ = json.Unmarshal([]byte(row.Meta), &meta) // written by handle
			n.deliver(fromSession, &wireMsg{ID: row.ID, From: from, To: row.To, Text: row.Body, Kind: row.Kind,
				Mode: meta.Mode, DeadlineMs: meta.DeadlineMs, FromPane: meta.FromPane}, now)
		}
	}
}

// final records that a message ended without reaching a pane and tells its sender.
func (n *Node) final(id, fromSession, to string, ph store.Phase, text string) {
	if _, err := n.o.Store.Mark(id, to, ph, time.Now().UnixMilli()); err != nil {
		n.log.Warn("mesh: mark", "id", id, "err", err)
	}
	n.sendPhase(fromSession, wirePhase{ID: id, To: to, Phase: string(ph), Text: text})
}

// coreEvent passes the phases of crossing messages back to their senders.
func (n *Node) coreEvent(ev proto.Event) {
	if ev.Kind != "delivery" || ev.ID == "" {
		return
	}
	r, ok := n.refs[ev.ID]
	if !ok {
		return
	}
	ph := store.Phase(ev.Phase)
	switch ph {
	case store.Typed, store.Submitted, store.Confirmed, store.Failed, store.Dropped, store.Expired:
		if _, err := n.o.Store.Mark(r.id, r.to, ph, time.Now().UnixMilli()); err != nil {
			n.log.Warn("mesh: mark", "id", r.id, "err", err)
		}
	}
	if ph == store.Confirmed || ph == store.Failed || ph == store.Dropped || ph == store.Expired {
		delete(n.refs, ev.ID)
	}
	n.sendPhase(r.fromSession, wirePhase{ID: r.id, To: r.to, Phase: ev.Phase, Text: ev.Text})
}

func (n *Node) sendPhase(toSession string, p wirePhase) {
	b, _ := json.Marshal(p)
	n.out.push(outItem{subject: "amux." + toSession + ".ph." + n.o.Session, data: b, id: p.ID + "/" + p.To + "/" + p.Phase})
}

// Send queues a message from member from of this session to member to of session
// toSession and returns the ref its delivery events carry. It does not block: the
// message waits in the outbox, in order, while the hub is unreachable.
func (n *Node) Send(from, to, toSession, text string, o hub.SendOptions) (string, error) {
	return n.send(from, 0, to, toSession, text, "", o)
}

func (n *Node) send(from string, fromPane int, to, toSession, text, kind string, o hub.SendOptions) (string, error) {
	if err := CheckName(toSession); err != nil {
		return "", err
	}
	if o.Mode != "" && o.Mode != proto.ModeSequential && o.Mode != proto.ModeImportant && o.Mode != proto.ModeUrgent {
		return "", fmt.Errorf("mode %q: not sequential, important or urgent", o.Mode)
	}
	id := o.ID
	if id == "" {
		id = nats.NewInbox()[len(nats.InboxPrefix):]
	}
	w := wireMsg{ID: id, From: from, FromPane: fromPane, To: to, Text: text, Kind: kind, Mode: o.Mode}
	if o.Timeout > 0 {
		w.DeadlineMs = time.Now().Add(o.Timeout).UnixMilli()
	}
	b, err := json.Marshal(w)
	if err != nil {
		return "", err
	}
	n.log.Debug("mesh: send", "to", to+"@"+toSession, "id", id)
	n.out.push(outItem{subject: "amux." + toSession + ".msg." + n.o.Session, data: b, id: id, to: to + "@" + toSession})
	return refPrefix + id, nil
}
