package web

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"time"

	"github.com/coder/websocket"

	"github.com/agentmux/agentmux/session"
)

// DefaultWriteTimeout bounds one write to a page: a browser that does not read for
// this long is disconnected.
const DefaultWriteTimeout = 10 * time.Second

// page is one open page: its connection, its subscription and what its terminals show.
// Its writer (the handler's goroutine) owns views; its reader only calls the session
// and writes answers.
type page struct {
	s     *Server
	c     *websocket.Conn
	key   string // the page secret to give the page in its hello ("" when it has one)
	sub   *session.Subscription
	views map[int]*paneView
}

// servePage upgrades to a WebSocket (after the Origin check), takes the page's key
// from its first frame, and serves the page until it goes, the subscription ends (too
// slow) or the server closes.
func (s *Server) servePage(w http.ResponseWriter, r *http.Request) {
	if !s.originOK(r.Header.Get("Origin"), r.Host) {
		http.Error(w, "agentmux web view: wrong Origin", http.StatusForbidden)
		return
	}
	s.pages.Add(1)
	defer s.pages.Done()
	c, err := websocket.Accept(w, r, nil) // checks the Origin against Host again
	if err != nil {
		s.log.Debug("web view: upgrade", "err", err)
		return
	}
	c.SetReadLimit(4 << 10) // a key, until it is shown
	ctx, cancel := context.WithCancel(s.ctx)
	defer cancel()
	key, err := s.authenticate(ctx, c)
	if err != nil {
		s.log.Debug("web view: page refused", "err", err)
		if b, jerr := json.Marshal(deniedFrame{T: "denied", Text: err.Error()}); jerr == nil {
			wctx, wcancel := context.WithTimeout(ctx, time.Second)
			c.Write(wctx, websocket.MessageText, b)
			wcancel()
		}
		c.Close(websocket.StatusPolicyViolation, "refused")
		return
	}
	if s.open.Add(1) > MaxPages {
		s.open.Add(-1)
		c.Close(websocket.StatusTryAgainLater, "too many pages open")
		return
	}
	defer s.open.Add(-1)
	trust(r.Context())
	c.SetReadLimit(256 << 10)
	p := &page{s: s, c: c, key: key, sub: s.sess.Subscribe(s.o.Queue), views: map[int]*paneView{}}
	defer p.sub.Close()
	// The reader's context ends with the page, not with the server: a server that
	// stops closes the socket with its reason (below) rather than under a read.
	rctx, rcancel := context.WithCancel(context.WithoutCancel(ctx))
	defer rcancel()
	go p.read(rctx, cancel)
	err = p.write(ctx)
	switch {
	case errors.Is(err, session.ErrSlow):
		c.Close(websocket.StatusPolicyViolation, "too slow: the page fell behind the session")
	case errors.Is(err, session.ErrStopped):
		c.Close(websocket.StatusGoingAway, "the session ended")
	case ctx.Err() != nil:
		c.Close(websocket.StatusGoingAway, "the web view stopped")
	default:
		c.CloseNow()
	}
	s.log.Debug("web view: page gone", "err", err)
}

// hello is the page's first frame.
type hello struct {
	T       string `json:"t"`
	Session string `json:"session"`
	Control bool   `json:"control"`
	// You is the name a message sent from the page goes out as.
	You string `json:"you"`
	// Page is the page's secret, given once for the URL's token: the page keeps it
	// (localStorage: this browser, this origin) to reconnect, reload and open the view
	// in another tab with.
	Page string `json:"page,omitempty"`
}

// YouName is who a message sent from the page is from: the person, by way of the web
// view. (A member name holds no space, so that it can be addressed.)
const YouName = "you(web)"

// membersFrame is every member, the relay's groups and summary.
type membersFrame struct {
	T       string       `json:"t"`
	Members []memberJSON `json:"members"`
	Groups  []groupJSON  `json:"groups"`
	Summary string       `json:"summary"`
	Waiting int          `json:"waiting"`
}

type memberJSON struct {
	Pane     int    `json:"pane,omitempty"`
	Name     string `json:"name"`
	Program  string `json:"program,omitempty"`
	State    string `json:"state"`
	Exit     string `json:"exit,omitempty"`
	Group    int    `json:"group,omitempty"`
	Held     bool   `json:"held,omitempty"`
	Typing   bool   `json:"typing,omitempty"`
	Waiting  int    `json:"waiting,omitempty"`
	Cols     int    `json:"cols,omitempty"`
	Rows     int    `json:"rows,omitempty"`
	External bool   `json:"external,omitempty"`
	// Spend is what the pane spent as its border says it ("$0.42", "120k tok"; ""
	// for nothing read yet).
	Spend string `json:"spend,omitempty"`
	// Asks is what the pane asks while it needs the person: the page's inbox.
	Asks *asksJSON `json:"asks,omitempty"`
}

// asksJSON is what a pane that needs the person asks: the question, the choices (each
// a button that answers), since when (Unix ms), and the rows around the question.
type asksJSON struct {
	Question string       `json:"question"`
	Options  []optionJSON `json:"options"`
	Since    int64        `json:"since"`
	Rows     []string     `json:"rows"`
}

type optionJSON struct {
	Key   string `json:"key"`
	Label string `json:"label"`
}

type groupJSON struct {
	ID      int    `json:"id"`
	Members []int  `json:"members"`
	Used    int    `json:"used"`
	Budget  int    `json:"budget"`
	Label   string `json:"label"`
	// Spend is what the turns the link started spent ("$0.12", "2.4k tok"; against its
	// spend budget when it has one: "2.4k/5k tok"), "" for nothing yet.
	Spend string `json:"spend,omitempty"`
}

// linkSpend is a link's spend as the page shows it.
func linkSpend(g session.GroupStatus) string {
	if !g.Limit.IsZero() {
		return g.Spent.Short(g.Limit)
	}
	return session.Spend{Tokens: g.Spent.Tokens, USD: g.Spent.USD, Priced: g.Spent.USD > 0 || !g.Spent.Unknown && !g.Spent.Tokens.IsZero(), Unpriced: g.Spent.Unknown}.Short()
}

// convFrame carries conversation items (the page keeps the newest of each key).
type convFrame struct {
	T     string `json:"t"`
	Items []item `json:"items"`
	Reset bool   `json:"reset,omitempty"`
}

// closedFrame says a pane is gone.
type closedFrame struct {
	T    string `json:"t"`
	Pane int    `json:"pane"`
}

// write sends the page the session as it is, then what changes, until ctx ends or the
// subscription does.
func (p *page) write(ctx context.Context) error {
	if err := p.json(ctx, hello{T: "hello", Session: p.s.o.Session, Control: p.s.o.Control, You: YouName, Page: p.key}); err != nil {
		return err
	}
	if err := p.members(ctx); err != nil {
		return err
	}
	if err := p.json(ctx, convFrame{T: "conv", Items: p.s.history(), Reset: true}); err != nil {
		return err
	}
	for _, m := range p.s.sess.Members() {
		if m.Pane > 0 {
			if err := p.screen(ctx, m.Pane); err != nil {
				return err
			}
		}
	}
	for {
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-p.sub.Ready():
		}
		evs := p.sub.Next()
		if evs == nil {
			if err := p.sub.Err(); err != nil {
				return err // too slow, or the session stopped
			}
			continue // a wake-up whose events an earlier Next took
		}
		if err := p.apply(ctx, evs); err != nil {
			return err
		}
	}
}

// apply sends what a batch of events changed: members once, conversation items in one
// frame, each changed pane's picture once.
func (p *page) apply(ctx context.Context, evs []session.Event) error {
	var items []item
	var dirty []int
	seen := map[int]bool{}
	members := false
	var closed []int
	for _, ev := range evs {
		switch ev := ev.(type) {
		case session.Output:
			if !seen[ev.Pane] {
				seen[ev.Pane] = true
				dirty = append(dirty, ev.Pane)
			}
		case session.MemberChanged, session.Exit, session.StatusChanged, session.Spent:
			members = true
		case session.Closed:
			if !ev.Done {
				members = true
				closed = append(closed, ev.Pane)
			}
		case session.Delivery:
			items = append(items, entryItem(ev.Entry))
		case session.Notice:
			items = append(items, entryItem(ev.Entry))
		}
	}
	if members {
		if err := p.members(ctx); err != nil {
			return err
		}
	}
	for _, id := range closed {
		delete(p.views, id)
		if err := p.json(ctx, closedFrame{T: "closed", Pane: id}); err != nil {
			return err
		}
	}
	if len(items) > 0 {
		if err := p.json(ctx, convFrame{T: "conv", Items: items}); err != nil {
			return err
		}
	}
	for _, id := range dirty {
		if err := p.screen(ctx, id); err != nil {
			return err
		}
	}
	return nil
}

// members sends every member and the relay's groups.
func (p *page) members(ctx context.Context) error {
	st := p.s.sess.Status()
	f := membersFrame{T: "members", Summary: st.Summary, Waiting: st.Waiting, Members: []memberJSON{}, Groups: []groupJSON{}}
	for _, m := range p.s.sess.Members() {
		mj := memberJSON{Pane: m.Pane, Name: m.Name, Program: m.Program, State: m.State.String(), Group: m.Group,
			Held: m.Held, Typing: m.Typing, Waiting: m.Waiting, Cols: m.Cols, Rows: m.Rows, External: m.External, Spend: m.Spend.Short()}
		if m.State == session.Exited {
			mj.Exit = session.ExitText(m.Code)
		}
		if a := m.Asks; a != nil {
			mj.Asks = &asksJSON{Question: a.Question, Options: []optionJSON{}, Since: a.Since.UnixMilli(), Rows: a.Context}
			for _, o := range a.Options {
				mj.Asks.Options = append(mj.Asks.Options, optionJSON{Key: o.Key, Label: o.Label})
			}
		}
		f.Members = append(f.Members, mj)
	}
	for _, g := range st.Groups {
		f.Groups = append(f.Groups, groupJSON{ID: g.ID, Members: g.Members, Used: g.Used, Budget: g.Budget, Label: g.String(), Spend: linkSpend(g)})
	}
	return p.json(ctx, f)
}

// screen sends pane id's picture as it changed since the page last saw it.
func (p *page) screen(ctx context.Context, id int) error {
	v := p.views[id]
	if v == nil {
		// A pane's Screen stays valid for the pane's life (and after): asked once.
		sc := p.s.sess.Screen(id)
		if sc == nil {
			return nil
		}
		v = &paneView{screen: sc}
		p.views[id] = v
	}
	b := v.frame(id, v.screen)
	if b == nil {
		return nil
	}
	return p.send(ctx, websocket.MessageBinary, b)
}

// json sends v as a text frame.
func (p *page) json(ctx context.Context, v any) error {
	b, err := json.Marshal(v)
	if err != nil {
		return err
	}
	return p.send(ctx, websocket.MessageText, b)
}

// send writes one frame within Options.WriteTimeout. A frame begun is written whole
// even when the view stops meanwhile (ctx ends): the websocket library closes the
// connection under a write whose context ends, and the page would lose the close
// frame that says why; write's loop sees ctx between frames.
func (p *page) send(ctx context.Context, typ websocket.MessageType, b []byte) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	wctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), p.s.o.WriteTimeout)
	defer cancel()
	if err := p.c.Write(wctx, typ, b); err != nil {
		return err
	}
	p.s.sent.Add(int64(len(b)))
	return nil
}
