package relay

import (
	"strings"
	"testing"
	"time"

	"github.com/agentmux/agentmux/parser"
)

// A pane's @relay to a registered external member becomes Mail for it (with the
// sender, kind and thread), never a misaddressed notice; a broadcast reaches it too;
// a name no longer registered is misaddressed again.
func TestAddressExternalMember(t *testing.T) {
	h, alice := trio(t, Config{Address: true})
	h.handle(External{Name: "Bot"})
	alice.answer("@relay:bot [thread:t1] please run the tests\n  all of them")
	h.run(10 * time.Second)
	mail := h.r.TakeMail()
	if len(mail) != 1 {
		t.Fatalf("mail = %+v, want one for Bot", mail)
	}
	m := mail[0]
	if m.To != "Bot" || m.From != "alice" || m.FromPane != 1 || m.Kind != parser.KindMessage ||
		m.Thread != "t1" || m.Text != "please run the tests\n  all of them" {
		t.Errorf("mail = %+v", m)
	}
	for _, n := range h.notes() {
		if strings.Contains(n, "no such pane") {
			t.Errorf("noted as misaddressed: %q", n)
		}
	}

	alice.answer("@relay:* stand-up now")
	h.run(20 * time.Second)
	if mail := h.r.TakeMail(); len(mail) != 1 || mail[0].To != "Bot" || mail[0].Text != "stand-up now" {
		t.Errorf("broadcast mail = %+v, want one for Bot", mail)
	}
	if got := h.typedTo(2); len(got) != 1 {
		t.Errorf("bob was typed %q: the broadcast reaches the panes too", got)
	}

	h.handle(External{Name: "bot", Gone: true})
	alice.answer("@relay:bot are you there?")
	h.run(30 * time.Second)
	if mail := h.r.TakeMail(); len(mail) != 0 {
		t.Errorf("mail for a forgotten member: %+v", mail)
	}
	if n := h.notes(); !strings.Contains(n[len(n)-1], `"bot": no such pane`) {
		t.Errorf("last note %q: want bot misaddressed", n[len(n)-1])
	}
}

// Addressing an external member is opt-in like addressing an unlinked pane: off, the
// command is noted and not sent (a broadcast quietly skips it); on for the pane alone,
// it goes.
func TestAddressExternalOptIn(t *testing.T) {
	h, alice := trio(t, Config{})
	h.handle(External{Name: "bot"})
	alice.answer("@relay:bot hello")
	h.run(10 * time.Second)
	if mail := h.r.TakeMail(); len(mail) != 0 {
		t.Fatalf("mail with addressing off: %+v", mail)
	}
	if n := h.notes(); !strings.Contains(n[len(n)-1], "bot (a client): not sent: addressing") {
		t.Errorf("last note %q: want the opt-in refusal", n[len(n)-1])
	}
	h.handle(Address{Pane: 1, On: true})
	alice.answer("@relay:bot hello again")
	h.run(20 * time.Second)
	if mail := h.r.TakeMail(); len(mail) != 1 || mail[0].Text != "hello again" {
		t.Errorf("mail with the pane's addressing on = %+v", mail)
	}
}

// A pane's typed commands to an external member spend the (member, pane) direct
// budget, the one the member's own messages into the pane spend; thinking costs none;
// a person's link of the pane renews it.
func TestAddressExternalBudget(t *testing.T) {
	h, alice := trio(t, Config{Address: true, Turns: 2})
	h.handle(External{Name: "bot"})
	if _, _, err := h.r.Message(Send{FromName: "bot", To: h.r.Addressee("alice"), Text: "first"}, h.now); err != nil {
		t.Fatal(err)
	}
	alice.answer("@thinking:bot maybe\n@relay:bot one\n@relay:bot two")
	h.run(10 * time.Second)
	var texts []string
	for _, m := range h.r.TakeMail() {
		texts = append(texts, string(m.Kind)+":"+m.Text)
	}
	if strings.Join(texts, "|") != "thinking:maybe|message:one" {
		t.Errorf("mail = %q: want the thinking and one message (bot's send spent the other turn)", texts)
	}
	if n := h.notes(); !strings.Contains(n[len(n)-1], "direct budget spent (2/2) between 1 and bot") {
		t.Errorf("last note %q", n[len(n)-1])
	}
	h.handle(Link{Pane: 1, With: 2})
	alice.answer("@relay:bot three")
	h.run(20 * time.Second)
	if mail := h.r.TakeMail(); len(mail) != 1 || mail[0].Text != "three" {
		t.Errorf("after a link: mail = %+v", mail)
	}
}
