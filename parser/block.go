package parser

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
)

// blockText adds a row of block content; a [[/RELAY]] on it ends the block, and what
// follows the marker is read as a line of its own.
func (p *Parser) blockText(l []byte) {
	end := bytes.Index(l, []byte(blockClose))
	seg := l
	if end >= 0 {
		seg = l[:end]
	}
	p.blockRaw += len(seg)
	if end < 0 {
		p.blockRaw++ // the line break
	}
	if p.blockRaw > p.maxBlock {
		p.blockTooLarge()
		if end >= 0 {
			p.lineText(l[end+len(blockClose):])
		}
		return
	}
	// A program may reflow the JSON over rows: rows are joined with one space after
	// their indentation and trailing white space are removed.
	if row := bytes.TrimSpace(seg); len(row) > 0 {
		if len(p.block) > 0 {
			p.block = append(p.block, ' ')
		}
		p.block = append(p.block, row...)
	}
	if end < 0 {
		return
	}
	p.emit(parseBlock(p.block))
	p.inBlock, p.block, p.blockRaw = false, p.block[:0], 0
	p.lineText(l[end+len(blockClose):])
}

// blockTooLarge reports the open block as too large and leaves it.
func (p *Parser) blockTooLarge() {
	p.emit(Command{Err: fmt.Errorf("%w (%d bytes)", ErrBlockTooLarge, p.maxBlock)})
	p.inBlock, p.block, p.blockRaw = false, p.block[:0], 0
}

// parseBlock reads the JSON object of a block.
func parseBlock(js []byte) Command {
	var v struct {
		To     *string         `json:"to"`
		Type   *string         `json:"type"`
		Body   *string         `json:"body"`
		Text   *string         `json:"text"`
		Data   json.RawMessage `json:"data"`
		Thread *string         `json:"thread"`
	}
	if err := json.Unmarshal(js, &v); err != nil {
		return Command{Err: fmt.Errorf("relay block: bad JSON: %w", err)}
	}
	var c Command
	switch {
	case v.Body != nil:
		c.Body = *v.Body
	case v.Text != nil:
		c.Body = *v.Text
	}
	if v.Thread != nil {
		c.Thread = *v.Thread
	}
	if v.Type != nil {
		c.Kind = Kind(*v.Type)
	}
	if v.To != nil {
		c.To = *v.To
	}
	if len(v.Data) > 0 && string(v.Data) != "null" {
		if v.Data[0] != '{' {
			c.Err = errors.New(`relay block: "data" must be an object`)
			return c
		}
		var b bytes.Buffer
		_ = json.Compact(&b, v.Data) // valid: Unmarshal checked it
		c.Data = b.Bytes()
	}
	switch {
	case c.To == "":
		c.Err = errors.New(`relay block: no "to"`)
	case v.Type == nil:
		c.Err = fmt.Errorf(`relay block to %q: no "type"`, c.To)
	case c.Kind != KindMessage && c.Kind != KindAction && c.Kind != KindThinking && c.Kind != KindState:
		c.Err = fmt.Errorf(`relay block to %q: unknown "type" %q (message, thinking, state or action)`, c.To, c.Kind)
	}
	return c
}
