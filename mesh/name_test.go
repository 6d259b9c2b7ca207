package mesh_test

// Strategy: CheckName accepts exactly the names the expression it replaced,
// ^[A-Za-z0-9_-]{1,64}$, accepts: differential on edge cases (lengths 0, 1, 64, 65;
// dots, slashes, spaces, wildcards, non-ASCII letters).

import (
	"regexp"
	"strings"
	"testing"

	"github.com/agentmux/agentmux/mesh"
)

func TestCheckNameForm(t *testing.T) {
	re := regexp.MustCompile(`^[A-Za-z0-9_-]{1,64}$`)
	for _, s := range []string{"", "a", "laptop", "build_box-2", "Z9", strings.Repeat("x", 64), strings.Repeat("x", 65),
		"a.b", "a b", "a/b", "*", ">", "amux.x", "é", "a\n", "-", "_"} {
		if got, want := mesh.CheckName(s) == nil, re.MatchString(s); got != want {
			t.Errorf("CheckName(%q) accepts: %v, want %v", s, got, want)
		}
	}
}
