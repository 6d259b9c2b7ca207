package keys

// The decoder as a stream: events must not depend on how the input is cut into reads
// (pastes, UTF-8 characters and escape sequences split across Feeds), incomplete
// sequences wait for more bytes or for Flush, and no input, however malformed, makes
// the decoder hold more than its bounds.

import (
	"bytes"
	"strings"
	"testing"
)

// feedSplit feeds in in pieces of n bytes and returns the events (no Flush).
func feedSplit(d *Decoder, in string, n int) []Event {
	var evs []Event
	for len(in) > 0 {
		k := min(n, len(in))
		evs = append(evs, d.Feed([]byte(in[:k]))...)
		in = in[k:]
	}
	return evs
}

// completeStream holds only complete, unambiguous sequences: any split must decode it
// the same way.
const completeStream = "ab\x01\r\x1b[A\x1bOP\x1b[1;5C\x1b[3;2~\x1b[97;5u\x1b[13;2u" +
	"\x1b[200~pasted \x1b[A text\x1b[201~é世🙂\x1b[<0;10;5M\x1b[<0;10;5m\x1b[I" +
	"\x1b]11;rgb:1c1c/1c1c/1c1c\x1b\\\x1b[?62;22c\x1b[27;5;97~\x1b[M !!\x1bx\x1b\x1b[Bz"

func TestSplitInvariance(t *testing.T) {
	var whole Decoder
	want := describeAll(whole.Feed([]byte(completeStream)))
	if whole.Pending() {
		t.Fatalf("complete stream left pending bytes")
	}
	for n := 1; n <= 7; n++ {
		var d Decoder
		if got := describeAll(feedSplit(&d, completeStream, n)); got != want {
			t.Errorf("split into %d-byte reads:\n got  %s\n want %s", n, got, want)
		}
		if d.Pending() || d.held() != 0 {
			t.Errorf("split into %d-byte reads: %d bytes still held", n, d.held())
		}
	}
}

func TestPendingAndFlush(t *testing.T) {
	var d Decoder
	if evs := d.Feed([]byte("\x1b")); len(evs) != 0 || !d.Pending() {
		t.Fatalf("lone ESC: events %s, pending %v", describeAll(evs), d.Pending())
	}
	if got := describeAll(d.Feed([]byte("[A"))); got != "key up" {
		t.Fatalf("ESC then [A: %s", got)
	}
	// A lone ESC flushed after the timeout is the Escape key; what follows is new.
	d.Feed([]byte("\x1b"))
	if got := describeAll(d.Flush()); got != "key escape" || d.Pending() {
		t.Fatalf("flushed ESC: %s (pending %v)", got, d.Pending())
	}
	if got := describeAll(d.Feed([]byte("x"))); got != "key x" {
		t.Fatalf("after flush: %s", got)
	}
	// Without a flush in between, ESC then x is Alt+x.
	d.Feed([]byte("\x1b"))
	if got := describeAll(d.Feed([]byte("x"))); got != "key alt+x" {
		t.Fatalf("ESC, x: %s", got)
	}
	// An unfinished CSI flushed is Alt+[ and its bytes.
	d.Feed([]byte("\x1b[1;5"))
	if !d.Pending() {
		t.Fatal("unfinished CSI not pending")
	}
	if got := describeAll(d.Flush()); got != "key alt+[ | key 1 | key ; | key 5" {
		t.Fatalf("flushed CSI: %s", got)
	}
	if d.Flush() != nil || d.Pending() {
		t.Fatal("second flush produced events")
	}
}

func TestUTF8SplitAcrossFeeds(t *testing.T) {
	for _, s := range []string{"é", "世", "🙂", "a🙂b"} {
		var d Decoder
		var evs []Event
		for i := range len(s) {
			evs = append(evs, d.Feed([]byte{s[i]})...)
		}
		want := []string{}
		for _, r := range s {
			want = append(want, "key "+string(r))
		}
		if got := describeAll(evs); got != strings.Join(want, " | ") {
			t.Errorf("%q byte by byte: %s", s, got)
		}
	}
	var d Decoder
	d.Feed([]byte("\xf0\x9f"))
	if !d.Pending() {
		t.Fatal("half a rune not pending")
	}
	evs := d.Flush()
	if len(evs) != 1 || evs[0].(Key).Code != KeyUnknown || !bytes.Equal(evs[0].(Key).Raw, []byte("\xf0\x9f")) {
		t.Fatalf("flushed half rune: %s", describeAll(evs))
	}
}

func TestPasteAcrossFeeds(t *testing.T) {
	text := "line one\nline two \x1b[A with \x1b[20 a half marker and \x03 a control\n" + strings.Repeat("long ", 2000)
	in := "k\x1b[200~" + text + "\x1b[201~j"
	for _, n := range []int{1, 2, 5, 6, 7, 4096} {
		var d Decoder
		var evs []Event
		for len(in) > 0 {
			k := min(n, len(in))
			evs = append(evs, d.Feed([]byte(in[:k]))...)
			in = in[k:]
			if d.paste != nil {
				// Inside the paste nothing waits for a timeout, and a flush (as after
				// a pause in the terminal's writes) must not break it.
				if d.Pending() {
					t.Fatalf("%d-byte reads: Pending inside a paste", n)
				}
				if evs := d.Flush(); evs != nil {
					t.Fatalf("%d-byte reads: Flush inside a paste gave %s", n, describeAll(evs))
				}
			}
		}
		in = "k\x1b[200~" + text + "\x1b[201~j"
		if len(evs) != 3 {
			t.Fatalf("%d-byte reads: %d events: %.200s", n, len(evs), describeAll(evs))
		}
		p, ok := evs[1].(Paste)
		if !ok || p.Text != text || string(p.Raw) != "\x1b[200~"+text+"\x1b[201~" {
			t.Fatalf("%d-byte reads: paste %.100q", n, describe(evs[1]))
		}
		if describe(evs[0]) != "key k" || describe(evs[2]) != "key j" {
			t.Fatalf("%d-byte reads: around the paste: %s, %s", n, describe(evs[0]), describe(evs[2]))
		}
	}
}

func TestPasteLargerThanMax(t *testing.T) {
	d := Decoder{MaxPaste: 100}
	text := strings.Repeat("0123456789", 35)
	evs := feedSplit(&d, "\x1b[200~"+text+"\x1b[201~x", 33)
	var got strings.Builder
	var raw []byte
	pastes := 0
	for _, ev := range evs {
		raw = append(raw, rawOf(ev)...)
		if p, ok := ev.(Paste); ok {
			pastes++
			if len(p.Text) > 100 {
				t.Fatalf("paste event of %d bytes, max 100", len(p.Text))
			}
			got.WriteString(p.Text)
		}
	}
	if got.String() != text || pastes != 4 {
		t.Fatalf("%d paste events joined give %q", pastes, got.String())
	}
	if string(raw) != "\x1b[200~"+text+"\x1b[201~x" {
		t.Fatalf("raw bytes lost: %q", raw)
	}
}

func TestBoundedOnGarbage(t *testing.T) {
	cases := []struct{ name, start, filler, end string }{
		{"endless CSI", "\x1b[", "1;", "u"},
		{"endless OSC", "\x1b]11;", "x", "\a"},
		{"endless DCS", "\x1bP1$r", "y", "\x1b\\"},
		{"endless APC", "\x1b_G", "z", "\x1b\\"},
	}
	for _, c := range cases {
		var d Decoder
		total := 0
		var raw []byte
		collect := func(evs []Event) {
			for _, ev := range evs {
				raw = append(raw, rawOf(ev)...)
				if _, ok := ev.(Key); ok {
					t.Fatalf("%s: part of the sequence decoded as a key: %s", c.name, describe(ev))
				}
			}
		}
		collect(d.Feed([]byte(c.start)))
		total += len(c.start)
		chunk := []byte(strings.Repeat(c.filler, 1000))
		for range 1000 {
			collect(d.Feed(chunk))
			total += len(chunk)
			if d.held() > maxString+len(chunk) || cap(d.buf) > 8*maxString+2*len(chunk) {
				t.Fatalf("%s: decoder holds %d bytes (cap %d)", c.name, d.held(), cap(d.buf))
			}
		}
		collect(d.Feed([]byte(c.end)))
		evs := d.Feed([]byte("a"))
		if describeAll(evs) != "key a" {
			t.Fatalf("%s: after the sequence ended: %s", c.name, describeAll(evs))
		}
		if len(raw) != total+len(c.end) {
			t.Fatalf("%s: %d of %d bytes accounted for", c.name, len(raw), total+len(c.end))
		}
	}
}
