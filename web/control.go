package web

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	"github.com/coder/websocket"

	"github.com/agentmux/agentmux/session"
)

// ErrReadOnly answers every action of a page of a web view started without control.
var ErrReadOnly = errors.New("this web view is read-only: start it with --control to send messages, link panes or type into them")

// action is a frame from the page: T is an action's name (session.Action: send, link,
// unlink, hold, release, answer) or input, the keys typed in a pane's terminal; ID is
// echoed in the answer.
type action struct {
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

// actInput is the page's own action: the keys typed in a pane's terminal, as it
// encoded them.
const actInput session.Action = "input"

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
		var a action
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
		if a.T == string(actInput) && err == nil {
			continue // keys need no answer
		}
		if p.json(ctx, r) != nil {
			return
		}
	}
}

// do carries out an action on the session.
func (p *page) do(a action) (string, error) {
	if !p.s.o.Control {
		return "", ErrReadOnly
	}
	sess := p.s.sess
	switch session.Action(a.T) {
	case session.ActSend:
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
		if err := sess.Send(YouName, a.To, a.Text, session.SendOptions{Person: true}); err != nil {
			return "", err
		}
		return "message queued for " + a.To, nil // no store: no id to give
	case session.ActLink:
		return "linked", sess.Link(a.A, a.B)
	case session.ActUnlink:
		return "unlinked", sess.Unlink(a.A)
	case session.ActHold:
		return "held", sess.Hold(a.A)
	case session.ActRelease:
		return "released", sess.Release(a.A)
	case session.ActAnswer:
		// As agentmux answer: the choice's key typed as the person's, refused when the
		// prompt is gone or asks something else now, or someone types in the pane.
		o, err := sess.Answer(a.Pane, a.Key, a.Question)
		if err != nil {
			return "", err
		}
		return fmt.Sprintf("answered pane %d: %s %s", a.Pane, o.Key, o.Label), nil
	case actInput:
		if _, ok := sess.Member(a.Pane); !ok {
			return "", fmt.Errorf("input: %w", session.ErrNoPane)
		}
		sess.Input(a.Pane, []byte(a.Data))
		return "", nil
	}
	return "", fmt.Errorf("unknown action %q", a.T)
}
