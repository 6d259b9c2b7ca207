package main

import (
	"errors"
	"fmt"
	"io"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/agentmux/agentmux/client"
	"github.com/agentmux/agentmux/dirs"
	"github.com/agentmux/agentmux/proto"
)

// inboxEntry is one pane that needs the person, as inbox --json lists it.
type inboxEntry struct {
	Session string      `json:"session"`
	Pane    int         `json:"pane"`
	Name    string      `json:"name"`
	Program string      `json:"program"`
	Asks    *proto.Asks `json:"asks"`
	// Via is, for a pane of another session of the mesh (--mesh), the session of this
	// machine that sees it: the one agentmux answer goes through.
	Via string `json:"via,omitempty"`
}

// inboxArgs are inbox's: the mesh's panes too.
type inboxArgs struct{ mesh bool }

// answerArgs are answer's: the question the prompt must still ask.
type answerArgs struct{ question string }

// inbox lists every pane that needs the person in every session running on this
// machine (--session: that one) and, with --mesh, in the sessions of their meshes that
// name one of those as their person's ([mesh] answer_from), the longest waiting first.
// A session that does not answer is said on stderr-free terms: a line at the end.
func inbox(a clientArgs, w io.Writer) error {
	o := own[inboxArgs](a)
	dir, err := dirs.RuntimeDir()
	if err != nil {
		return err
	}
	ss, err := dirs.Sessions(dir)
	if err != nil {
		return err
	}
	entries := []inboxEntry{}
	var unreachable, meshes []string
	local := map[string]bool{}
	for _, s := range ss {
		local[strings.ToLower(s.Name)] = true
	}
	if a.session != "" && !local[strings.ToLower(a.session)] {
		// a typo must not read as "nothing waits for you"
		return fmt.Errorf("no session %q is running (agentmux sessions lists them)", a.session)
	}
	remote := map[string]bool{} // the other sessions listed, by name
	for _, s := range ss {
		if a.session != "" && !strings.EqualFold(a.session, s.Name) {
			continue
		}
		c, err := client.DialHere(s.Socket)
		if err != nil {
			unreachable = append(unreachable, s.Name)
			continue
		}
		res, err := c.Request(proto.TypeList, struct{}{})
		if err != nil {
			c.Close()
			unreachable = append(unreachable, s.Name)
			continue
		}
		for _, m := range res.Members {
			if m.State == "needs you" {
				entries = append(entries, inboxEntry{Session: s.Name, Pane: m.Number, Name: m.Name, Program: m.Program, Asks: orNoAsks(m.Asks)})
			}
		}
		if o.mesh {
			if res, err := c.Request(proto.TypeMesh, struct{}{}); err == nil {
				meshes = append(meshes, s.Name)
				for _, ms := range res.Mesh {
					if local[strings.ToLower(ms.Name)] || remote[ms.Name] {
						continue
					}
					remote[ms.Name] = true
					for _, m := range ms.Members {
						if m.State == "needs you" && m.Asks != nil {
							entries = append(entries, inboxEntry{Session: ms.Name, Pane: m.Pane, Name: m.Name, Program: m.Program, Asks: orNoAsks(m.Asks), Via: s.Name})
						}
					}
				}
			}
		}
		c.Close()
	}
	sortInbox(entries)
	if a.json {
		return printJSON(w, entries)
	}
	if len(entries) == 0 {
		fmt.Fprintln(w, "nothing waits for you")
	} else {
		tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
		fmt.Fprintln(tw, "SESSION\tPANE\tWAITING\tQUESTION\tOPTIONS")
		now := time.Now()
		for _, e := range entries {
			fmt.Fprintf(tw, "%s\t%d %s\t%s\t%s\t%s\n", line(e.Session), e.Pane, line(e.Name), waited(e.Asks, now),
				line(cmpOr(e.Asks.Question, "(not read)")), line(optionsText(e.Asks.Options)))
		}
		if err := tw.Flush(); err != nil {
			return err
		}
		fmt.Fprintln(w, "answer: agentmux answer --session SESSION PANE OPTION")
		if len(remote) > 0 && len(meshes) > 0 {
			fmt.Fprintf(w, "another session's: agentmux answer --session %s NAME@SESSION OPTION\n", line(meshes[0]))
		}
	}
	if len(unreachable) > 0 {
		fmt.Fprintf(w, "did not answer: %s\n", line(strings.Join(unreachable, ", ")))
	}
	if o.mesh && len(meshes) == 0 {
		fmt.Fprintln(w, "no session here joined a mesh: only this machine's sessions are listed")
	}
	return nil
}

// orNoAsks is a, or an ask with nothing read when a is nil.
func orNoAsks(a *proto.Asks) *proto.Asks {
	if a == nil {
		return &proto.Asks{Options: []proto.Option{}}
	}
	return a
}

// sortInbox puts the longest waiting first (then by session and pane).
func sortInbox(es []inboxEntry) {
	for i := 1; i < len(es); i++ {
		for j := i; j > 0 && inboxLess(es[j], es[j-1]); j-- {
			es[j], es[j-1] = es[j-1], es[j]
		}
	}
}

func inboxLess(a, b inboxEntry) bool {
	if a.Asks.Since != b.Asks.Since {
		return a.Asks.Since < b.Asks.Since
	}
	if a.Session != b.Session {
		return a.Session < b.Session
	}
	return a.Pane < b.Pane
}

// waited says for how long a pane has waited ("-" when not known).
func waited(a *proto.Asks, now time.Time) string {
	if a.Since == 0 {
		return "-"
	}
	return now.Sub(time.UnixMilli(a.Since)).Truncate(time.Second).String()
}

// optionsText is the choices on one line: "1 Yes · 2 No".
func optionsText(opts []proto.Option) string {
	parts := make([]string, len(opts))
	for i, o := range opts {
		parts[i] = o.Key + " " + o.Label
	}
	return strings.Join(parts, " · ")
}

// cmpOr is s, or def when s is empty.
func cmpOr(s, def string) string {
	if s == "" {
		return def
	}
	return s
}

// answer picks a choice of the prompt a pane waits at (X_ANSWER) and says which.
func answer(c *client.Conn, a clientArgs, w io.Writer) error {
	res, err := c.Request(proto.TypeAnswer, proto.Answer{A: a.operands[0], Option: a.operands[1], Question: own[answerArgs](a).question})
	if ce := (*client.Error)(nil); errors.As(err, &ce) {
		return err // the session's refusal says what it refused ("answer 1 bot: ...")
	} else if err != nil {
		return fmt.Errorf("answer %s: %w", a.operands[0], err)
	}
	if a.json {
		return printJSON(w, res.Answer)
	}
	if res.Answer != nil {
		_, err = fmt.Fprintf(w, "answered %s: %s %s\n", line(a.operands[0]), line(res.Answer.Key), line(res.Answer.Label))
	}
	return err
}
