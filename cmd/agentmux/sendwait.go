package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"

	"github.com/agentmux/agentmux/client"
	"github.com/agentmux/agentmux/proto"
)

// finalPhases are the delivery phases after which a message's phase never changes.
var finalPhases = map[string]bool{"confirmed": true, "failed": true, "dropped": true, "expired": true}

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
		if err := json.Unmarshal(payload, &e); err != nil || e.Kind != "delivery" || e.ID != id || !finalPhases[e.Phase] {
			return false, nil
		}
		if e.Phase == "confirmed" {
			code = 0
		}
		var err error
		if a.json {
			err = printJSON(w, map[string]string{"id": id, "status": e.Phase, "text": e.Text})
		} else if e.Text != "" && e.Phase != "confirmed" { // the reason it was not
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
