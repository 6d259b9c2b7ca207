package ui

import (
	"fmt"
	"time"

	tea "github.com/charmbracelet/bubbletea"

	"github.com/agentmux/agentmux/keys"
)

// This file reads pane numbers typed after the prefix (prefix N: focus, prefix l N:
// link), 10 and up included, without ever delaying a single digit that cannot begin a
// longer number:
//
//   - prefix D (1..9) focuses pane D at once. Only when a live pane D0..D9 exists does
//     it also wait for a second digit: a digit E within digitWait moves the focus to
//     pane DE; any other key ends the wait and is handled as usual (so it reaches pane
//     D); the wait also ends by itself. With fewer than 10 panes nothing ever waits.
//   - prefix l D links with pane D at once unless a pane D0..D9 exists; then it waits
//     for a second digit (link DE), Enter or the end of the wait (link D), Esc (cancel);
//     another key links D and is then handled as usual.
//
// The wait is a tea.Tick carrying a generation number, so a stale one does nothing.

// digitWait is how long a first digit waits for a second when it can begin one.
const digitWait = 750 * time.Millisecond

// pendingDigit is a first digit waiting for a second (modeDigit).
type pendingDigit struct {
	first int  // the digit typed, 1..9
	link  bool // for prefix l (else focus, already done)
	gen   uint64
}

// digitTimeoutMsg ends the wait for a second digit of generation gen.
type digitTimeoutMsg struct{ gen uint64 }

// extendable reports whether a live pane's number has d as its first of two digits.
func (m *model) extendable(d int) bool {
	for _, id := range m.order {
		if id/10 == d {
			return true
		}
	}
	return false
}

// firstDigit handles the first digit of a pane number after the prefix (link: after
// prefix l).
func (m *model) firstDigit(d int, link bool) tea.Cmd {
	if !m.extendable(d) {
		if link {
			return m.linkWith(d)
		}
		m.focusPane(d)
		return nil
	}
	if !link && m.views[d] != nil {
		m.focusPane(d)
	}
	m.digitGen++
	m.pending = pendingDigit{first: d, link: link, gen: m.digitGen}
	m.mode = modeDigit
	verb := "focus"
	if link {
		verb = "link with"
	}
	m.setStatus(fmt.Sprintf("%s pane %d… (a second digit for %d0-%d9)", verb, d, d, d))
	gen := m.digitGen
	return tea.Tick(digitWait, func(time.Time) tea.Msg { return digitTimeoutMsg{gen: gen} })
}

// focusPane focuses pane id or says there is none.
func (m *model) focusPane(id int) {
	if m.views[id] == nil {
		m.setStatus(fmt.Sprintf("no pane %d", id))
		return
	}
	m.setFocus(id)
}

// secondDigit handles the key after a first digit that could begin a longer number. It
// reports whether k was used up (false: handle it as usual).
func (m *model) secondDigit(k keys.Key) (tea.Cmd, bool) {
	p := m.pending
	m.mode = modeNormal
	m.setStatus("")
	if r, ok := plainRune(k); ok && r >= '0' && r <= '9' {
		n := p.first*10 + int(r-'0')
		if p.link {
			return m.linkWith(n), true
		}
		m.focusPane(n)
		return nil, true
	}
	switch {
	case isEscape(k):
		return nil, true // link cancelled; focus stays where the first digit put it
	case k.Code == keys.KeyEnter && k.Mod == 0:
		return m.commitDigit(p), true
	}
	return m.commitDigit(p), false
}

// commitDigit settles a first digit as the whole number.
func (m *model) commitDigit(p pendingDigit) tea.Cmd {
	if p.link {
		return m.linkWith(p.first)
	}
	if m.views[p.first] == nil {
		m.setStatus(fmt.Sprintf("no pane %d", p.first))
	}
	return nil
}

// handleDigitTimeout ends the wait for a second digit: the first one stands alone.
func (m *model) handleDigitTimeout(msg digitTimeoutMsg) tea.Cmd {
	if m.mode != modeDigit || msg.gen != m.pending.gen {
		return nil
	}
	m.mode = modeNormal
	m.setStatus("")
	return m.commitDigit(m.pending)
}
