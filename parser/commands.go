package parser

import (
	"encoding/json"
	"errors"
	"fmt"
	"slices"
)

// Relay commands: what an agent writes to address another pane itself. The grammar
// follows agent-relay 1.0.7's parser (see the README's Relay section for where it
// differs and why):
//
//   - An inline command starts a line: only white space and the glyphs of
//     promptGlyphs may come before its marker. The marker (@relay: or >>relay: for a
//     message, @thinking: or >>thinking: for thinking, or the profile's own) is followed
//     at once by the target, which runs to the first white space (`*` is every other
//     pane), then white space, then the body: the rest of the line, trailing white space
//     kept. `[thread:ID]` opening the body sets a thread. Indented non-blank lines after
//     it that are not commands themselves continue the body. A `\` right before the
//     marker makes the line text.
//   - A block is `[[RELAY]]` at the start of a line (indentation allowed) up to
//     `[[/RELAY]]`, on one line or many, holding one JSON object with "to", "type",
//     "body" (or "text"), and optional "data" and "thread".
//   - Nothing inside a fenced code block (from a line opening with ``` at column 0 to
//     the next) is a command. Escape sequences are removed before matching; CRLF is a
//     newline.

// Kind is what a command carries.
type Kind string

// The kinds of relay commands.
const (
	// KindMessage is words for the addressee: typed into it.
	KindMessage Kind = "message"
	// KindAction is a request with structured data: typed as its body and its data as JSON.
	KindAction Kind = "action"
	// KindThinking is a note on what the agent is considering: never typed into an agent.
	KindThinking Kind = "thinking"
	// KindState is a status report: never typed into an agent.
	KindState Kind = "state"
)

// Typed reports whether commands of kind k are typed into their addressee.
func (k Kind) Typed() bool { return k == KindMessage || k == KindAction }

// Command is one relay command found in an agent's output.
type Command struct {
	// To is the target as written: a pane name or number, or "*" for every other pane.
	To string
	// Kind is what the command carries.
	Kind Kind
	// Body is the words (continuation lines joined with "\n"); may be empty in a block.
	Body string
	// Thread is the thread the command belongs to, "" for none.
	Thread string
	// Data is a block's "data" object, compact JSON; nil when absent.
	Data json.RawMessage
	// Err is set when a block was malformed (bad JSON, no "to" or "type", too large,
	// never closed): such a command is never delivered; the caller reports it. The
	// other fields hold what could be read.
	Err error
}

// Errors of malformed blocks.
var (
	// ErrUnterminated is the Err of a [[RELAY]] block with no [[/RELAY]].
	ErrUnterminated = errors.New("relay block never closed with [[/RELAY]]")
	// ErrBlockTooLarge is the Err of a block larger than Syntax.MaxBlockBytes.
	ErrBlockTooLarge = errors.New("relay block larger than the limit")
)

// Default markers and limits.
const (
	blockOpen  = "[[RELAY]]"
	blockClose = "[[/RELAY]]"
	// DefaultMaxBlockBytes is the largest block content accepted (1 MiB).
	DefaultMaxBlockBytes = 1 << 20
)

// DefaultMessagePrefixes and DefaultThinkingPrefixes are the inline markers on unless a
// profile says otherwise.
var (
	DefaultMessagePrefixes  = []string{"@relay:", ">>relay:"}
	DefaultThinkingPrefixes = []string{"@thinking:", ">>thinking:"}
)

// Syntax is which forms of relay commands a parser knows. The zero value is the
// default: every marker, inline commands and blocks, blocks up to 1 MiB.
type Syntax struct {
	// MessagePrefixes and ThinkingPrefixes are the inline markers of each kind; nil
	// means the defaults, an empty non-nil list none.
	MessagePrefixes, ThinkingPrefixes []string
	// NoInline and NoBlock turn inline commands or blocks off.
	NoInline, NoBlock bool
	// MaxBlockBytes is the largest block content, between the markers (0: 1 MiB).
	MaxBlockBytes int
}

// Validate reports a prefix that cannot work (empty, or holding white space or a line
// break) or a negative limit.
func (s Syntax) Validate() error {
	for _, l := range [][]string{s.MessagePrefixes, s.ThinkingPrefixes} {
		for _, p := range l {
			if p == "" {
				return errors.New("relay prefix must not be empty")
			}
			for i := 0; i < len(p); i++ {
				if isSpace(p[i]) || p[i] == '\n' || p[i] == '\r' || p[i] == 0x1b {
					return fmt.Errorf("relay prefix %q must not hold white space or control characters", p)
				}
			}
		}
	}
	if s.MaxBlockBytes < 0 {
		return fmt.Errorf("max block bytes must not be negative, got %d", s.MaxBlockBytes)
	}
	return nil
}

// marker is one inline marker and the kind it opens.
type marker struct {
	text string
	kind Kind
}

// markers returns the inline markers, longest first, so `>>thinking:` wins over a
// custom `>>`.
func (s Syntax) markers() []marker {
	if s.NoInline {
		return nil
	}
	msg, th := s.MessagePrefixes, s.ThinkingPrefixes
	if msg == nil {
		msg = DefaultMessagePrefixes
	}
	if th == nil {
		th = DefaultThinkingPrefixes
	}
	var ms []marker
	for _, p := range msg {
		ms = append(ms, marker{p, KindMessage})
	}
	for _, p := range th {
		ms = append(ms, marker{p, KindThinking})
	}
	slices.SortStableFunc(ms, func(a, b marker) int { return len(b.text) - len(a.text) })
	return ms
}

// maxBlock returns the block limit in effect.
func (s Syntax) maxBlock() int {
	if s.MaxBlockBytes > 0 {
		return s.MaxBlockBytes
	}
	return DefaultMaxBlockBytes
}

// Commands returns the relay commands in text, read as one whole stream with the default
// syntax: the last line counts even without a line break.
func Commands(text string) []Command {
	return CommandsWith(Syntax{}, text)
}

// CommandsWith is Commands with the given syntax.
func CommandsWith(s Syntax, text string) []Command {
	p := NewParser(s)
	out := p.Feed([]byte(text))
	if text != "" && text[len(text)-1] != '\n' {
		out = append(out, p.Feed([]byte{'\n'})...)
	}
	return append(out, p.Flush()...)
}
