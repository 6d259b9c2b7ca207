package mesh_test

// Strategy: CheckName accepts exactly the names the expression it replaced,
// ^[A-Za-z0-9_-]{1,64}$, accepts: differential on edge cases (lengths 0, 1, 64, 65;
// dots, slashes, spaces, wildcards, non-ASCII letters).

import (
	"regexp"
	"strings"
	"testing"

	"github.com/nats-io/nats.go"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

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

// The mesh's own subjects, amux.who.SESSION and amux.whois.ASKER…, are not a session's:
// a session named who or whois would have its stream take every question or answer of
// the mesh (what panes ask, meant for the asker alone), so no session is named so.
func TestCheckNameRefusesTheMeshsOwnSubjects(t *testing.T) {
	for _, s := range []string{"who", "whois", "WHO", "Whois"} {
		assert.ErrorContains(t, mesh.CheckName(s), "is the mesh's own", s)
	}
	for _, s := range []string{"whoami", "who-s", "whoisit"} {
		assert.NoError(t, mesh.CheckName(s), s)
	}
}

// Neither credentials nor a login with the right password make a session of them.
func TestNoSessionTakesTheWhoSubjects(t *testing.T) {
	th := startHub(t)
	for _, s := range []string{"who", "whois"} {
		_, err := mesh.WriteCreds(th.dir, s)
		require.ErrorContains(t, err, "is the mesh's own")
		pass, err := mesh.SessionPassword(th.dir, s)
		require.NoError(t, err)
		nc, err := nats.Connect(th.url, nats.UserInfo(s, pass), nats.NoReconnect())
		if err == nil {
			nc.Close()
		}
		require.ErrorIs(t, err, nats.ErrAuthorization, "%s logged in", s)
	}
}
