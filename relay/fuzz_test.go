package relay

// Strategy: FuzzRelay drives a relay with random event sequences over three panes whose
// screens and titles the fuzzer writes, and checks the invariants no sequence may break:
// nothing is written to a pane after it exited, a carriage return only follows its own
// delivery's typing, a delivery is typed at most once, a group never spends more than
// its budget, and a requested wake-up always lies in the future. With messages sent in
// every mode, reminders and drafts the host reports: no keys come between a delivery's
// typing and its submit, a draft typed back is never submitted, and nothing follows
// clear keys, nor clear keys interrupt keys, closer than SubmitDelay unless the pane
// printed between (runsInto).

import (
	"testing"
)

// scriptScreen is a Screen the fuzzer writes.
type scriptScreen struct {
	title string
	alt   bool
	rows  []string
	hist  []string
}

func (s *scriptScreen) Read(from int64) Reading { return readParts(s, from) }
func (s *scriptScreen) Info() Info {
	return Info{Title: s.title, AltScreen: s.alt, BracketedPaste: len(s.rows)%2 == 0}
}
func (s *scriptScreen) ScreenTop() int64     { return int64(len(s.hist)) }
func (s *scriptScreen) ScreenText() []string { return s.rows }
func (s *scriptScreen) TextFrom(n int64) []Line {
	all := append(append([]string(nil), s.hist...), s.rows...)
	var out []Line
	for i := max(n, 0); i < int64(len(all)); i++ {
		out = append(out, Line{N: i, Text: all[i]})
	}
	return out
}

var fuzzRows = []string{"", "> ", "> hello", "● answer one", "● answer two", "  more", "─────", "Do you want to proceed?", "x"}
var fuzzTitles = []string{"", "idle", "busy"}

func FuzzRelay(f *testing.F) {
	f.Add([]byte{0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13})
	f.Add([]byte{3, 1, 2, 1, 0, 3, 4, 4, 1, 9, 9, 9, 9, 2, 4, 9, 9, 9})
	f.Fuzz(fuzzRelayBody)
}

// fuzzRelayBody is one FuzzRelay run.
func fuzzRelayBody(t *testing.T, ops []byte) {
	d := newFuzzDriver()
	r := d.r
	exited := map[int]bool{}
	typedDeliv := map[int]int{} // delivery → pane
	awaiting := map[int]int{}   // pane → delivery typed, not yet submitted
	restored := map[int]bool{}  // pane → a draft was typed back since the last delivery
	keys := map[int]written{}   // pane → control keys written into it, until it printed
	check := func(acts []Action) {
		for _, a := range acts {
			if exited[a.Target()] {
				t.Fatalf("write to exited pane %d: %#v", a.Target(), a)
			}
			if err := runsInto(keys, a, d.now, r.Config().SubmitDelay); err != "" {
				t.Fatal(err)
			}
			switch a := a.(type) {
			case Type:
				parts := a.Parts
				if parts == nil {
					parts = []int{a.Delivery}
				}
				for _, d := range parts {
					if _, dup := typedDeliv[d]; dup {
						t.Fatalf("delivery %d typed twice", d)
					}
					typedDeliv[d] = a.Pane
				}
				awaiting[a.Pane], restored[a.Pane] = a.Delivery, false
			case Submit:
				if p, ok := typedDeliv[a.Delivery]; !ok || p != a.Pane {
					t.Fatalf("submit of delivery %d to %d without its typing", a.Delivery, a.Pane)
				}
				if restored[a.Pane] {
					t.Fatalf("carriage return into %d after its draft was typed back", a.Pane)
				}
				delete(awaiting, a.Pane)
			case Keys:
				if d, ok := awaiting[a.Pane]; ok {
					t.Fatalf("%s keys into %d between delivery %d's typing and its submit", a.Purpose, a.Pane, d)
				}
				if a.Purpose == PutBack {
					restored[a.Pane] = true
				}
			}
		}
		for _, g := range r.Status().Groups {
			if g.Used > g.Budget {
				t.Fatalf("group %v over budget", g)
			}
		}
		if at, ok := r.NextWake(); ok && !at.After(d.now) {
			t.Fatalf("wake-up %v not after now %v", at, d.now)
		}
	}
	for i := 0; i+1 < len(ops); i += 2 {
		d.apply(ops[i], int(ops[i+1]), check,
			func(id int) { exited[id] = true },
			func(id int) { delete(keys, id) }) // it printed: it read what was written before
	}
}
