package relay

// Strategy: a fake alternate-screen agent caught between synchronized-output frames. The
// screen is not read then (TestMidFrameNotSampled), but the title is set whole: Codex
// sets its busy spinner title between frames that follow each other closely, so a host
// whose reads end mid-frame must still see the state the title says. A permission prompt
// seen on a whole frame is not taken back by a title read mid-frame.

import (
	"testing"
	"time"

	"github.com/agentmux/agentmux/parser"
)

func TestMidFrameTitleCounts(t *testing.T) {
	h := newHarness(t, Config{})
	a := h.agent(1, "alice", &fakeAgent{titled: true, alt: true})
	h.run(time.Second)
	state := func() parser.State {
		st, _ := h.r.Pane(1)
		return st.State
	}
	if s := state(); s != parser.Idle {
		t.Fatalf("before: %v", s)
	}
	a.midFrame, a.busy = true, true
	h.output(1)
	if s := state(); s != parser.Busy {
		t.Errorf("busy title mid-frame: %v, want busy", s)
	}
	a.busy = false
	h.output(1)
	if s := state(); s != parser.Idle {
		t.Errorf("idle title mid-frame: %v, want idle", s)
	}
	a.midFrame, a.approval = false, true
	h.output(1)
	if s := state(); s != parser.NeedsApproval {
		t.Fatalf("prompt on a whole frame: %v, want needs approval", s)
	}
	a.midFrame = true
	h.output(1)
	if s := state(); s != parser.NeedsApproval {
		t.Errorf("idle title mid-frame under a prompt: %v, want needs approval", s)
	}
}
