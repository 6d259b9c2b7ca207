package demo

// Reply generators are pure functions: tables of message → answer for echo, and for chat
// the properties a conversation needs (deterministic, quoting the words, naming the
// sender of a relayed message, different answers to different messages).

import (
	"strings"
	"testing"
	"time"
)

func TestEchoReply(t *testing.T) {
	tests := []struct{ msg, want string }{
		{"hello", "bob heard: hello"},
		{"  many   spaces\nand lines ", "bob heard: many spaces and lines"},
		{"one two three four five six seven eight nine ten", "bob heard: one two three four five six seven eight"},
		{"alice (1):\n\nalice heard: hi", "bob heard: alice (1): alice heard: hi"},
	}
	for _, tt := range tests {
		if got := echoReply("bob", tt.msg, 0); got != tt.want {
			t.Errorf("echoReply(%q) = %q, want %q", tt.msg, got, tt.want)
		}
	}
}

func TestSplitAttribution(t *testing.T) {
	tests := []struct{ msg, sender, words string }{
		{"alice (1):\n\nHi there", "alice", "Hi there"},
		{"  bob-2 (12):\nline\nline two  ", "bob-2", "line\nline two"},
		{"no attribution here", "", "no attribution here"},
		{"alice (x):\nHi", "", "alice (x):\nHi"},
	}
	for _, tt := range tests {
		s, w := splitAttribution(tt.msg)
		if s != tt.sender || w != tt.words {
			t.Errorf("splitAttribution(%q) = %q, %q; want %q, %q", tt.msg, s, w, tt.sender, tt.words)
		}
	}
}

func TestChatReply(t *testing.T) {
	msg := "alice (1):\n\nHi bob! Shall we plan a tiny to-do app together?"
	got := chatReply("carol", msg, 0)
	if got != chatReply("carol", msg, 0) {
		t.Fatal("not deterministic")
	}
	if !strings.Contains(got, "Hi bob! Shall we plan a tiny…") && !strings.Contains(got, "Thanks, alice.") {
		t.Errorf("answer %q neither quotes the words nor thanks the sender", got)
	}
	if strings.Contains(got, "alice (1)") {
		t.Errorf("answer %q quotes the attribution line", got)
	}
	seen := map[string]bool{}
	for _, m := range []string{"first message about databases", "second message about testing", "third note on caching", "a fourth about deployment", "fifth: rendering"} {
		seen[chatReply("carol", m, 0)] = true
	}
	if len(seen) < 4 {
		t.Errorf("five messages gave only %d different answers", len(seen))
	}
}

func TestChatConversationDoesNotRepeat(t *testing.T) {
	// Two agents answering each other, as the relay would link them: no answer repeats,
	// so the relay's duplicate check never ends the conversation early.
	msg, seen := "Hi bob! Shall we plan a tiny to-do app together?", map[string]bool{}
	names := []string{"bob", "alice"} // scripted first, then templates
	for i := range 12 {
		me, other := names[i%2], names[(i+1)%2]
		answer := chatReply(me, other+" (1):\n\n"+msg, i/2)
		if seen[answer] {
			t.Fatalf("turn %d repeats %q", i, answer)
		}
		seen[answer], msg = true, answer
	}
}

func TestChatScriptsThenTemplates(t *testing.T) {
	// The demo's alice and bob answer with their scripts in order, whatever they are told;
	// once a script runs out (or for another name) the answer is a template that quotes the
	// message.
	msg := "alice (1):\n\nHi bob! Shall we plan a tiny to-do app together?"
	for name, script := range chatScripts {
		for n, line := range script {
			if got := chatReply(name, msg, n); got != line {
				t.Errorf("%s answer %d = %q, want its script line %q", name, n, got, line)
			}
		}
		past := chatReply(name, msg, len(script))
		if !strings.Contains(past, "Hi bob! Shall we plan a") && !strings.Contains(past, "Thanks, alice.") {
			t.Errorf("%s past its script answered %q: neither a quote nor a thanks", name, past)
		}
	}
	if len(chatScripts["alice"]) == 0 || len(chatScripts["bob"]) == 0 {
		t.Fatal("the demo's scripts are empty")
	}
}

func TestQuoteAndTopic(t *testing.T) {
	if got := quote("“Hello,” she said \"loudly\"… and then some more words", 4); got != "Hello, she said loudly…" {
		t.Errorf("quote = %q", got)
	}
	if got := quote("!!!", 3); got != "…" {
		t.Errorf("quote of punctuation = %q", got)
	}
	if got := topic("We should think about the database schema"); got != "database" {
		t.Errorf("topic = %q", got)
	}
	if got := topic("a b c"); got != "this" {
		t.Errorf("topic of short words = %q", got)
	}
}

// TestBriefDoesNotSpendTheScript: agentmux --brief demo types each simulated agent a brief
// before the conversation. The agent acknowledges it without spending a line of its
// script, so the relayed conversation that follows is the scripted one, in order.
func TestBriefDoesNotSpendTheScript(t *testing.T) {
	h := newHarness(t, 80, 24, "-name", "bob", "-style", "plain")
	h.a.ask("agentmux: you are bob, pane 2, in a session with other agents:\n  1 alice (agentmux), linked with you\nTo send one of them a message, ...")
	h.finish(time.Second)
	ack := h.a.history[len(h.a.history)-1].text
	if ack == chatScripts["bob"][0] || !strings.Contains(ack, "bob") {
		t.Errorf("the brief was answered %q; want a short acknowledgment, not the script", ack)
	}
	h.a.ask("alice (1):\n\nHi bob! I'm alice. Shall we plan a tiny to-do app together?")
	h.finish(time.Second)
	if got := h.a.history[len(h.a.history)-1].text; got != chatScripts["bob"][0] {
		t.Errorf("after the brief bob answered alice %q; want its first script line %q", got, chatScripts["bob"][0])
	}
}
