package relay

import (
	"reflect"
	"testing"
	"time"
)

// fuzzDriver is a relay over three scripted panes that fuzz bytes drive: FuzzRelay
// checks what every step writes, FuzzNextWake that nothing is due before NextWake.
type fuzzDriver struct {
	r   *Relay
	now time.Time
	scr map[int]*scriptScreen
}

func newFuzzDriver() *fuzzDriver {
	d := &fuzzDriver{
		r:   New(Config{Turns: 3, Delivery: Delivery{InputStale: 2 * time.Second, MaxBatch: 2}}),
		now: t0,
		scr: map[int]*scriptScreen{},
	}
	for id := 1; id <= 3; id++ {
		d.scr[id] = &scriptScreen{rows: []string{"> "}}
		d.r.Handle(Open{Pane: id, Name: "p", Profile: testProfile(), Screen: d.scr[id]}, d.now)
	}
	return d
}

// apply runs one fuzz op with its argument, handing every batch of actions to check.
// onExit(id) comes just before pane id's Exit (after what was due before it), and
// onPrint(id) before the relay hears that pane id printed.
func (d *fuzzDriver) apply(op byte, arg int, check func([]Action), onExit, onPrint func(int)) {
	r := d.r
	id := arg%3 + 1
	s := d.scr[id]
	switch op % 15 {
	case 0:
		check(r.Handle(Link{Pane: id, With: (arg/3)%3 + 1}, d.now))
	case 1:
		check(r.Handle(LinkAll{Panes: []int{1, 2, 3}}, d.now))
	case 2:
		check(r.Handle(Unlink{Pane: id}, d.now))
	case 3:
		check(r.Tick(d.now)) // what was due before the exit may still go into the pane
		onExit(id)
		check(r.Handle(Exit{Pane: id}, d.now))
	case 4, 5:
		s.rows = append(s.rows, fuzzRows[arg%len(fuzzRows)])
		if len(s.rows) > 6 {
			s.hist = append(s.hist, s.rows[0])
			s.rows = s.rows[1:]
		}
		onPrint(id)
		check(r.Handle(Output{Pane: id}, d.now))
	case 6:
		s.title = fuzzTitles[arg%len(fuzzTitles)]
		s.alt = arg%7 == 0
		onPrint(id)
		check(r.Handle(Output{Pane: id}, d.now))
	case 7:
		check(r.Handle(Keystroke{Pane: id, Draft: arg%2 == 0}, d.now))
	case 8:
		check(r.Handle(Sent{Pane: id, Text: "hello"}, d.now))
	case 9, 10:
		d.now = d.now.Add(time.Duration(arg) * 37 * time.Millisecond)
		check(r.Tick(d.now))
	case 11:
		if at, ok := r.NextWake(); ok {
			d.now = at
			check(r.Tick(d.now))
		}
	case 12:
		check(r.Handle(Send{From: (arg / 3) % 4, FromName: "ops", To: id, Text: "m", Options: Options{
			Mode: Mode(arg / 12 % 3), Timeout: time.Duration(arg%4) * time.Second,
			NotifyOnDelivery: arg%2 == 0, NotifyAfter: time.Duration(arg%3) * time.Second,
		}}, d.now))
		r.TakeMail()
	case 13:
		check(r.Handle(Remind{Pane: id, Text: "r", After: time.Duration(arg%5) * time.Second}, d.now))
	case 14:
		check(r.Handle(Keystroke{Pane: id, Draft: true, Text: "hello"}, d.now))
	}
}

// FuzzNextWake pins NextWake to what Tick does, so the two cannot drift: after any
// sequence of events, a Tick before the wake-up NextWake asks for (any time at all when
// it asks for none) is due nothing: it writes nothing, logs nothing, changes no status
// and sends no mail. A deadline Tick would act on earlier than NextWake says is a
// missed wake-up: the relay would stall until some other event came.
func FuzzNextWake(f *testing.F) {
	f.Add([]byte{0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13})
	f.Add([]byte{3, 1, 2, 1, 0, 3, 4, 4, 1, 9, 9, 9, 9, 2, 4, 9, 9, 9})
	f.Add([]byte{0, 0, 4, 4, 12, 13, 7, 0, 14, 1, 9, 60, 12, 25, 11, 0, 9, 200, 11, 0})
	f.Add([]byte("11809100107000110070")) // a message typed, submitted, confirmed, its reminder
	f.Fuzz(func(t *testing.T, ops []byte) {
		if len(ops) > 120 {
			ops = ops[:120] // each prefix is replayed: keep it quadratic in little
		}
		for k := 0; k+1 < len(ops)+2; k += 2 {
			d := newFuzzDriver()
			nop := func([]Action) {}
			for i := 0; i+1 < min(k, len(ops)); i += 2 {
				d.apply(ops[i], int(ops[i+1]), nop, func(int) {}, func(int) {})
			}
			probeBeforeWake(t, d)
		}
	})
}

// probeBeforeWake ticks d's relay halfway to its next wake-up (an hour on when it
// wants none) and fails if anything was due.
func probeBeforeWake(t *testing.T, d *fuzzDriver) {
	t.Helper()
	r := d.r
	at, ok := r.NextWake()
	probe := d.now.Add(time.Hour)
	if ok {
		gap := at.Sub(d.now)
		if gap < 2 {
			return
		}
		probe = d.now.Add(gap / 2)
	}
	r.TakeMail() // mail the steps so far posted is theirs
	logged, status := r.Logged(), r.Status()
	// A pane's State and Typing are read off the clock as well (a quiet program reads
	// as idle once --idle passed, keys stop holding once the typing hold passed): they
	// are no decisions and need no wake-up of their own.
	pane := func(id int) PaneStatus {
		p, _ := r.Pane(id)
		p.State, p.Typing = 0, false
		return p
	}
	panes := map[int]PaneStatus{}
	for id := 1; id <= 3; id++ {
		panes[id] = pane(id)
	}
	if acts := r.Tick(probe); len(acts) > 0 {
		t.Fatalf("Tick at %v, before the wake-up at %v (%v), wrote %#v", probe.Sub(t0), at.Sub(t0), ok, acts)
	}
	if r.Logged() != logged {
		t.Fatalf("Tick at %v, before the wake-up at %v (%v), logged %v", probe.Sub(t0), at.Sub(t0), ok, r.Log()[len(r.Log())-(r.Logged()-logged):])
	}
	if s := r.Status(); !reflect.DeepEqual(s, status) {
		t.Fatalf("Tick at %v, before the wake-up at %v (%v), changed the status %+v to %+v", probe.Sub(t0), at.Sub(t0), ok, status, s)
	}
	for id := 1; id <= 3; id++ {
		if p := pane(id); !reflect.DeepEqual(p, panes[id]) {
			t.Fatalf("Tick at %v, before the wake-up at %v (%v), changed pane %d from %+v to %+v", probe.Sub(t0), at.Sub(t0), ok, id, panes[id], p)
		}
	}
	if m := r.TakeMail(); len(m) > 0 {
		t.Fatalf("Tick at %v, before the wake-up at %v (%v), sent mail %+v", probe.Sub(t0), at.Sub(t0), ok, m)
	}
}
