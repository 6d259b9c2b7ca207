package proto

// The one name rule, by table: what a pane, member or sender may be called, every form
// of a reserved name, and which names pass for one another.

import (
	"errors"
	"strings"
	"testing"
)

func TestCheckName(t *testing.T) {
	for _, ok := range []string{"alice", "claude-2", "c.d_e", "Bob", "youtube", "yourself", "agentmuxer", strings.Repeat("a", 64)} {
		if err := CheckName(PaneName, ok); err != nil {
			t.Errorf("CheckName(%q) = %v, want nil", ok, err)
		}
	}
	for _, bad := range []string{
		"", "-x", ".x", "12", strings.Repeat("a", 65), strings.Repeat("a", 10000),
		"you", "YOU", "You", "y0u", "Y0U", "you(web)", "you (1)", "you-2", "you.web", "you_1", "you1",
		"agentmux", "AgentMux", "agentrnux", "agentmux-bot",
		"yоu", "cаrol", "carol(4)", "a b", "a:b", "a@b", "a/b", "a\nb", "a\u202eb", "ünï",
	} {
		if err := CheckName(MemberName, bad); err == nil || !errors.Is(err, ErrBadName) {
			t.Errorf("CheckName(%q) = %v, want an ErrBadName", bad, err)
		}
	}
}

// The kind words the error: what the name was to name, and for a sender why a
// reserved name cannot be given.
func TestCheckNameSaysTheKind(t *testing.T) {
	for _, c := range []struct {
		kind       NameKind
		name, want string
	}{
		{PaneName, "a b", "pane name: "},
		{MemberName, "12", "member name 12: numbers address panes"},
		{SenderName, "you-2", "sender name you-2 is reserved (a form of \"you\"): a send without a sender is the person's"},
	} {
		if err := CheckName(c.kind, c.name); err == nil || !strings.HasPrefix(err.Error(), c.want) {
			t.Errorf("CheckName(%s, %q) = %v, want it to start %q", c.kind, c.name, err, c.want)
		}
	}
}

func TestDefaultName(t *testing.T) {
	for prog, want := range map[string]string{"/usr/bin/claude": "claude", "codex": "codex", "/opt/42": "pane", "7z": "7z", "./you": "pane", "ünï": "pane"} {
		if got := DefaultName(prog); got != want {
			t.Errorf("DefaultName(%q) = %q, want %q", prog, got, want)
		}
	}
}

func TestSameName(t *testing.T) {
	for _, p := range [][2]string{{"carol", "CAROL"}, {"carol", "caro1"}, {"carol", "carOl"}, {"carol", "car0l"}, {"claude", "cIaude"}, {"mia", "rnia"}, {"wes", "vves"}} {
		if !SameName(p[0], p[1]) {
			t.Errorf("SameName(%q, %q) = false", p[0], p[1])
		}
	}
	for _, p := range [][2]string{{"carol", "carl"}, {"bob", "bobby"}, {"a", "b"}} {
		if SameName(p[0], p[1]) {
			t.Errorf("SameName(%q, %q) = true", p[0], p[1])
		}
	}
	if Reserved("youtube") != "" || Reserved("y0u-web") != PersonName || Reserved("AGENTMUX.2") != "agentmux" {
		t.Error("Reserved: wrong forms")
	}
}

func TestIsWord(t *testing.T) {
	for s, want := range map[string]bool{
		"a": true, "t_01-Ab": true, strings.Repeat("x", 8): true,
		"": false, strings.Repeat("x", 9): false, "a b": false, "a.b": false, "é": false, "a\n": false, "a/b": false,
	} {
		if got := IsWord(s, 8); got != want {
			t.Errorf("IsWord(%q, 8) = %v, want %v", s, got, want)
		}
	}
}
