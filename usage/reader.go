package usage

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"strings"
	"syscall"
	"time"
)

// Format names the file layout a Reader reads: the CLI that writes it.
type Format string

// The formats a Reader knows.
const (
	// Claude is Claude Code's transcript (the transcript_path its hooks name): JSON
	// lines, each assistant entry carrying message.usage and message.model; one
	// message's content blocks are written as several entries with the same
	// requestId and message id, each repeating the usage.
	Claude Format = "claude"
	// Codex is Codex's rollout file (sessions/YYYY/MM/DD/rollout-…-THREAD.jsonl):
	// event_msg entries of type token_count carry the thread's running total;
	// turn_context entries name the model.
	Codex Format = "codex"
	// Gemini is Gemini CLI's chat file (transcript_path of its AfterAgent hook): a
	// message of type "gemini" is written again with "tokens" once its usage arrives;
	// a file ending in .json is the older whole-object form.
	Gemini Format = "gemini"
	// Qwen is Qwen Code's chat file (transcript_path of its Stop hook): assistant
	// records with usageMetadata (Gemini's counts) and model.
	Qwen Format = "qwen"
	// Pi is pi's session file: message entries whose assistant message carries usage
	// (with pi's own cost) and model.
	Pi Format = "pi"
)

// ParseFormat returns the Format named s, false when there is none.
func ParseFormat(s string) (Format, bool) {
	switch f := Format(s); f {
	case Claude, Codex, Gemini, Qwen, Pi:
		return f, true
	}
	return "", false
}

// maxRead bounds one Read's bytes; the rest is read by the next Read.
const maxRead = 64 << 20

// Reader reads the usage a CLI records in one file, incrementally. It has one owner:
// its methods must not be called concurrently.
type Reader struct {
	format Format
	path   string
	since  time.Time

	off   int64             // just past the last whole line read
	seen  map[string]Tokens // per request id: the most counted so far
	model string            // Codex: the model of the current turn
	total Tokens            // Codex: the thread's running total last seen
	n     int               // Codex: token_count events read, for ids
	// unfinished is the size and time of the file when the last Read found no whole
	// line after off: read again only once it changed.
	unfinished struct {
		size int64
		mod  time.Time
	}
}

// NewReader returns a Reader of the file at path in format f. Entries stamped before
// since (a conversation resumed from an earlier run) are not counted; zero counts all.
func NewReader(f Format, path string, since time.Time) *Reader {
	return &Reader{format: f, path: path, since: since, seen: map[string]Tokens{}}
}

// Path is the file the Reader reads.
func (r *Reader) Path() string { return r.path }

// Format is the layout the Reader reads.
func (r *Reader) Format() Format { return r.format }

// Read returns the usage written since the last Read: per request, only the tokens not
// counted before. A last line without its newline (the CLI is still writing it) is left
// for the next Read. A missing or unreadable file is an error that loses nothing: the
// next Read tries again from where this one started.
func (r *Reader) Read() ([]Request, error) {
	// The path comes from a pane's hook: a FIFO there must not hold the caller (the
	// hub's loop) in open(2) until someone writes to it. O_NONBLOCK makes that open
	// return at once; the check below then refuses it. A regular file ignores the flag.
	f, err := os.OpenFile(r.path, os.O_RDONLY|syscall.O_NONBLOCK, 0)
	if err != nil {
		return nil, fmt.Errorf("usage: read %s: %w", r.format, err)
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return nil, fmt.Errorf("usage: read %s: %w", r.format, err)
	}
	if !st.Mode().IsRegular() {
		return nil, fmt.Errorf("usage: read %s: %s is not a regular file", r.format, r.path)
	}
	var out collected
	if r.format == Gemini && strings.HasSuffix(r.path, ".json") {
		b, err := io.ReadAll(io.LimitReader(f, maxRead))
		if err != nil {
			return nil, fmt.Errorf("usage: read %s: %w", r.format, err)
		}
		var whole struct {
			Messages []json.RawMessage `json:"messages"`
		}
		if json.Unmarshal(b, &whole) == nil {
			for _, m := range whole.Messages {
				r.geminiMessage(m, &out)
			}
		}
		return out.reqs, nil
	}
	if r.unfinished.size > 0 && st.Size() == r.unfinished.size && st.ModTime().Equal(r.unfinished.mod) {
		return nil, nil // the same unfinished line as last time: nothing to read again
	}
	r.unfinished.size = 0
	if st.Size() < r.off {
		// Rewritten shorter: read it again; the ids and running totals already counted
		// keep it from being counted twice.
		r.off = 0
	}
	if _, err := f.Seek(r.off, io.SeekStart); err != nil {
		return nil, fmt.Errorf("usage: read %s: %w", r.format, err)
	}
	b, err := io.ReadAll(io.LimitReader(f, maxRead))
	if err != nil {
		return nil, fmt.Errorf("usage: read %s: %w", r.format, err)
	}
	end := bytes.LastIndexByte(b, '\n')
	if end < 0 {
		if len(b) == maxRead { // one line longer than a Read: no usage line is, skip it
			r.off += int64(len(b))
		} else {
			r.unfinished.size, r.unfinished.mod = st.Size(), st.ModTime()
		}
		return nil, nil
	}
	for _, l := range bytes.Split(b[:end], []byte("\n")) {
		r.line(l, &out)
	}
	r.off += int64(end + 1)
	return out.reqs, nil
}

// collected gathers one Read's requests, one per id.
type collected struct {
	reqs []Request
	at   map[string]int
}

// add counts t for request id of model (the part of it not counted before), unless the
// entry was stamped before the reader's start.
func (r *Reader) add(out *collected, id, model, stamp string, t Tokens, cost *float64) {
	if id == "" {
		return
	}
	delta, most := grow(r.seen[id], t)
	r.seen[id] = most
	if delta.IsZero() || r.before(stamp) {
		return
	}
	if out.at == nil {
		out.at = map[string]int{}
	}
	if i, ok := out.at[id]; ok {
		q := &out.reqs[i]
		q.Tokens = q.Tokens.Add(delta)
		if model != "" {
			q.Model = model
		}
		if cost != nil {
			q.CostUSD = cost
		}
		return
	}
	out.at[id] = len(out.reqs)
	out.reqs = append(out.reqs, Request{ID: id, Model: model, Tokens: delta, CostUSD: cost})
}

// before reports whether an entry's timestamp is earlier than the reader's start.
func (r *Reader) before(stamp string) bool {
	if r.since.IsZero() || stamp == "" {
		return false
	}
	t, err := time.Parse(time.RFC3339Nano, stamp)
	return err == nil && t.Before(r.since)
}

// line reads one whole line of the file; a line that is no JSON object is skipped.
func (r *Reader) line(l []byte, out *collected) {
	l = bytes.TrimSpace(l)
	if len(l) == 0 || l[0] != '{' {
		return
	}
	switch r.format {
	case Claude:
		r.claude(l, out)
	case Codex:
		r.codex(l, out)
	case Gemini:
		r.gemini(l, out)
	case Qwen:
		r.qwen(l, out)
	case Pi:
		r.pi(l, out)
	}
}

// nonneg returns n, or 0 for a negative count (a corrupt file is not a refund).
func nonneg(n int64) int64 { return max(n, 0) }
