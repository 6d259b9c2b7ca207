package web

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/coder/websocket"

	"github.com/agentmux/agentmux/action"
	"github.com/agentmux/agentmux/session"
)

// ErrReadOnly answers every action of a page of a web view started without control.
var ErrReadOnly = errors.New("this web view is read-only: start it with --control to send messages, link panes or type into them")

// frame is an action from the page: T is its name in the action vocabulary (send,
// link, unlink, hold, release, answer, input: the keys typed in a pane's terminal); ID
// is echoed in the answer.
type frame struct {
	T    string `json:"t"`
	ID   int    `json:"id,omitempty"`
	To   string `json:"to,omitempty"`   // send: a member's name or number
	Text string `json:"text,omitempty"` // send
	A    int    `json:"a,omitempty"`    // link, unlink, hold, release: a pane
	B    int    `json:"b,omitempty"`    // link
	Pane int    `json:"pane,omitempty"` // input
	Data string `json:"data,omitempty"` // input: what the page's terminal encoded
	// answer: Pane's prompt, choice Key, refused unless it still asks Question.
	Key      string `json:"key,omitempty"`
	Question string `json:"question,omitempty"`
}

// result answers an action.
type result struct {
	T    string `json:"t"` // "result" or "error"
	Re   int    `json:"re,omitempty"`
	Text string `json:"text"`
}

// read takes the page's frames until it goes, then ends the page (cancel).
func (p *page) read(ctx context.Context, cancel context.CancelFunc) {
	defer cancel()
	for {
		typ, b, err := p.c.Read(ctx)
		if err != nil {
			return
		}
		var a frame
		if typ != websocket.MessageText || json.Unmarshal(b, &a) != nil {
			if p.json(ctx, result{T: "error", Text: "bad frame: the page sends JSON actions"}) != nil {
				return
			}
			continue
		}
		text, err := p.do(a)
		r := result{T: "result", Re: a.ID, Text: text}
		if err != nil {
			r = result{T: "error", Re: a.ID, Text: err.Error()}
		}
		if action.Name(a.T) == action.Input && err == nil {
			continue // keys need no answer
		}
		if p.json(ctx, r) != nil {
			return
		}
	}
}

// do carries out an action on the session.
func (p *page) do(a frame) (string, error) {
	if !p.s.o.Control {
		return "", ErrReadOnly
	}
	if do, ok := controls[action.Name(a.T)]; ok {
		return do(p, a)
	}
	return "", fmt.Errorf("unknown action %q", a.T)
}

// controls are the actions the page may take, by their names: its buttons, its
// message box and its terminals' keys.
var controls = map[action.Name]func(p *page, a frame) (string, error){
	action.Send: func(p *page, a frame) (string, error) {
		if strings.TrimSpace(a.Text) == "" {
			return "", errors.New("send: nothing to send")
		}
		if p.s.o.Send != nil {
			id, err := p.s.o.Send(YouName, a.To, a.Text)
			if err != nil {
				return "", err
			}
			return fmt.Sprintf("message %s queued for %s", id, a.To), nil
		}
		// The page's person is the person: no budget limits them, wherever they type.
		if err := p.s.sess.Send(YouName, a.To, a.Text, session.SendOptions{Person: true}); err != nil {
			return "", err
		}
		return "message queued for " + a.To, nil // no store: no id to give
	},
	action.Link:    func(p *page, a frame) (string, error) { return "linked", p.s.sess.Link(a.A, a.B) },
	action.Unlink:  func(p *page, a frame) (string, error) { return "unlinked", p.s.sess.Unlink(a.A) },
	action.Hold:    func(p *page, a frame) (string, error) { return "held", p.s.sess.Hold(a.A) },
	action.Release: func(p *page, a frame) (string, error) { return "released", p.s.sess.Release(a.A) },
	action.Answer: func(p *page, a frame) (string, error) {
		// As agentmux answer: the choice's key typed as the person's, refused when the
		// prompt is gone or asks something else now, or someone types in the pane; said
		// once typed (a prompt drawn a moment ago settles first: the page's next
		// actions, its keys too, come after it).
		o, err := p.s.sess.AnswerTyped(a.Pane, a.Key, a.Question)
		if err != nil {
			return "", err
		}
		return fmt.Sprintf("answered pane %d: %s %s", a.Pane, o.Key, o.Label), nil
	},
	action.Input: func(p *page, a frame) (string, error) {
		if _, ok := p.s.sess.Member(a.Pane); !ok {
			return "", fmt.Errorf("input: %w", session.ErrNoPane)
		}
		p.s.sess.Input(a.Pane, []byte(a.Data))
		return "", nil
	},
}

// Actions are the actions the page may take.
func Actions() []action.Name {
	out := make([]action.Name, 0, len(controls))
	for n := range controls {
		out = append(out, n)
	}
	slices.Sort(out)
	return out
}
