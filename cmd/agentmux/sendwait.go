package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/agentmux/agentmux/client"
	"github.com/agentmux/agentmux/proto"
)

// sendAndWait is send --wait: it subscribes to the session's events first (on a
// connection of its own, so no phase is missed), sends, then waits for the message's
// last phase and prints it. Exit 0 when confirmed, 1 when failed, dropped or expired,
// or when the session ends first.
func sendAndWait(ctx context.Context, path string, c *client.Conn, a clientArgs, body string, w io.Writer) (int, error) {
	ev, err := client.DialHere(path)
	if err != nil {
		return 1, err
	}
	defer ev.Close()
	if _, err := ev.Request(proto.TypeEvents, struct{}{}); err != nil {
		return 1, fmt.Errorf("send --wait: %w", err)
	}
	id, err := send(c, a, body, w)
	if err != nil {
		return 1, err
	}
	code := 1
	err = eachEvent(ctx, ev, func(payload json.RawMessage) (bool, error) {
		var e proto.Event
		if err := json.Unmarshal(payload, &e); err != nil || e.Kind != proto.EventDelivery || e.ID != id || !e.Phase.Final() {
			return false, nil
		}
		if e.Phase == proto.PhaseConfirmed {
			code = 0
		}
		var err error
		if a.json {
			err = printJSON(w, map[string]string{"id": id, "status": string(e.Phase), "text": e.Text})
		} else if e.Text != "" && e.Phase != proto.PhaseConfirmed { // the reason it was not
			_, err = fmt.Fprintf(w, "%s %s: %s\n", line(id), e.Phase, line(e.Text))
		} else {
			_, err = fmt.Fprintf(w, "%s %s\n", line(id), e.Phase)
		}
		return true, err
	})
	switch {
	case err == nil:
		return code, nil
	case errors.Is(err, errInterrupted):
		return 1, fmt.Errorf("send --wait: interrupted; %s is still on its way (agentmux history shows its phase)", line(id))
	case errors.Is(err, errBye), errors.Is(err, io.EOF):
		return 1, fmt.Errorf("send --wait: the session ended before %s was delivered", line(id))
	}
	if he, ok := err.(handlerError); ok {
		return 1, he.err
	}
	return 1, fmt.Errorf("send --wait: %w", err)
}

// replyFlags checks send --reply's company: one recipient, and neither --wait nor --raw.
func replyFlags(a clientArgs) error {
	o := own[sendArgs](a)
	switch {
	case !o.reply:
		return nil
	case a.operands[0] == "*":
		return usagef("agentmux send: --reply waits for one agent's answer, not *")
	case o.wait || o.raw:
		return usagef("agentmux send: --reply goes with neither --wait nor --raw")
	}
	return nil
}

// sendAndReply is send --reply: it subscribes to the session's events first (on a
// connection of its own, so nothing is missed), sends, follows the message's phases
// until it landed in its pane, then prints the next turn that pane finishes (its
// "turn" event: the words the relay would deliver). Exit 0 with the answer; 1 when
// the message failed, dropped or expired, when --timeout passed first, or when the
// session ended first. Nothing else is printed on stdout, so a script can take the
// answer as a function's result.
func sendAndReply(ctx context.Context, path string, c *client.Conn, a clientArgs, body string, w io.Writer) (int, error) {
	o := own[sendArgs](a)
	ev, err := client.DialHere(path)
	if err != nil {
		return 1, err
	}
	defer ev.Close()
	if _, err := ev.Request(proto.TypeEvents, struct{}{}); err != nil {
		return 1, fmt.Errorf("send --reply: %w", err)
	}
	waitCtx := ctx
	if o.timeout > 0 {
		var cancel context.CancelFunc
		waitCtx, cancel = context.WithTimeout(ctx, o.timeout)
		defer cancel()
	}
	ack, err := post(c, a, body)
	if err != nil {
		return 1, err
	}
	id := ack.MessageID
	target := a.operands[0]
	var to string // the pane's name, from the message's phases
	landed := false
	err = eachEvent(waitCtx, ev, func(payload json.RawMessage) (bool, error) {
		var e proto.Event
		if err := json.Unmarshal(payload, &e); err != nil {
			return false, nil
		}
		switch {
		case e.Kind == proto.EventDelivery && e.ID == id:
			to = e.Member
			if e.Phase.Landed() {
				landed = true
			} else if e.Phase.Final() {
				return true, fmt.Errorf("send --reply: %s was %s: %s", line(id), e.Phase, line(e.Text))
			}
		case e.Kind == proto.EventTurn && landed && strings.EqualFold(e.Member, to):
			if a.json {
				return true, printJSON(w, map[string]string{"id": id, "from": e.Member, "text": e.Text})
			}
			text := visible(e.Text, true)
			if text == "" {
				return true, nil // a turn of no words: the answer is nothing
			}
			if !strings.HasSuffix(text, "\n") {
				text += "\n"
			}
			_, err := io.WriteString(w, text)
			return true, err
		}
		return false, nil
	})
	switch {
	case err == nil:
		return 0, nil
	case errors.Is(err, errInterrupted) && waitCtx.Err() == context.DeadlineExceeded && ctx.Err() == nil:
		if !landed {
			return 1, fmt.Errorf("send --reply: %s did not take %s within %s", line(target), line(id), o.timeout)
		}
		return 1, fmt.Errorf("send --reply: no answer from %s within %s", line(target), o.timeout)
	case errors.Is(err, errInterrupted):
		return 1, fmt.Errorf("send --reply: interrupted; %s is still on its way (agentmux history shows its phase)", line(id))
	case errors.Is(err, errBye), errors.Is(err, io.EOF):
		return 1, fmt.Errorf("send --reply: the session ended before %s answered", line(target))
	}
	if he, ok := err.(handlerError); ok {
		return 1, he.err
	}
	return 1, fmt.Errorf("send --reply: %w", err)
}
