package mesh

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"sync"
	"sync/atomic"
	"time"

	"github.com/agentmux/agentmux/hub"
	"github.com/agentmux/agentmux/internal/mailbox"
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
	// KnownKeys is the file of the keys known for the sessions of the mesh (pinned on
	// first sight, sign.go); "" keeps them in memory for this run only.
	KnownKeys string
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
	// LinkRequestTTL is how long a link request from another session waits for the
	// person's answer (0: DefaultLinkRequestTTL).
	LinkRequestTTL time.Duration
	// Restored are the links with other sessions' members a restored session had
	// when its server died: Start makes them again before it types anything that
	// crossed meanwhile (relink.go).
	Restored []RestoredLink
	// AnswerFrom names the sessions of the mesh this session's person also runs: they
	// see what its panes ask the person and may answer them (answer.go). None by
	// default.
	AnswerFrom []string
}

// ErrNameTaken says another session of the mesh has the name.
var ErrNameTaken = errors.New("session name taken in the mesh")

// Node is a session's membership of a mesh: it sends its members' messages to other
// sessions and types theirs into its panes.
type Node struct {
	o         Options
	log       *slog.Logger
	nc        *nats.Conn
	js        jetstream.JetStream
	cons      jetstream.Consumer
	cc        jetstream.ConsumeContext
	core      atomic.Pointer[hub.Core]
	who       *nats.Subscription
	sign      *signer  // signs what the session publishes
	keys      *keyring // the keys of the other sessions
	out       *outbox
	evq       *eventQueue
	in        chan jetstream.Msg
	evs       proto.Events
	stop      chan struct{}
	wg        sync.WaitGroup
	closeOnce sync.Once

	knownMu sync.Mutex
	known   map[string]func() // learnt names of other sessions' members (learn.go)
	learnt  map[string]int    // how many names of each session known holds

	// Owned by the loop: the core's events' Ready; ended once they ended (the
	// session stopped); signalled when coreGone took a signal of theirs.
	ready            <-chan struct{}
	ended, signalled bool

	// received holds the crossing messages handed to the core here, by id (their
	// delivery events carry it), until their final phase
	// (owned by the loop).
	received map[string]received

	// down is when the connection to the hub was lost (Unix ms), 0 while connected.
	down atomic.Int64

	// links are the link requests waiting for an answer, both ways (consent.go).
	links consent

	// sent are the messages members of this session sent, until their final phase
	// comes back (notify.go).
	sent sentLog

	// answers are the answers from other sessions taken lately (answer.go).
	answers answered
}

// received is a crossing message typed into one of this session's panes.
type received struct{ fromSession, to string }

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
		o: o, log: log, evq: mailbox.New[proto.Event](), in: make(chan jetstream.Msg, maxBatch),
		stop: make(chan struct{}), received: map[string]received{},
	}
	n.out = newOutbox()
	opts, err := connectOptions(o)
	if err != nil {
		return nil, err
	}
	opts = append(opts,
		nats.ReconnectHandler(func(*nats.Conn) {
			n.down.Store(0)
			n.out.wake()
			n.warn(fmt.Sprintf("mesh: hub %s reachable again: sending the %d waiting in the outbox", o.URL, n.out.len()))
		}),
		nats.DisconnectErrHandler(func(_ *nats.Conn, err error) {
			select {
			case <-n.stop:
				return // leaving the mesh
			default:
			}
			if err != nil {
				log.Warn("mesh: link to the hub down", "err", err)
			}
			n.down.Store(time.Now().UnixMilli())
			n.warn(fmt.Sprintf("mesh: hub %s unreachable: messages to other sessions wait in the outbox (%d now) until it is back", o.URL, n.out.len()))
		}),
	)
	nc, err := connect(o, opts)
	if err != nil {
		return nil, fmt.Errorf("mesh %s: %w", o.URL, explainConnect(err))
	}
	seed, err := loadSeed(o)
	if err == nil {
		n.sign, err = newSigner(seed)
	}
	if err == nil {
		n.keys, err = openKeyring(o.KnownKeys)
	}
	if err != nil {
		nc.Close()
		return nil, err
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
	ctx, cancel := context.WithTimeout(context.Background(), min(o.Timeout, 2*time.Second))
	_, err := n.asker().ask(ctx, o.Session)
	cancel()
	if err == nil || errors.Is(err, ErrBadSignature) {
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
	ctx, cancel = context.WithTimeout(context.Background(), o.Timeout)
	defer cancel()
	stream := streamName(o.Session)
	if _, err := js.Stream(ctx, stream); errors.Is(err, jetstream.ErrStreamNotFound) {
		// A NATS server that is not an agentmux hub: make the stream ourselves.
		_, err = js.CreateStream(ctx, streamConfig(o.Session, 10*time.Minute, DefaultInboxBytes))
		if err != nil {
			return fmt.Errorf("mesh: stream %s is not on the server, and making it failed (%w): on a team's own NATS server its administrator makes it (docs/mesh-security.md)", stream, err)
		}
	} else if err != nil {
		return fmt.Errorf("mesh: stream %s: %w", stream, err)
	}
	cons, err := n.consumer(ctx, stream)
	if err != nil {
		return fmt.Errorf("mesh: consumer %s: %w", o.Session, err)
	}
	n.cons = cons
	return nil
}

// consumer finds or makes the session's durable consumer on stream. One a previous
// run of the session left with messages taken and never acknowledged (it was killed,
// or closed while handling them) is made again from its acknowledgement floor:
// JetStream would deliver those again only after the acknowledgement wait, behind the
// messages that came since, and a sender's messages would be typed out of order. The
// ones acknowledged past the floor come again too, and are typed once (the store
// knows them).
func (n *Node) consumer(ctx context.Context, stream string) (jetstream.Consumer, error) {
	cfg := jetstream.ConsumerConfig{
		Durable:   n.o.Session,
		AckPolicy: jetstream.AckExplicitPolicy,
		AckWait:   30 * time.Second,
	}
	cons, err := n.js.Consumer(ctx, stream, n.o.Session)
	if errors.Is(err, jetstream.ErrConsumerNotFound) {
		return n.js.CreateConsumer(ctx, stream, cfg)
	}
	if err != nil {
		return nil, err
	}
	info := cons.CachedInfo()
	if info == nil || info.NumAckPending == 0 {
		return cons, nil
	}
	n.log.Info("mesh: messages taken and not acknowledged by the last run: reading again from the floor",
		"pending", info.NumAckPending, "floor", info.AckFloor.Stream)
	if err := n.js.DeleteConsumer(ctx, stream, n.o.Session); err != nil {
		return nil, err
	}
	cfg.DeliverPolicy, cfg.OptStartSeq = jetstream.DeliverByStartSequencePolicy, info.AckFloor.Stream+1
	return n.js.CreateConsumer(ctx, stream, cfg)
}

// Start starts typing the crossing messages into core's panes and publishing what
// the session sends. Call it once, after Dial; Close ends it.
func (n *Node) Start(core hub.Core) error {
	n.core.Store(&core)
	n.relink()
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
	n.evs = core.Events()
	n.wg.Add(2)
	go n.run()
	go n.publish()
	n.discover()
	return nil
}

// asker asks the other sessions who they are over the node's connection.
func (n *Node) asker() asker {
	return asker{nc: n.nc, self: n.o.Session, keys: n.keys, own: n.sign.pub}
}

// Session is this session's name in the mesh.
func (n *Node) Session() string { return n.o.Session }

// Close leaves the mesh: consuming stops, the outbox is given up to a second to
// drain, the connection closes and every goroutine has ended when it returns.
func (n *Node) Close() { n.closeOnce.Do(n.close) }

func (n *Node) close() {
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
	n.stopConsent()
	close(n.stop)
	n.out.wake()
	n.wg.Wait()
	n.sent.stop()
	if n.evs != nil {
		n.evs.Close()
	}
	n.nc.Close()
}
