package hub

import (
	"context"
	"errors"
	"log/slog"
	"net"
	"sync"
	"sync/atomic"
	"time"

	"github.com/agentmux/agentmux/accept"
	"github.com/agentmux/agentmux/internal/mailbox"
	"github.com/agentmux/agentmux/peer"
	"github.com/agentmux/agentmux/proto"
	"github.com/agentmux/agentmux/store"
)

// Defaults of Config.
const (
	DefaultHeartbeat   = 5 * time.Second
	DefaultMaxInflight = 256
	DefaultMaxQueue    = 1024
	DefaultOutQueue    = 1024
	DefaultOutBytes    = 16 << 20
	DefaultQueueBytes  = 64 << 20
	DefaultHeldBytes   = 256 << 20
	DefaultMaxConns    = 4096
	DefaultCutChars    = 4000
	pruneEvery         = time.Hour
)

// Config configures a Hub. Zero values take the defaults.
type Config struct {
	// Session is the session's name (Claim chose it); it names the session in the
	// store and in every session_id.
	Session string
	// Store holds every message; required.
	Store *store.Store
	// Core is the panes and the relay; nil serves protocol clients only.
	Core Core
	// MaxFrameBytes is the largest frame read (1 MiB).
	MaxFrameBytes int
	// Heartbeat is the PING interval of every connection; a connection that sends
	// nothing for twice it is dead (5 s).
	Heartbeat time.Duration
	// MaxQueue bounds the messages waiting for one client member (sent and unacked,
	// or not yet sent): a SEND to a member whose queue is full gets BUSY.
	MaxQueue int
	// QueueBytes bounds the bytes (bodies and data) waiting for one client member, as
	// MaxQueue bounds the messages (64 MiB); HeldBytes bounds them for every member
	// together (256 MiB): members away keep theirs in memory, and names are many. A
	// SEND past either gets BUSY. The store holds every message anyway.
	QueueBytes, HeldBytes int
	// OutQueue bounds the frames waiting to be written to one connection: a client
	// that lets it fill (it does not read) is disconnected.
	OutQueue int
	// OutBytes bounds the bytes waiting to be written to one connection, as OutQueue
	// bounds the frames (16 MiB, at least 2 × MaxFrameBytes).
	OutBytes int
	// MaxConns bounds the open connections; more are refused with ERROR.
	MaxConns int
	// FrameBudget bounds the bytes every frame being read holds in total while its
	// bytes arrive (proto.DefaultFrameBudget, at least MaxFrameBytes): a connection
	// whose frame would pass it gets ERROR and is closed.
	FrameBudget int
	// Retention is how long messages are kept (store.DefaultRetention).
	Retention time.Duration
	// CutChars is the longest text typed into a pane; a longer message is cut and ends
	// with a line naming `agentmux read ID` (4000).
	CutChars int
	// Web starts the session's web view for X_WEB (or says where it runs already); nil
	// answers X_WEB with an error. It is called on the hub's loop: it must not block
	// for long (binding a listener is fine).
	Web func(proto.Web) (proto.WebView, error)
	// Now is the clock for timestamps (time.Now); it must be safe to call from any
	// goroutine (a core calls it through SendOptions.BeforeSubmit).
	Now func() time.Time
	// Logger logs connections and failures (discarded when nil).
	Logger *slog.Logger
}

func (c *Config) defaults() error {
	if c.Session == "" {
		return errors.New("hub: no session name")
	}
	if c.Store == nil {
		return errors.New("hub: no store")
	}
	if c.MaxFrameBytes <= 0 {
		c.MaxFrameBytes = proto.DefaultMaxFrameBytes
	}
	if c.Heartbeat <= 0 {
		c.Heartbeat = DefaultHeartbeat
	}
	if c.MaxQueue <= 0 {
		c.MaxQueue = DefaultMaxQueue
	}
	if c.OutQueue <= 0 {
		c.OutQueue = DefaultOutQueue
	}
	if c.QueueBytes <= 0 {
		c.QueueBytes = DefaultQueueBytes
	}
	if c.HeldBytes <= 0 {
		c.HeldBytes = DefaultHeldBytes
	}
	if c.OutBytes <= 0 {
		c.OutBytes = DefaultOutBytes
	}
	if c.OutBytes < 2*c.MaxFrameBytes {
		c.OutBytes = 2 * c.MaxFrameBytes
	}
	if c.FrameBudget <= 0 {
		c.FrameBudget = proto.DefaultFrameBudget
	}
	c.FrameBudget = max(c.FrameBudget, c.MaxFrameBytes)
	if c.MaxConns <= 0 {
		c.MaxConns = DefaultMaxConns
	}
	if c.Retention <= 0 {
		c.Retention = store.DefaultRetention
	}
	if c.CutChars <= 0 {
		c.CutChars = DefaultCutChars
	}
	if c.Now == nil {
		c.Now = time.Now
	}
	if c.Logger == nil {
		c.Logger = slog.New(slog.DiscardHandler)
	}
	return nil
}

// Hub serves one session on its socket. Its loop goroutine owns all mutable state
// (connections, members, streams, queues); connections' reader goroutines and the core's
// sink only post to it.
type Hub struct {
	cfg  Config
	l    net.Listener
	in   chan any
	quit chan struct{} // closed by Close
	done chan struct{} // closed when the loop has ended
	wg   sync.WaitGroup

	// lost holds the write-aheads of submitting that the store refused (the core calls
	// them on its own goroutine and must never wait for the loop): the loop takes them
	// into its marks, to be written once the store takes them again.
	lostMu    sync.Mutex
	lost      []store.Mark
	lostReady chan struct{} // capacity 1
	// reserve records them too, where a full disk does not refuse it, for the next
	// start should this one end before the store takes them (nil: none could be made).
	// lostMu orders its writes with lost.
	reserve *store.Reserve

	// inbox holds relay messages from the core's sink, which must never block.
	inbox *mailbox.Box[proto.RelayMessage]

	// budget holds the bytes of frames being read, across every connection; freeing
	// is set while their memory is given back (giveBack).
	budget  *proto.Budget
	freeing atomic.Bool

	closeOnce sync.Once
	st        *state // the loop's

	// ctx ends when Close is called: what the hub waits for off its loop (X_MESH)
	// stops then.
	ctx    context.Context
	cancel context.CancelFunc
}

// Start serves cfg's session on l until Close.
func Start(cfg Config, l net.Listener) (*Hub, error) {
	if err := cfg.defaults(); err != nil {
		return nil, err
	}
	h := &Hub{
		cfg:       cfg,
		l:         l,
		in:        make(chan any, 256),
		quit:      make(chan struct{}),
		done:      make(chan struct{}),
		inbox:     mailbox.New[proto.RelayMessage](),
		lostReady: make(chan struct{}, 1),
		budget:    proto.NewBudget(cfg.FrameBudget),
	}
	h.ctx, h.cancel = context.WithCancel(context.Background())
	h.st = newState(h)
	h.wg.Add(2)
	go h.accept()
	go h.loop()
	return h, nil
}

// Close stops accepting, says BYE to every connection, and waits for every goroutine
// of the hub to end.
func (h *Hub) Close() error {
	h.closeOnce.Do(func() {
		close(h.quit)
		h.cancel()
		h.l.Close()
	})
	h.wg.Wait()
	return nil
}

// Relay hands the hub a message the core routes to a member that is not a pane. It
// never blocks: it is the sink the hub gives Core.RegisterMember.
func (h *Hub) Relay(m proto.RelayMessage) { h.inbox.Put(m) }

// keepLost hands the loop a mark the store refused, to be written again, and records
// it in the reserve. It never waits for the loop.
func (h *Hub) keepLost(m store.Mark) {
	h.lostMu.Lock()
	if h.reserve != nil {
		if err := h.reserve.Add(m.ID, m.To); err != nil {
			h.cfg.Logger.Error("reserve: a submission not recorded", "id", m.ID, "err", err)
		}
	}
	h.lost = append(h.lost, m)
	h.lostMu.Unlock()
	select {
	case h.lostReady <- struct{}{}:
	default:
	}
}

// clearReserve empties the reserve once every mark it holds is in the store: called
// after a write of the marks succeeded, with none handed over since.
func (h *Hub) clearReserve() {
	h.lostMu.Lock()
	defer h.lostMu.Unlock()
	if h.reserve == nil || len(h.lost) > 0 {
		return
	}
	if err := h.reserve.Clear(); err != nil {
		h.cfg.Logger.Error("reserve: clear", "err", err)
	}
}

// recoverReserve records in the store what the reserve says an earlier run could not
// (submissions that began while the disk was full), before messages are handed to
// panes again, so that those are typed with the possible-repeat note; then it empties
// the reserve. It returns the records the store still refused (the disk is still
// full), which stay in the reserve until they are written.
func (h *Hub) recoverReserve() []store.Mark {
	res, held, err := h.cfg.Store.OpenReserve(h.cfg.Session)
	if err != nil {
		h.cfg.Logger.Error("reserve: none for this run", "err", err)
		return nil
	}
	h.lostMu.Lock()
	h.reserve = res
	h.lostMu.Unlock()
	if len(held) == 0 {
		return nil
	}
	ms := make([]store.Mark, 0, len(held))
	now := h.cfg.Now().UnixMilli()
	for _, r := range held {
		ms = append(ms, store.Mark{ID: r.ID, To: r.To, Phase: store.Submitting, Ms: now})
	}
	if err := h.cfg.Store.MarkAll(ms); err != nil {
		h.cfg.Logger.Error("reserve: not recorded yet", "n", len(ms), "err", err)
		return ms // kept in the reserve until the store takes them
	}
	h.cfg.Logger.Info("reserve: submissions an earlier run could not record are recorded", "n", len(ms))
	if err := res.Clear(); err != nil {
		h.cfg.Logger.Error("reserve: clear", "err", err)
	}
	return nil
}

// closeReserve closes the reserve when the loop ends. The file stays, empty or not: a
// next start onto a disk that filled meanwhile could not make it again.
func (h *Hub) closeReserve() {
	h.lostMu.Lock()
	defer h.lostMu.Unlock()
	if h.reserve != nil {
		h.reserve.Close()
		h.reserve = nil
	}
}

func (h *Hub) takeLost() []store.Mark {
	h.lostMu.Lock()
	defer h.lostMu.Unlock()
	ms := h.lost
	h.lost = nil
	return ms
}

// post hands ev to the loop; false once the hub has stopped.
func (h *Hub) post(ev any) bool {
	select {
	case h.in <- ev:
		return true
	case <-h.done:
		return false
	}
}

type connOpened struct{ c *conn }

func (h *Hub) accept() {
	defer h.wg.Done()
	// Temporary failures (out of file descriptors, say) are waited out, so the socket
	// serves again once they pass.
	a := accept.Loop{L: h.l, Quit: h.quit, Logger: h.cfg.Logger, Name: "session socket"}
	for id := 1; ; id++ {
		nc, err := a.Accept()
		if err != nil {
			select {
			case <-h.quit:
			default:
				h.cfg.Logger.Error("accept: the socket takes no more connections", "err", err)
			}
			return
		}
		c := &conn{id: id, nc: nc, proc: heldPeer(nc), out: make(chan []byte, h.cfg.OutQueue), gone: make(chan struct{})}
		if !h.post(connOpened{c}) {
			nc.Close()
			c.proc.Close()
			return
		}
		h.wg.Add(2)
		go func() { defer h.wg.Done(); h.read(c) }()
		go func() { defer h.wg.Done(); h.write(c) }()
	}
}

// heldPeer is nc's client process (peer.Hold): the one a listener in front held as it
// accepted nc (a session server's, which reads the first frame before the hub sees
// nc), else held now.
func heldPeer(nc net.Conn) *peer.Process {
	if h, ok := nc.(interface{ Peer() *peer.Process }); ok {
		return h.Peer()
	}
	return peer.Hold(nc)
}

func (h *Hub) loop() {
	defer h.wg.Done()
	defer close(h.done)
	s := h.st
	var coreReady <-chan struct{}
	if h.cfg.Core != nil {
		s.events = h.cfg.Core.Events()
		coreReady = s.events.Ready()
		defer s.events.Close()
	}
	s.prune()
	s.keepUnrecorded(h.recoverReserve())
	defer h.closeReserve()
	s.resumePanes()
	s.unrecorded = nil
	prune := time.NewTimer(pruneEvery)
	defer prune.Stop()
	defer s.stopRetry()
	for {
		select {
		case ev := <-h.in:
			s.handle(ev)
		case <-h.inbox.Ready():
			s.commit()
			for _, m := range h.inbox.Take() {
				s.relayIn(m)
			}
		case _, ok := <-coreReady:
			if !ok {
				coreReady = nil
				continue
			}
			s.commit()
			for _, e := range s.events.Next() {
				s.coreEvent(e)
			}
		case <-s.retryC():
			s.retry = nil // fired: the next failure waits longer
			s.flush()
		case <-h.lostReady:
			s.flush() // takes them in
		case <-prune.C:
			s.commit()
			s.prune()
			prune.Reset(pruneEvery)
		case <-h.quit:
			s.commit()
			s.flush()
			s.shutdown()
			return
		}
		if len(h.in) == 0 {
			s.commit()
			s.flush()
		}
	}
}
