package ui

import "fmt"

// This file is the panes' shares of the screen: a pane may be wider or taller than an
// even share (prefix ctrl+arrow, agentmux resize). The session keeps each pane's share
// (Member.Share), so every terminal lays it out alike and a terminal's resize keeps it.

// weigh sets each leaf's share from share(pane).
func (n *node) weigh(share func(id int) [2]int) {
	if n == nil {
		return
	}
	if n.children == nil {
		n.share = share(n.pane)
		return
	}
	for _, c := range n.children {
		c.weigh(share)
	}
}

// weights are n's children's weights along n's direction: a leaf's share (100 when
// unset), a split's largest.
func (n *node) weights() []int {
	axis := 0
	if n.dir == splitV {
		axis = 1
	}
	var weight func(c *node) int
	weight = func(c *node) int {
		if c.children == nil {
			if w := c.share[axis]; w > 0 {
				return w
			}
			return 100
		}
		most := 0
		for _, cc := range c.children {
			most = max(most, weight(cc))
		}
		return most
	}
	out := make([]int, len(n.children))
	for i, c := range n.children {
		out[i] = weight(c)
	}
	return out
}

// shareWeighted splits total in parts proportional to weights, each at least 1 cell
// while there are cells; the first parts take the remainder. Even weights split as
// share does.
func shareWeighted(total int, weights []int) []int {
	k := len(weights)
	if total < 0 {
		total = 0
	}
	sum := 0
	for _, w := range weights {
		sum += w
	}
	out := make([]int, k)
	if sum == 0 || total < k {
		return share(total, k)
	}
	used := 0
	for i, w := range weights {
		out[i] = max(total*w/sum, 1)
		used += out[i]
	}
	for i := 0; used > total; i = (i + 1) % k { // the minimum of 1 took too much
		if out[i] > 1 {
			out[i]--
			used--
		}
	}
	for i := 0; used < total; i = (i + 1) % k {
		out[i]++
		used++
	}
	return out
}

// shareStep is how much one prefix ctrl+arrow changes a share, in percent.
const shareStep = 25

// changeShare widens (ctrl+right) or narrows (ctrl+left), heightens (ctrl+down) or
// lowers (ctrl+up) the focused pane.
func (m *model) changeShare(d direction) {
	v := m.focused()
	if v == nil {
		return
	}
	cur := v.member.Share
	for i := range cur {
		if cur[i] == 0 {
			cur[i] = 100
		}
	}
	var w, h int
	switch d {
	case dirRight:
		w = cur[0] + shareStep
	case dirLeft:
		w = cur[0] - shareStep
	case dirDown:
		h = cur[1] + shareStep
	case dirUp:
		h = cur[1] - shareStep
	}
	got, err := m.s.SetShare(m.focus, w, h)
	if err != nil {
		m.setStatus(err.Error())
		return
	}
	v.member.Share = got
	m.relayout()
	m.setStatus(fmt.Sprintf("pane %d: width %d%%, height %d%% of an even share", m.focus, got[0], got[1]))
}
