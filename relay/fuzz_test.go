package relay

// Strategy: FuzzRelay drives a relay with random event sequences over three panes whose
// screens and titles the fuzzer writes, and checks the invariants no sequence may break:
// nothing is written to a pane after it exited, a carriage return only follows its own
// delivery's typing, a delivery is typed at most once, a group never spends more than
// its budget, and a requested wake-up always lies in the future.

import (
	"testing"
	"time"
)

// scriptScreen is a Screen the fuzzer writes.
type scriptScreen struct {
	title string
	alt   bool
	rows  []string
	hist  []string
}

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
	r := New(Config{Turns: 3})
	now := t0
	scr := map[int]*scriptScreen{}
	for id := 1; id <= 3; id++ {
		scr[id] = &scriptScreen{rows: []string{"> "}}
		r.Handle(Open{Pane: id, Name: "p", Profile: testProfile(), Screen: scr[id]}, now)
	}
	exited := map[int]bool{}
	typedDeliv := map[int]int{} // delivery → pane
	check := func(acts []Action) {
		for _, a := range acts {
			if exited[a.Target()] {
				t.Fatalf("write to exited pane %d: %#v", a.Target(), a)
			}
			switch a := a.(type) {
			case Type:
				if _, dup := typedDeliv[a.Delivery]; dup {
					t.Fatalf("delivery %d typed twice", a.Delivery)
				}
				typedDeliv[a.Delivery] = a.Pane
			case Submit:
				if p, ok := typedDeliv[a.Delivery]; !ok || p != a.Pane {
					t.Fatalf("submit of delivery %d to %d without its typing", a.Delivery, a.Pane)
				}
			}
		}
		for _, g := range r.Status().Groups {
			if g.Used > g.Budget {
				t.Fatalf("group %v over budget", g)
			}
		}
		if at, ok := r.NextWake(); ok && !at.After(now) {
			t.Fatalf("wake-up %v not after now %v", at, now)
		}
	}
	for i := 0; i+1 < len(ops); i += 2 {
		op, arg := ops[i]%12, int(ops[i+1])
		id := arg%3 + 1
		s := scr[id]
		switch op {
		case 0:
			check(r.Handle(Link{Pane: id, With: (arg/3)%3 + 1}, now))
		case 1:
			check(r.Handle(LinkAll{Panes: []int{1, 2, 3}}, now))
		case 2:
			check(r.Handle(Unlink{Pane: id}, now))
		case 3:
			exited[id] = true
			check(r.Handle(Exit{Pane: id}, now))
		case 4, 5:
			s.rows = append(s.rows, fuzzRows[arg%len(fuzzRows)])
			if len(s.rows) > 6 {
				s.hist = append(s.hist, s.rows[0])
				s.rows = s.rows[1:]
			}
			check(r.Handle(Output{Pane: id}, now))
		case 6:
			s.title = fuzzTitles[arg%len(fuzzTitles)]
			s.alt = arg%7 == 0
			check(r.Handle(Output{Pane: id}, now))
		case 7:
			check(r.Handle(Keystroke{Pane: id, Draft: arg%2 == 0}, now))
		case 8:
			check(r.Handle(Sent{Pane: id, Text: "hello"}, now))
		case 9, 10:
			now = now.Add(time.Duration(arg) * 37 * time.Millisecond)
			check(r.Tick(now))
		case 11:
			if at, ok := r.NextWake(); ok {
				now = at
				check(r.Tick(now))
			}
		}
	}
}
