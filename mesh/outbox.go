package mesh

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"sync"
	"time"

	"github.com/agentmux/agentmux/proto"
	"github.com/agentmux/agentmux/store"
	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"
)

// outItem is a message or phase waiting to be published.
type outItem struct {
	subject string
	data    []byte
	// id is its Nats-Msg-Id: JetStream keeps one of the same id (a retry after a lost
	// acknowledgement).
	id string
	// to is a message's recipient (NAME@SESSION), "" for a phase.
	to string
	// rec, when set, is the message's row for this session's store, written before it
	// is first published: a message the session's socket did not store first (a pane's
	// relay line or linked turn), so that history shows it and it is sent again after a
	// restart until the other side says a phase of it.
	rec *store.Message
}

// outbox is the queue of what this session publishes, in order. Push never blocks;
// the publisher takes from the head.
type outbox struct {
	mu     sync.Mutex
	items  []outItem
	signal chan struct{} // something pushed, or the connection is back
	popped chan struct{} // the publisher took items off
}

func newOutbox() *outbox {
	return &outbox{signal: make(chan struct{}, 1), popped: make(chan struct{}, 1)}
}

func (o *outbox) push(it outItem) {
	o.mu.Lock()
	o.items = append(o.items, it)
	o.mu.Unlock()
	o.wake()
}

func (o *outbox) wake() {
	select {
	case o.signal <- struct{}{}:
	default:
	}
}

// head returns up to max items from the head, without taking them.
func (o *outbox) head(max int) []outItem {
	o.mu.Lock()
	defer o.mu.Unlock()
	n := min(len(o.items), max)
	return append([]outItem(nil), o.items[:n]...)
}

// recorded forgets the rows of the first n items: written.
func (o *outbox) recorded(n int) {
	o.mu.Lock()
	defer o.mu.Unlock()
	for i := range min(n, len(o.items)) {
		o.items[i].rec = nil
	}
}

// pop takes the first n items.
func (o *outbox) pop(n int) {
	o.mu.Lock()
	o.items = o.items[n:]
	if len(o.items) == 0 {
		o.items = nil
	}
	o.mu.Unlock()
	select {
	case o.popped <- struct{}{}:
	default:
	}
}

func (o *outbox) len() int {
	o.mu.Lock()
	defer o.mu.Unlock()
	return len(o.items)
}

// drain waits until the outbox is empty, at most d.
func (o *outbox) drain(d time.Duration) {
	t := time.NewTimer(d)
	defer t.Stop()
	for o.len() > 0 {
		select {
		case <-o.popped:
		case <-t.C:
			return
		}
	}
}

// batch is the most items published before their acknowledgements are awaited.
const batch = 256

// publish is the publisher: it publishes the outbox's head in order, a batch at a
// time, and takes items off once JetStream has them. While the hub is unreachable it
// waits for the connection to come back; a message for a session the mesh does not
// know fails at once (its sender hears it as a failed delivery).
func (n *Node) publish() {
	defer n.wg.Done()
	backoff := 50 * time.Millisecond
	for {
		items := n.out.head(batch)
		if len(items) == 0 || !n.nc.IsConnected() {
			select {
			case <-n.out.signal:
				continue
			case <-n.stop:
				return
			}
		}
		n.record(items)
		done, err := n.publishBatch(items)
		n.log.Debug("mesh: published", "n", done, "err", err)
		if done > 0 {
			n.out.pop(done)
			backoff = 50 * time.Millisecond
		}
		if err == nil {
			continue
		}
		n.log.Debug("mesh: publish", "err", err)
		t := time.NewTimer(backoff)
		select {
		case <-n.out.signal:
		case <-t.C:
		case <-n.stop:
			t.Stop()
			return
		}
		t.Stop()
		backoff = min(backoff*2, 2*time.Second)
	}
}

// record writes the rows of items that carry one, in one transaction. A store that
// refuses them costs the history its rows, never the messages.
func (n *Node) record(items []outItem) {
	var rows []store.Message
	for _, it := range items {
		if it.rec != nil {
			rows = append(rows, *it.rec)
		}
	}
	if len(rows) == 0 {
		return
	}
	if err := n.o.Store.Insert(rows...); err != nil {
		n.log.Warn("mesh: recording sent messages", "n", len(rows), "err", err)
	}
	n.out.recorded(len(items))
}

// publishBatch publishes items and waits for their acknowledgements; done counts the
// items from the head that JetStream has (or that can never go).
func (n *Node) publishBatch(items []outItem) (done int, err error) {
	futures := make([]jetstream.PubAckFuture, 0, len(items))
	for _, it := range items {
		m, err := n.sign.msg(it.subject, "", it.data)
		if err != nil {
			break
		}
		f, err := n.js.PublishMsgAsync(m, jetstream.WithMsgID(it.id))
		if err != nil {
			break
		}
		futures = append(futures, f)
	}
	timeout := time.NewTimer(5 * time.Second)
	defer timeout.Stop()
	for i, f := range futures {
		select {
		case <-f.Ok():
			done = i + 1
		case err := <-f.Err():
			if errors.Is(err, jetstream.ErrNoStreamResponse) || errors.Is(err, nats.ErrNoResponders) {
				// No stream took it: the session is unknown to the mesh, or JetStream
				// is not answering (the hub stopping or starting): only the first
				// fails the message.
				if n.nc.IsConnected() && n.noStream(items[i].subject) {
					n.undeliverable(items[i])
					done = i + 1
					continue
				}
			}
			return done, err
		case <-timeout.C:
			return done, context.DeadlineExceeded
		case <-n.stop:
			return done, errors.New("stopped")
		}
	}
	if len(futures) < len(items) {
		return done, errors.New("publish refused")
	}
	return done, nil
}

// noStream says whether JetStream answers that no stream takes subject.
func (n *Node) noStream(subject string) bool {
	ctx, cancel := context.WithTimeout(context.Background(), n.o.Timeout)
	defer cancel()
	l := n.js.StreamNames(ctx, jetstream.WithStreamListSubject(subject))
	for range l.Name() {
		return false
	}
	return l.Err() == nil
}

// undeliverable tells the sender of a message for an unknown session that it failed.
func (n *Node) undeliverable(it outItem) {
	if it.to == "" {
		return
	}
	_, session, _ := SplitAddress(it.to)
	n.log.Info("mesh: no session of that name in the mesh: message failed", "to", it.to, "id", it.id)
	n.evq.Put(proto.Event{Kind: proto.EventDelivery, ID: it.id, Member: it.to, To: it.to, Phase: proto.PhaseFailed,
		Text: "no session " + session + " in the mesh"})
}

// Send queues a message from member from of this session to member to of session
// toSession and returns the message's id (o.ID, or a new one when that is ""), which
// its delivery events carry. It does not block: the
// message waits in the outbox, in order, while the hub is unreachable.
func (n *Node) Send(from, to, toSession, text string, o proto.SendOptions) (string, error) {
	return n.send(from, 0, to, toSession, text, "", o)
}

func (n *Node) send(from string, fromPane int, to, toSession, text, kind string, o proto.SendOptions) (string, error) {
	if err := CheckName(toSession); err != nil {
		return "", err
	}
	if o.Mode != "" && o.Mode != proto.ModeSequential && o.Mode != proto.ModeImportant && o.Mode != proto.ModeUrgent {
		return "", fmt.Errorf("mode %q: not sequential, important or urgent", o.Mode)
	}
	id := o.ID
	if id == "" {
		// As the store's, unguessable: the stream and the receiving store drop a repeated
		// id whoever sent it, so an id another session could predict (nats' inbox names
		// are a counter) would let it claim the id first and have this message dropped.
		id = proto.NewID(time.Now())
	}
	w := wireMsg{ID: id, From: from, FromPane: fromPane, To: to, Text: text, Kind: kind, Mode: o.Mode, Link: o.Link, Spent: o.LinkSpent}
	if o.Timeout > 0 {
		w.DeadlineMs = time.Now().Add(o.Timeout).UnixMilli()
	}
	b, err := json.Marshal(w)
	if err != nil {
		return "", err
	}
	n.log.Debug("mesh: send", "to", to+"@"+toSession, "id", id)
	it := outItem{subject: "amux." + toSession + ".msg." + n.o.Session, data: b, id: id, to: to + "@" + toSession}
	if o.ID == "" { // not stored by the session's socket
		k := kind
		if k == "" {
			k = proto.KindMessage
		}
		it.rec = &store.Message{ID: id, Session: n.o.Session, From: from, To: it.to, Kind: k, Body: text, Queued: time.Now().UnixMilli()}
	}
	n.sent.add(id, outgoing{from: from, to: it.to, words: firstWordsOf(text), notify: o.NotifyOnDelivery, after: o.NotifyAfter, own: it.rec != nil})
	n.out.push(it)
	return id, nil
}
