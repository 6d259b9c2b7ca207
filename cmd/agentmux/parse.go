package main

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/agentmux/agentmux/parser"
)

// parseCommand is the subcommand that runs the relay's command parser on a file or
// stdin (agentmux parse), for people debugging an agent's output and conformance suites.
const parseCommand = "parse"

// parseSynopsis and parseHelp are agentmux parse's usage and help (commandHelp lists
// its flags).
const parseSynopsis = `agentmux parse [--prefix P]... [--thinking-prefix P]... [--no-inline] [--no-block]
  [--max-block-bytes N] [FILE]
agentmux parse --jsonl [flags] < cases.jsonl`

const parseHelp = `Reads FILE (stdin if none, or -) as one stream of agent output and prints each relay command
found, in order, as one JSON object a line: {"to", "kind", "body"} and "thread" and
"data" when present. Malformed blocks go to stderr with the reason. The end of the
input ends its last line.`

// parseCommandSpec is agentmux parse in the command table; its errors start "parse:".
func parseCommandSpec() command {
	return command{name: parseCommand, short: "the relay commands in agent output, as JSON", errPrefix: "parse", maxArgs: -1, synopsis: parseSynopsis, help: parseHelp, flags: []flagSpec{
		listFlag("prefix", "P", "an inline message marker (repeat for more); replaces @relay: and >>relay:", func(a *parseCmdArgs) *[]string { return &a.prefixes }),
		listFlag("thinking-prefix", "P", "an inline thinking marker (repeat); replaces @thinking: and >>thinking:", func(a *parseCmdArgs) *[]string { return &a.thinkingPrefixes }),
		boolFlag("no-inline", "no inline commands", func(a *parseCmdArgs) *bool { return &a.noInline }),
		boolFlag("no-block", "no [[RELAY]] blocks", func(a *parseCmdArgs) *bool { return &a.noBlock }),
		intFlag("max-block-bytes", "N", fmt.Sprintf("the largest block (default %d)", parser.DefaultMaxBlockBytes), func(a *parseCmdArgs) *int { return &a.maxBlockBytes }),
		boolFlag("jsonl", `each stdin line is a case {"input": "..."} or {"chunks": [...],
"flush": true} with optional "options": {"prefix", "thinkingPrefix",
"enableInline", "enableBlock", "maxBlockBytes"}; each stdout line is
{"commands": [...]} (and "malformed": [reasons]) or {"error": "..."}`, func(a *parseCmdArgs) *bool { return &a.jsonl }),
	}, exec: func(_ context.Context, a clientArgs, sio stdio) (int, error) {
		return runParse(a, sio.in, sio.out, sio.err)
	}}
}

// parseCmdArgs are parse's: its markers, what it leaves out, its largest block, and
// --jsonl.
type parseCmdArgs struct {
	prefixes, thinkingPrefixes []string
	noInline, noBlock, jsonl   bool
	maxBlockBytes              int
}

// jsonCommand is a command as agentmux parse prints it.
type jsonCommand struct {
	To     string          `json:"to"`
	Kind   parser.Kind     `json:"kind"`
	Body   string          `json:"body"`
	Thread string          `json:"thread,omitempty"`
	Data   json.RawMessage `json:"data,omitempty"`
}

// runParse is agentmux parse, its flags parsed.
func runParse(a clientArgs, stdin io.Reader, stdout, stderr io.Writer) (int, error) {
	o := own[parseCmdArgs](a)
	syn := parser.Syntax{NoInline: o.noInline, NoBlock: o.noBlock, MaxBlockBytes: parser.DefaultMaxBlockBytes,
		MessagePrefixes: o.prefixes, ThinkingPrefixes: o.thinkingPrefixes}
	if a.given["max-block-bytes"] {
		syn.MaxBlockBytes = o.maxBlockBytes
	}
	files, jsonl := a.operands, o.jsonl
	if syn.MaxBlockBytes <= 0 {
		return 2, usagef("parse: --max-block-bytes must be positive, not %d", syn.MaxBlockBytes)
	}
	if err := syn.Validate(); err != nil {
		return 2, usagef("parse: %v", err)
	}
	switch {
	case len(files) > 1:
		return 2, usagef("parse: one FILE at most, got %d", len(files))
	case jsonl && len(files) > 0:
		return 2, usagef("parse: --jsonl reads its cases from stdin, not %s", files[0])
	}
	out := bufio.NewWriter(stdout)
	defer out.Flush()
	enc := json.NewEncoder(out)
	enc.SetEscapeHTML(false)
	if jsonl {
		return parseCases(syn, stdin, enc)
	}
	in := stdin
	if len(files) == 1 && files[0] != "-" { // "-": stdin, as for most tools
		f, err := os.Open(files[0])
		if err != nil {
			return 2, fmt.Errorf("parse: %w", err)
		}
		defer f.Close()
		in = f
	}
	return parseStream(syn, in, enc, stderr)
}

// parseStream prints the commands of one stream as it is read.
func parseStream(syn parser.Syntax, in io.Reader, enc *json.Encoder, stderr io.Writer) (int, error) {
	p := parser.NewParser(syn)
	print := func(cs []parser.Command) error {
		for _, c := range cs {
			if c.Err != nil {
				fmt.Fprintf(stderr, "agentmux parse: malformed: %v\n", c.Err)
				continue
			}
			if err := enc.Encode(toJSON(c)); err != nil {
				return err
			}
		}
		return nil
	}
	buf := make([]byte, 64<<10)
	last := byte('\n')
	for {
		n, err := in.Read(buf)
		if n > 0 {
			last = buf[n-1]
			if perr := print(p.Feed(buf[:n])); perr != nil {
				return 1, perr
			}
		}
		if err == io.EOF {
			break
		}
		if err != nil {
			return 1, fmt.Errorf("parse: read: %w", err)
		}
	}
	if last != '\n' {
		if err := print(p.Feed([]byte{'\n'})); err != nil {
			return 1, err
		}
	}
	if err := print(p.Flush()); err != nil {
		return 1, err
	}
	return 0, nil
}

// jsonCase is one line of agent parse --jsonl.
type jsonCase struct {
	Input   *string  `json:"input"`
	Chunks  []string `json:"chunks"`
	Flush   bool     `json:"flush"`
	Options *struct {
		Prefix         *string `json:"prefix"`
		ThinkingPrefix *string `json:"thinkingPrefix"`
		EnableInline   *bool   `json:"enableInline"`
		EnableBlock    *bool   `json:"enableBlock"`
		MaxBlockBytes  *int    `json:"maxBlockBytes"`
	} `json:"options"`
}

// jsonResult is the answer to one case.
type jsonResult struct {
	Commands  []jsonCommand `json:"commands"`
	Malformed []string      `json:"malformed,omitempty"`
}

// parseCases answers each case line with its commands, or an error, and goes on.
func parseCases(base parser.Syntax, stdin io.Reader, enc *json.Encoder) (int, error) {
	sc := bufio.NewScanner(stdin)
	sc.Buffer(nil, 64<<20)
	for sc.Scan() {
		res, err := parseCase(base, sc.Bytes())
		var v any = res
		if err != nil {
			v = map[string]string{"error": err.Error()}
		}
		if err := enc.Encode(v); err != nil {
			return 1, err
		}
	}
	if err := sc.Err(); err != nil {
		return 1, fmt.Errorf("parse: read cases: %w", err)
	}
	return 0, nil
}

// parseCase runs one case.
func parseCase(syn parser.Syntax, line []byte) (jsonResult, error) {
	var c jsonCase
	dec := json.NewDecoder(strings.NewReader(string(line)))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&c); err != nil {
		return jsonResult{}, fmt.Errorf("bad case: %v", err)
	}
	switch {
	case c.Input != nil && c.Chunks != nil:
		return jsonResult{}, errors.New(`bad case: "input" and "chunks" both given`)
	case c.Input == nil && c.Chunks == nil:
		return jsonResult{}, errors.New(`bad case: neither "input" nor "chunks"`)
	}
	if o := c.Options; o != nil {
		if o.Prefix != nil {
			syn.MessagePrefixes = []string{*o.Prefix}
		}
		if o.ThinkingPrefix != nil {
			syn.ThinkingPrefixes = []string{*o.ThinkingPrefix}
		}
		if o.EnableInline != nil {
			syn.NoInline = !*o.EnableInline
		}
		if o.EnableBlock != nil {
			syn.NoBlock = !*o.EnableBlock
		}
		if o.MaxBlockBytes != nil {
			if *o.MaxBlockBytes <= 0 {
				return jsonResult{}, fmt.Errorf("bad case: maxBlockBytes must be positive, not %d", *o.MaxBlockBytes)
			}
			syn.MaxBlockBytes = *o.MaxBlockBytes
		}
	}
	if err := syn.Validate(); err != nil {
		return jsonResult{}, fmt.Errorf("bad case: %v", err)
	}
	var cmds []parser.Command
	if c.Input != nil {
		cmds = parser.CommandsWith(syn, *c.Input)
	} else {
		p := parser.NewParser(syn)
		for _, ch := range c.Chunks {
			cmds = append(cmds, p.Feed([]byte(ch))...)
		}
		if c.Flush {
			cmds = append(cmds, p.Flush()...)
		}
	}
	res := jsonResult{Commands: []jsonCommand{}}
	for _, cmd := range cmds {
		if cmd.Err != nil {
			res.Malformed = append(res.Malformed, cmd.Err.Error())
			continue
		}
		res.Commands = append(res.Commands, toJSON(cmd))
	}
	return res, nil
}

// toJSON returns a command as agentmux parse prints it.
func toJSON(c parser.Command) jsonCommand {
	return jsonCommand{To: c.To, Kind: c.Kind, Body: c.Body, Thread: c.Thread, Data: c.Data}
}
