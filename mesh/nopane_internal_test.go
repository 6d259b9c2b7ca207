package mesh

import (
	"fmt"
	"strings"
	"testing"

	"github.com/agentmux/agentmux/hub"
	"github.com/agentmux/agentmux/proto"
)

// paneCore is a core of the named panes: Resolve and Panes only.
type paneCore struct {
	hub.Core
	names []string
}

func (c paneCore) Resolve(ref string) (int, error) {
	for i, n := range c.names {
		if strings.EqualFold(n, ref) {
			return i + 1, nil
		}
	}
	return 0, fmt.Errorf("%q: no such pane", ref)
}

func (c paneCore) Panes() []proto.Member {
	var ms []proto.Member
	for i, n := range c.names {
		ms = append(ms, proto.Member{Number: i + 1, Name: n})
	}
	return ms
}

// A crossing message for no pane here is refused unstored; a linked turn is taken
// whatever name it carries (sent before the rename reached its sender, the core finds
// the pane through the link), and so is every message while the core is stopping (it
// lists no pane then: kept, and typed at the next start).
func TestNoPaneRefusesOnlyWhatNoPaneTakes(t *testing.T) {
	n := &Node{}
	var c hub.Core = paneCore{names: []string{"bob"}}
	n.core.Store(&c)
	if why := n.noPane(&wireMsg{To: "Bob"}); why != "" {
		t.Errorf("a message for bob refused: %s", why)
	}
	if why := n.noPane(&wireMsg{To: "nobody"}); !strings.Contains(why, "no such pane") {
		t.Errorf("a message for nobody: %q, want refused", why)
	}
	if why := n.noPane(&wireMsg{To: "bobby", Link: "T1"}); why != "" {
		t.Errorf("a linked turn for a name renamed since refused: %s", why)
	}
	c = paneCore{}
	if why := n.noPane(&wireMsg{To: "nobody"}); why != "" {
		t.Errorf("a message while the core stops refused: %s", why)
	}
}
