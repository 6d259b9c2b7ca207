package parser

import (
	"encoding/json"
	"errors"
	"fmt"
	"strings"
)

// Command is a message an agent addressed to another member by name, written either as
// a line `@relay:NAME message` or as a block `[[RELAY]]{"to": "NAME", "text": "..."}[[/RELAY]]`.
type Command struct {
	// To is the addressee's name.
	To string
	// Text is the message.
	Text string
	// Err is set, with To and Text possibly empty, when the command was malformed (bad
	// JSON, no addressee, no text, an unterminated block). Such a command must not be
	// delivered; the caller reports it.
	Err error
}

// Markers of relay commands.
const (
	lineMarker  = "@relay:"
	blockOpen   = "[[RELAY]]"
	blockClose  = "[[/RELAY]]"
	maxBlockLen = 64 << 10
)

// ErrUnterminated is the Err of a [[RELAY]] block with no [[/RELAY]].
var ErrUnterminated = errors.New("relay block has no [[/RELAY]]")

// Commands returns the relay commands in text, in the order they appear. A block's JSON
// may be reflowed over several rows by the program that printed it: rows are joined with
// one space after their indentation is removed.
func Commands(text string) []Command {
	var out []Command
	midLine := false // text starts inside a line, after a block
	for len(text) > 0 {
		nl := strings.IndexByte(text, '\n')
		line := text
		if nl >= 0 {
			line = text[:nl]
		}
		if at := strings.Index(line, blockOpen); at >= 0 {
			rest := text[at+len(blockOpen):]
			end := strings.Index(rest, blockClose)
			if end < 0 || end > maxBlockLen {
				out = append(out, Command{Err: ErrUnterminated})
				text, midLine = advance(text, nl), false
				continue
			}
			out = append(out, parseBlock(rest[:end]))
			text, midLine = rest[end+len(blockClose):], true
			continue
		}
		if c, ok := parseLine(line); ok && !midLine {
			out = append(out, c)
		}
		text, midLine = advance(text, nl), false
	}
	return out
}

// advance returns text after the line ending at nl (or "" for the last line).
func advance(text string, nl int) string {
	if nl < 0 {
		return ""
	}
	return text[nl+1:]
}

// parseLine parses `@relay:NAME message`, allowing indentation and a Markdown bullet or
// quote before the marker.
func parseLine(line string) (Command, bool) {
	s := strings.TrimSpace(line)
	s = strings.TrimLeft(s, "-*>•● ")
	if !strings.HasPrefix(s, lineMarker) {
		return Command{}, false
	}
	s = s[len(lineMarker):]
	name, msg, _ := strings.Cut(s, " ")
	name = strings.TrimRight(name, ":,")
	msg = strings.TrimSpace(msg)
	switch {
	case name == "":
		return Command{Text: msg, Err: errors.New("@relay: command has no name")}, true
	case msg == "":
		return Command{To: name, Err: fmt.Errorf("@relay:%s command has no message", name)}, true
	}
	return Command{To: name, Text: msg}, true
}

// parseBlock parses the JSON between [[RELAY]] and [[/RELAY]].
func parseBlock(body string) Command {
	rows := strings.Split(body, "\n")
	for i, r := range rows {
		rows[i] = strings.TrimSpace(r)
	}
	joined := strings.TrimSpace(strings.Join(rows, " "))
	var v struct {
		To   string `json:"to"`
		Text string `json:"text"`
	}
	if err := json.Unmarshal([]byte(joined), &v); err != nil {
		return Command{Err: fmt.Errorf("relay block: bad JSON: %w", err)}
	}
	v.To = strings.TrimSpace(v.To)
	switch {
	case v.To == "":
		return Command{Text: v.Text, Err: errors.New(`relay block: no "to"`)}
	case strings.TrimSpace(v.Text) == "":
		return Command{To: v.To, Err: fmt.Errorf(`relay block to %q: no "text"`, v.To)}
	}
	return Command{To: v.To, Text: v.Text}
}
