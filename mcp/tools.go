package mcp

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/google/jsonschema-go/jsonschema"
	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/agentmux/agentmux/action"
	"github.com/agentmux/agentmux/client"
	"github.com/agentmux/agentmux/proto"
)

// tools is the one table of the tools' names: each tool is the action of the vocabulary
// (package action) it takes, named as MCP clients call it. addTools declares each tool
// by its action.
var tools = []struct {
	name string
	act  action.Name
}{
	{"members", action.List},
	{"send", action.Send},
	{"wait", action.Events}, // follows the session's events for a message or an answer
	{"read", action.Read},
	{"history", action.History},
	{"capture", action.Capture},
}

// ToolActions are the MCP tools' actions, by the tools' names.
func ToolActions() map[string]action.Name {
	m := make(map[string]action.Name, len(tools))
	for _, t := range tools {
		m[t.name] = t.act
	}
	return m
}

// tool is the tool that takes act, named as the table names it, with its input
// schema and description; one whose action reads the session is marked read-only.
func tool(act action.Name, schema *jsonschema.Schema, desc string) *sdk.Tool {
	for _, t := range tools {
		if t.act == act {
			tl := &sdk.Tool{Name: t.name, InputSchema: schema, Description: desc}
			if act.Kind() == action.KindQuery {
				tl.Annotations = &sdk.ToolAnnotations{ReadOnlyHint: true}
			}
			return tl
		}
	}
	panic(fmt.Sprintf("no tool takes action %s", act))
}

// addTools declares every tool: its schema (from its input type), its description and
// its handler.
func (s *Server) addTools() {
	sdk.AddTool(s.sdk, tool(action.List, schemaFor[membersIn](nil),
		"Who is in this agentmux session: each pane's number, name, program and state (idle, busy, "+
			"needs you, exited), its relay group and turns, messages waiting for it; protocol clients; the other "+
			"sessions of the mesh and their members (address them as name@session); and who you are here."), s.members)
	sdk.AddTool(s.sdk, tool(action.Send, schemaFor[sendIn](map[string][]any{"mode": {"sequential", "important", "urgent"}}),
		"Send a message to another agent: it is typed into its pane, headed with your name, once that "+
			"agent is idle and nobody types there. to is a pane's name or number, * for every member, or "+
			"name@session for a member of another session of the mesh. mode important goes ahead of other waiting "+
			"messages; urgent interrupts the agent to deliver it now. timeout (e.g. 10m) gives up if it was not typed "+
			"by then. Returns the message's id and its phase (queued); call wait with the id to follow it or to get "+
			"the answer."), s.send)
	sdk.AddTool(s.sdk, tool(action.Events, schemaFor[waitIn](map[string][]any{"phase": {"typed", "submitted", "confirmed", "expired"}}),
		"Wait for a message sent with send to reach a phase (id; phase typed, submitted, confirmed "+
			"(the default) or expired: it returns as soon as the message got there or can no longer, with the phase it "+
			"reached: confirmed, failed, dropped or expired), or for an answer (id with answer true: the recipient's "+
			"next finished turn after the message went in; or member alone: that member's next finished turn). "+
			"Returns within max_seconds (default and at most 45) with status pending and a token when nothing came "+
			"yet: call wait again with just the token; status ended when the session ended."), s.wait)
	sdk.AddTool(s.sdk, tool(action.Read, schemaFor[readIn](nil),
		"One message whole, by its id (from send, wait or history): sender, kind, time, each "+
			"recipient with its phase, and the whole body (long ones are cut when typed into a pane)."), s.read)
	sdk.AddTool(s.sdk, tool(action.History, schemaFor[historyIn](nil),
		"The session's conversation, oldest first: each message's id, sender, recipient, phase, time "+
			"and body (long bodies cut: read has them whole). member keeps those to or from one member; since "+
			"(e.g. 1h) those of the last while; limit at most that many of the newest (default 20, at most 100)."), s.history)
	sdk.AddTool(s.sdk, tool(action.Capture, schemaFor[captureIn](nil),
		"A pane's screen as text, with lines of its history above it: what the agent there shows "+
			"now. target is the pane's name or number."), s.capture)
}

// callErr is how a failed socket request reads in a tool's error: the socket's own
// words, or that the session ended.
func (s *Server) callErr(what string, err error) error {
	var ce *client.Error
	switch {
	case errors.As(err, &ce):
		if strings.HasPrefix(strings.ReplaceAll(ce.Message, `"`, ""), what+":") { // the session's words say it already
			return errors.New(ce.Message)
		}
		return fmt.Errorf("%s: %s", what, ce.Message)
	case s.ended():
		return fmt.Errorf("%s: %w", what, errEnded)
	}
	return fmt.Errorf("%s: %w", what, err)
}

type membersIn struct{}

// memberOut is one member as members reports it.
type memberOut struct {
	Number  int    `json:"number,omitempty" jsonschema:"the pane's number (none for a protocol client)"`
	Name    string `json:"name"`
	Program string `json:"program,omitempty"`
	State   string `json:"state" jsonschema:"running, idle, busy, needs you, connected, or how it ended"`
	Group   string `json:"group,omitempty" jsonschema:"its relay group as the status line shows it, e.g. 1⇄2"`
	Turns   string `json:"turns,omitempty" jsonschema:"the group's turns used of its budget, e.g. 3/8"`
	Waiting int    `json:"waiting" jsonschema:"messages waiting to be typed into it"`
	Held    bool   `json:"held,omitempty" jsonschema:"deliveries into it are held: a person drives it"`
	Client  bool   `json:"client,omitempty" jsonschema:"a protocol client, not a pane"`
	Branch  string `json:"branch,omitempty" jsonschema:"its own git worktree's branch"`
}

// meshOut is another session of the mesh.
type meshOut struct {
	Session string      `json:"session"`
	Live    bool        `json:"live" jsonschema:"its members answered; else it keeps messages until it is back"`
	Members []memberOut `json:"members"`
}

type membersOut struct {
	Session string      `json:"session"`
	You     string      `json:"you" jsonschema:"who your calls speak for: your pane, or the person"`
	Members []memberOut `json:"members"`
	// Asks are other sessions' members asking to link with a pane here, waiting
	// for the person's answer.
	Asks []string  `json:"asks,omitempty" jsonschema:"link requests from other sessions waiting for the person's answer"`
	Mesh []meshOut `json:"mesh,omitempty" jsonschema:"the other sessions of the mesh this session joined"`
}

func (s *Server) members(ctx context.Context, _ *sdk.CallToolRequest, _ membersIn) (*sdk.CallToolResult, membersOut, error) {
	c, err := s.dial(ctx)
	if err != nil {
		return nil, membersOut{}, s.callErr("members", err)
	}
	defer c.Close()
	res, err := c.Request(proto.TypeList, struct{}{})
	if err != nil {
		return nil, membersOut{}, s.callErr("members", err)
	}
	out := membersOut{Session: s.session, You: s.caller, Members: []memberOut{}}
	for _, m := range res.Members {
		mo := memberOut{Number: m.Number, Name: m.Name, Program: m.Program, State: m.State, Group: m.Group,
			Waiting: m.Waiting, Held: m.Held, Client: m.Client, Branch: m.Branch}
		if m.Turns != nil {
			mo.Turns = m.Turns.String()
		}
		out.Members = append(out.Members, mo)
	}
	if p, err := c.Request(proto.TypeLink, proto.Target{Pending: true}); err == nil {
		for _, r := range p.LinkRequests {
			out.Asks = append(out.Asks, fmt.Sprintf("%s asks to link with %s (%d turns)", r.From, r.To, r.Turns))
		}
	}
	// The mesh answers over the network: a short bound, and a session in none
	// answers an error, which says nothing to report.
	c.SetDeadline(time.Now().Add(3 * time.Second))
	if p, err := c.Request(proto.TypeMesh, struct{}{}); err == nil {
		for _, ms := range p.Mesh {
			if ms.Name == s.session {
				continue
			}
			mo := meshOut{Session: ms.Name, Live: ms.Live, Members: []memberOut{}}
			for _, m := range ms.Members {
				mo.Members = append(mo.Members, memberOut{Name: m.Name, Program: m.Program, State: m.State})
			}
			out.Mesh = append(out.Mesh, mo)
		}
	}
	return nil, out, nil
}

type sendIn struct {
	To      string `json:"to" jsonschema:"a pane's name or number, * for every member, or name@session"`
	Message string `json:"message" jsonschema:"the words to type into the agent's pane"`
	Mode    string `json:"mode,omitempty" jsonschema:"sequential (default), important or urgent"`
	Timeout string `json:"timeout,omitempty" jsonschema:"give up if not typed within this long, e.g. 10m or 90s"`
	From    string `json:"from,omitempty" jsonschema:"attribute it to this name instead of your pane's (never another pane's or member's)"`
}

type sendOut struct {
	ID    string `json:"id" jsonschema:"the message's id, for wait and read"`
	Phase string `json:"phase" jsonschema:"where it is now: queued"`
	Note  string `json:"note,omitempty" jsonschema:"what to know of how it goes"`
}

func (s *Server) send(ctx context.Context, _ *sdk.CallToolRequest, in sendIn) (*sdk.CallToolResult, sendOut, error) {
	if strings.TrimSpace(in.To) == "" {
		return nil, sendOut{}, errors.New(`to: empty: name a pane, a number, * or name@session`)
	}
	if strings.TrimSpace(in.Message) == "" {
		return nil, sendOut{}, errors.New("message: empty")
	}
	var meta *proto.SendMeta
	if in.Mode != "" && in.Mode != proto.ModeSequential {
		meta = &proto.SendMeta{Mode: in.Mode}
	}
	if in.Timeout != "" {
		d, err := time.ParseDuration(in.Timeout)
		if err != nil || d <= 0 {
			return nil, sendOut{}, fmt.Errorf("timeout: %q is not a duration above 0 such as 10m or 90s", in.Timeout)
		}
		if meta == nil {
			meta = &proto.SendMeta{}
		}
		meta.TTLMs = d.Milliseconds()
	}
	if size, err := s.frameSize(in, meta); err != nil {
		return nil, sendOut{}, err
	} else if size > s.maxFrame {
		return nil, sendOut{}, fmt.Errorf("message: %d bytes with its envelope, over the session's limit of %d bytes a message: send it in parts, or write it to a file and send the path", size, s.maxFrame)
	}
	c, err := s.dial(ctx)
	if err != nil {
		return nil, sendOut{}, s.callErr("send", err)
	}
	defer c.Close()
	ack, err := c.SendAck(in.From, in.To, in.Message, meta)
	if err != nil {
		return nil, sendOut{}, s.callErr("send to "+in.To, err)
	}
	return nil, sendOut{ID: ack.MessageID, Phase: "queued", Note: ack.XNote}, nil
}

// frameSize is the size of the SEND frame that carries in, as the client writes it.
func (s *Server) frameSize(in sendIn, meta *proto.SendMeta) (int, error) {
	e, err := proto.New(proto.TypeSend, "c-1000000", time.Now().UnixMilli(), proto.Send{Kind: proto.KindMessage, Body: in.Message})
	if err != nil {
		return 0, err
	}
	e.From, e.To, e.PayloadMeta = in.From, in.To, meta
	b, err := proto.Encode(e)
	return len(b), err
}

type readIn struct {
	ID string `json:"id" jsonschema:"the message's id"`
}

// recipient is one recipient of a message and how far the message got to it.
type recipient struct {
	To    string `json:"to"`
	Phase string `json:"phase" jsonschema:"queued, typed, submitted, confirmed, failed, dropped or expired"`
}

type readOut struct {
	ID         string      `json:"id"`
	From       string      `json:"from"`
	Kind       string      `json:"kind"`
	Queued     string      `json:"queued" jsonschema:"when it was sent (RFC 3339)"`
	Recipients []recipient `json:"recipients"`
	Body       string      `json:"body"`
}

func (s *Server) read(ctx context.Context, _ *sdk.CallToolRequest, in readIn) (*sdk.CallToolResult, readOut, error) {
	if strings.TrimSpace(in.ID) == "" {
		return nil, readOut{}, errors.New("id: empty")
	}
	c, err := s.dial(ctx)
	if err != nil {
		return nil, readOut{}, s.callErr("read", err)
	}
	defer c.Close()
	res, err := c.Request(proto.TypeRead, proto.Read{ID: in.ID})
	if err != nil {
		return nil, readOut{}, s.callErr("read "+in.ID, err)
	}
	if res.Message == nil {
		return nil, readOut{}, fmt.Errorf("read %s: the session answered no message", in.ID)
	}
	m := *res.Message
	var body strings.Builder
	body.WriteString(m.Body)
	for r := res; r.NextOffset > 0; {
		if r, err = c.Request(proto.TypeRead, proto.Read{ID: in.ID, Offset: r.NextOffset}); err != nil {
			return nil, readOut{}, s.callErr("read "+in.ID, err)
		}
		if r.Message == nil {
			return nil, readOut{}, fmt.Errorf("read %s: the session answered no message", in.ID)
		}
		body.WriteString(r.Message.Body)
	}
	out := readOut{ID: m.ID, From: m.From, Kind: m.Kind, Queued: time.UnixMilli(m.Queued).UTC().Format(time.RFC3339), Body: body.String(), Recipients: []recipient{}}
	for _, r := range res.Messages {
		out.Recipients = append(out.Recipients, recipient{To: r.To, Phase: string(r.Phase())})
	}
	return nil, out, nil
}

type historyIn struct {
	Member string `json:"member,omitempty" jsonschema:"only messages to or from this member"`
	Since  string `json:"since,omitempty" jsonschema:"only those of the last while, e.g. 1h or 15m"`
	Limit  int    `json:"limit,omitempty" jsonschema:"at most this many of the newest (default 20, at most 100)"`
}

// historyBody is how much of a body history shows: read has it whole.
const historyBody = 500

type historyMessage struct {
	ID     string `json:"id"`
	From   string `json:"from"`
	To     string `json:"to"`
	Phase  string `json:"phase"`
	Queued string `json:"queued" jsonschema:"when it was sent (RFC 3339)"`
	Body   string `json:"body"`
	Cut    bool   `json:"cut,omitempty" jsonschema:"the body is cut here: read has it whole"`
}

type historyOut struct {
	Messages []historyMessage `json:"messages"`
}

func (s *Server) history(ctx context.Context, _ *sdk.CallToolRequest, in historyIn) (*sdk.CallToolResult, historyOut, error) {
	q := proto.History{Member: in.Member, Limit: in.Limit}
	switch {
	case in.Limit < 0 || in.Limit > 100:
		return nil, historyOut{}, fmt.Errorf("limit: %d is not between 1 and 100", in.Limit)
	case in.Limit == 0:
		q.Limit = 20
	}
	if in.Since != "" {
		d, err := time.ParseDuration(in.Since)
		if err != nil || d <= 0 {
			return nil, historyOut{}, fmt.Errorf("since: %q is not a duration above 0 such as 1h or 15m", in.Since)
		}
		q.SinceMs = time.Now().Add(-d).UnixMilli()
	}
	c, err := s.dial(ctx)
	if err != nil {
		return nil, historyOut{}, s.callErr("history", err)
	}
	defer c.Close()
	out := historyOut{Messages: []historyMessage{}}
	var got []proto.Message
	for want := q.Limit; len(got) < want; {
		q.Limit = want - len(got)
		res, err := c.Request(proto.TypeHistory, q)
		if err != nil {
			return nil, historyOut{}, s.callErr("history", err)
		}
		got = append(res.Messages, got...)
		if res.Next == 0 || len(res.Messages) == 0 {
			break
		}
		q.Before = res.Next
	}
	for _, m := range got {
		body, cut := m.Body, m.Cut
		if len(body) > historyBody {
			body, cut = strings.ToValidUTF8(body[:historyBody], ""), true
		}
		out.Messages = append(out.Messages, historyMessage{ID: m.ID, From: m.From, To: m.To, Phase: string(m.Phase()),
			Queued: time.UnixMilli(m.Queued).UTC().Format(time.RFC3339), Body: body, Cut: cut})
	}
	return nil, out, nil
}

type captureIn struct {
	Target string `json:"target" jsonschema:"the pane's name or number"`
	Lines  int    `json:"lines,omitempty" jsonschema:"lines of its history above the screen (default 0)"`
}

type captureOut struct {
	Screen string `json:"screen"`
}

func (s *Server) capture(ctx context.Context, _ *sdk.CallToolRequest, in captureIn) (*sdk.CallToolResult, captureOut, error) {
	switch {
	case strings.TrimSpace(in.Target) == "":
		return nil, captureOut{}, errors.New("target: empty: name a pane or its number")
	case in.Lines < 0:
		return nil, captureOut{}, fmt.Errorf("lines: %d is below 0", in.Lines)
	}
	c, err := s.dial(ctx)
	if err != nil {
		return nil, captureOut{}, s.callErr("capture", err)
	}
	defer c.Close()
	res, err := c.Request(proto.TypeCapture, proto.Capture{Target: in.Target, Lines: in.Lines})
	if err != nil {
		return nil, captureOut{}, s.callErr("capture "+in.Target, err)
	}
	out := captureOut{}
	if res.Screen != nil {
		out.Screen = *res.Screen
	}
	return nil, out, nil
}
