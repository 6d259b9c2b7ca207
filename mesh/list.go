package mesh

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"sort"
	"strings"
	"time"

	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"
)

// SessionInfo is a session of the mesh as `agentmux ls --mesh` shows it: live (its
// members answered) or away (its stream keeps its messages until it is back).
type SessionInfo struct {
	Name    string      `json:"session"`
	Live    bool        `json:"live"`
	Members []WhoMember `json:"members"`
}

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
	nc, err := nats.Connect(o.URL, opts...)
	if err != nil {
		return nil, fmt.Errorf("mesh %s: %w", o.URL, explainConnect(err))
	}
	defer nc.Close()
	js, err := jetstream.New(nc)
	if err != nil {
		return nil, err
	}
	ctx, cancel := context.WithTimeout(context.Background(), o.Timeout)
	defer cancel()
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
	out := make([]SessionInfo, 0, len(names))
	for _, name := range names {
		info := SessionInfo{Name: name, Members: []WhoMember{}}
		msg, err := nc.Request("amux.who."+name, nil, o.Timeout)
		switch {
		case err == nil:
			var w who
			if json.Unmarshal(msg.Data, &w) == nil {
				info.Live, info.Members = true, w.Members
			}
		case !errors.Is(err, nats.ErrNoResponders):
			return nil, fmt.Errorf("mesh: asking %s: %w", name, err)
		}
		out = append(out, info)
	}
	return out, nil
}
