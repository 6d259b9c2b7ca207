package mesh_test

// The person's inbox across the mesh, on an embedded hub: buildbox names laptop as a
// session of its person ([mesh] answer_from); its pane "claude" prints Claude Code's
// approval prompt. laptop's person sees it in the mesh's listing (X_MESH) with the
// question and choices, and answers it (X_ANSWER to claude@buildbox): the choice's key
// is typed into that pane, and the pane is answered once. Refused, with nothing typed:
// an answer from a pane's program of laptop (by its proof), one from a session
// buildbox's person did not name (other), one for a prompt that asks something else,
// and one replayed by whoever kept it; other sessions never see what the pane asks.

import (
	"strconv"
	"testing"
	"time"

	"github.com/nats-io/nats.go"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/agentmux/agentmux/client"
	"github.com/agentmux/agentmux/mesh"
	"github.com/agentmux/agentmux/proto"
	"github.com/agentmux/agentmux/session"
)

const claudePrompt = "\x1b[2J\x1b[H Bash command\r\n   touch probe\r\n\r\n Do you want to proceed?\r\n ❯ 1. Yes\r\n   2. No\r\n\r\n Esc to cancel"

// meshMember finds member name of session in c's X_MESH listing.
func meshMember(t *testing.T, c *client.Conn, session, name string) proto.MeshMember {
	t.Helper()
	res, err := c.Request(proto.TypeMesh, struct{}{})
	require.NoError(t, err)
	for _, s := range res.Mesh {
		for _, m := range s.Members {
			if s.Name == session && m.Name == name {
				return m
			}
		}
	}
	t.Fatalf("no %s@%s in %+v", name, session, res.Mesh)
	return proto.MeshMember{}
}

// waitNeedsYou waits until pane name of m needs the person at a prompt with choices
// (want), or no longer needs the person at all (!want). A member that still needs the
// person but whose screen shows no choices is neither: the pane's screen can be ahead
// of the loop's reading of its state, and the prompt read then is not one at all.
func (m *machine) waitNeedsYou(name string, want bool) {
	m.t.Helper()
	sub := m.s.Subscribe(0)
	defer sub.Close()
	deadline := time.After(20 * time.Second)
	for {
		for _, mb := range m.s.Members() {
			if mb.Name != name {
				continue
			}
			asks := mb.State == session.NeedsYou && mb.Asks != nil && len(mb.Asks.Options) > 0
			if want && asks || !want && mb.State != session.NeedsYou {
				return
			}
		}
		select {
		case <-sub.Ready():
			sub.Next()
		case <-deadline:
			m.t.Fatalf("pane %s of %s: needs the person never %v", name, m.name, want)
		}
	}
}

func TestInboxAcrossTheMesh(t *testing.T) {
	th := startHub(t)
	laptop := newMachine(t, th, "laptop", "alice")
	buildbox := newMachineWith(t, &machine{t: t, name: "buildbox", dir: t.TempDir(), url: th.url, creds: th.creds("buildbox"),
		panes: []string{"claude"}, answerFrom: []string{"laptop"}})
	other := newMachine(t, th, "other", "x")

	buildbox.proc("claude").Print(claudePrompt)
	buildbox.waitNeedsYou("claude", true)

	// The person of laptop sees what it asks; another session sees only its state.
	person := laptop.control()
	got := meshMember(t, person, "buildbox", "claude")
	assert.Equal(t, "needs you", got.State)
	require.NotNil(t, got.Asks)
	assert.Equal(t, "Do you want to proceed?", got.Asks.Question)
	assert.Equal(t, []proto.Option{{Key: "1", Label: "Yes"}, {Key: "2", Label: "No"}}, got.Asks.Options)
	assert.Equal(t, 1, got.Pane)
	stranger := meshMember(t, other.control(), "buildbox", "claude")
	assert.Equal(t, "needs you", stranger.State)
	assert.Nil(t, stranger.Asks, "what a pane asks is for its own person's sessions")

	var ce *client.Error
	// A pane's program of laptop: refused by laptop's socket, nothing crosses.
	pane, err := client.DialPane(laptop.sock, laptop.proc("alice").Spec.Proof)
	require.NoError(t, err)
	defer pane.Close()
	_, err = pane.Request(proto.TypeAnswer, proto.Answer{A: "claude@buildbox", Option: "yes"})
	require.ErrorAs(t, err, &ce)
	assert.Contains(t, ce.Message, "only the person answers")
	res, err := pane.Request(proto.TypeMesh, struct{}{})
	require.NoError(t, err)
	for _, s := range res.Mesh {
		for _, m := range s.Members {
			assert.Nil(t, m.Asks, "a pane's program lists the mesh without what panes ask")
		}
	}

	// A session buildbox's person did not name: refused there.
	_, err = other.control().Request(proto.TypeAnswer, proto.Answer{A: "claude@buildbox", Option: "yes"})
	require.ErrorAs(t, err, &ce)
	assert.Contains(t, ce.Message, "takes answers from the sessions its person named")

	// A prompt that asks something else now.
	_, err = person.Request(proto.TypeAnswer, proto.Answer{A: "claude@buildbox", Option: "yes", Question: "Delete everything?"})
	require.ErrorAs(t, err, &ce)
	assert.Contains(t, ce.Message, "not \"Delete everything?\"")
	assert.Empty(t, buildbox.proc("claude").Peek(), "nothing typed for the refused answers")

	// The person's answer: typed into the pane, as the person would.
	res, err = person.Request(proto.TypeAnswer, proto.Answer{A: "claude@buildbox", Option: "yes", Question: "Do you want to proceed?"})
	require.NoError(t, err)
	assert.Equal(t, &proto.Option{Key: "1", Label: "Yes"}, res.Answer)
	buildbox.waitTyped("claude", "1")
	assert.Equal(t, "1", buildbox.proc("claude").Peek(), "typed once")
}

// On a server that lets anyone publish and read anything, whoever kept laptop's signed
// answer cannot have it taken again, and a session that is not laptop cannot pass as
// it (its own key, or laptop's name with another key): buildbox refuses each, and the
// pane is typed into once.
func TestAnswerAcrossTheMeshIsNotReplayedOrForged(t *testing.T) {
	th := permissiveHub(t)
	laptop := newMachine(t, th, "laptop", "alice")
	buildbox := newMachineWith(t, &machine{t: t, name: "buildbox", dir: t.TempDir(), url: th.url, creds: th.creds("buildbox"),
		panes: []string{"claude"}, answerFrom: []string{"laptop"}})

	mallory, err := nats.Connect(th.url)
	require.NoError(t, err)
	defer mallory.Close()
	kept, err := mallory.SubscribeSync("amux.who.buildbox")
	require.NoError(t, err)
	results, err := mallory.SubscribeSync("amux.whois.>")
	require.NoError(t, err)
	require.NoError(t, mallory.Flush())

	buildbox.proc("claude").Print(claudePrompt)
	buildbox.waitNeedsYou("claude", true)
	_, err = laptop.control().Request(proto.TypeAnswer, proto.Answer{A: "claude@buildbox", Option: "1"})
	require.NoError(t, err)
	buildbox.waitTyped("claude", "1")
	var answer *nats.Msg
	for answer == nil {
		m, err := kept.NextMsg(10 * time.Second)
		require.NoError(t, err)
		if m.Header.Get("Amux-Op") == "answer" {
			answer = m
		}
	}
	for { // its result, read by mallory too
		r, err := results.NextMsg(10 * time.Second)
		require.NoError(t, err)
		if r.Subject == answer.Reply {
			break
		}
	}

	// The same prompt again, asked afresh.
	buildbox.proc("claude").Print("\x1b[2J\x1b[H● done\r\n\r\n❯ \r\n")
	buildbox.waitNeedsYou("claude", false)
	buildbox.proc("claude").Print(claudePrompt)
	buildbox.waitNeedsYou("claude", true)

	refused := func(m *nats.Msg, why string) {
		t.Helper()
		inbox := "amux.whois.laptop.buildbox.forged" + why[:4]
		if m.Reply == "" {
			m.Reply = inbox
		}
		require.NoError(t, mallory.PublishMsg(m))
		for {
			r, err := results.NextMsg(10 * time.Second)
			if err != nil {
				return // no answer at all: dropped
			}
			if r.Subject == m.Reply {
				assert.Contains(t, string(r.Data), why)
				return
			}
		}
	}
	// Replayed as it was.
	replay := nats.NewMsg(answer.Subject)
	replay.Header, replay.Data, replay.Reply = answer.Header, answer.Data, answer.Reply
	refused(replay, "taken already")
	// Mallory's own, signed with its key, naming itself: not a session of the person.
	own, err := mesh.SignedMsg(th.creds("mallory"), "amux.who.buildbox",
		[]byte(`{"from":"mallory","reply":"amux.whois.mallory.buildbox.x","pane":"claude","option":"1","at_ms":`+nowMs()+`}`))
	require.NoError(t, err)
	own.Reply = "amux.whois.mallory.buildbox.x"
	own.Header.Set("Amux-Op", "answer")
	refused(own, "takes answers from the sessions its person named")
	// Laptop's name, mallory's key: the signature is not laptop's (pinned): dropped.
	forged, err := mesh.SignedMsg(th.creds("mallory"), "amux.who.buildbox",
		[]byte(`{"from":"laptop","reply":"amux.whois.laptop.buildbox.y","pane":"claude","option":"1","at_ms":`+nowMs()+`}`))
	require.NoError(t, err)
	forged.Reply = "amux.whois.laptop.buildbox.y"
	forged.Header.Set("Amux-Op", "answer")
	require.NoError(t, mallory.PublishMsg(forged))

	// A marker: laptop's person answers "2" now; only that is typed after the first.
	_, err = laptop.control().Request(proto.TypeAnswer, proto.Answer{A: "claude@buildbox", Option: "no"})
	require.NoError(t, err)
	buildbox.waitTyped("claude", "1", "2")
	assert.Equal(t, "12", buildbox.proc("claude").Peek(), "the replayed and forged answers typed nothing")
}

func nowMs() string { return strconv.FormatInt(time.Now().UnixMilli(), 10) }
