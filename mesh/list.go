package mesh

import (
	"context"
	"errors"
	"fmt"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/agentmux/agentmux/hub"
	"github.com/agentmux/agentmux/proto"
	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"
)

// SessionInfo is a session of the mesh as `agentmux ls --mesh` shows it: live (its
// members answered) or away (its stream keeps its messages until it is back). The
// socket's X_MESH carries it as it is.
type SessionInfo = proto.MeshSession

// List connects with o's URL and credentials (o.Session is the credentials' session)
// and returns every session the mesh knows, by name, with the members of the live
// ones.
func List(o Options) ([]SessionInfo, error) {
	if o.Timeout <= 0 {
		o.Timeout = 5 * time.Second
	}
	opts, err := connectOptions(o)
	if err != nil {
		return nil, err
	}
	nc, err := connect(o, opts)
	if err != nil {
		return nil, fmt.Errorf("mesh %s: %w", o.URL, explainConnect(err))
	}
	defer nc.Close()
	js, err := jetstream.New(nc)
	if err != nil {
		return nil, err
	}
	keys, err := openKeyring(o.KnownKeys)
	if err != nil {
		return nil, err
	}
	a := asker{nc: nc, self: o.Session, keys: keys}
	if seed, err := loadSeed(o); err == nil {
		if s, err := newSigner(seed); err == nil {
			a.own = s.pub
		}
	}
	// Two steps, each within the timeout: the sessions' names, then their answers (a
	// session not answering within it is shown so).
	ctx, cancel := context.WithTimeout(context.Background(), 2*o.Timeout)
	defer cancel()
	return listSessions(ctx, a, js, o.Timeout)
}

var _ hub.MeshLister = (*Core)(nil)

// ListMesh lists the mesh this session joined, over the connection it has: the
// sessions by name, with the members of the live ones (this session's among them).
// It waits on the network, up to the join timeout or until ctx ends, so the hub
// calls it off its loop.
func (c *Core) ListMesh(ctx context.Context) ([]proto.MeshSession, error) {
	if err := c.n.Unreachable(); err != nil {
		return nil, err
	}
	ctx, cancel := context.WithTimeout(ctx, 2*c.n.o.Timeout) // as List's
	defer cancel()
	return listSessions(ctx, c.n.asker(), c.n.js, c.n.o.Timeout)
}

// ErrHubUnreachable says the session's connection to the mesh's hub is down.
var ErrHubUnreachable = errors.New("hub unreachable")

// Unreachable returns ErrHubUnreachable, saying since when and how many messages wait
// in the outbox, while the hub is unreachable; nil while connected.
func (n *Node) Unreachable() error {
	since := n.down.Load()
	if since == 0 && n.nc.IsConnected() {
		return nil
	}
	at := ""
	if since != 0 {
		at = " since " + time.UnixMilli(since).Format("15:04:05")
	}
	return fmt.Errorf("mesh: %w%s (%s): %d messages wait in the outbox, sent when it is back", ErrHubUnreachable, at, n.o.URL, n.out.len())
}

// listSessions lists the sessions whose streams js sees, asking each who its members
// are (a session that does not answer is away; one whose answer is not signed by its
// key is shown away and untrusted).
func listSessions(ctx context.Context, a asker, js jetstream.JetStream, timeout time.Duration) ([]SessionInfo, error) {
	var names []string
	l := js.StreamNames(ctx)
	for name := range l.Name() {
		if s, ok := strings.CutPrefix(name, "AMUX_"); ok {
			names = append(names, s)
		}
	}
	if err := l.Err(); err != nil {
		return nil, fmt.Errorf("mesh: listing sessions: %w", err)
	}
	sort.Strings(names)
	// Asked all at once: one session that does not answer costs the list one wait,
	// and is shown so, not the whole list.
	out := make([]SessionInfo, len(names))
	for i, name := range names {
		out[i] = SessionInfo{Name: name, Members: []WhoMember{}}
	}
	var mu sync.Mutex
	var failed error
	a.askAll(ctx, names, timeout, func(i int, w who, err error) {
		switch {
		case err == nil:
			out[i].Live, out[i].Members = true, w.Members
		case errors.Is(err, ErrBadSignature):
			out[i].Untrusted = err.Error()
		case errors.Is(err, nats.ErrNoResponders):
		case errors.Is(err, nats.ErrTimeout) && ctx.Err() == nil:
			out[i].Silent = fmt.Sprintf("no answer within %s", timeout)
		default: // the connection, not the session: the list cannot be told
			mu.Lock()
			if failed == nil {
				failed = fmt.Errorf("mesh: asking %s: %w", names[i], err)
			}
			mu.Unlock()
		}
	})
	if failed != nil {
		return nil, failed
	}
	return out, nil
}
