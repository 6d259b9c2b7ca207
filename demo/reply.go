package demo

import (
	"fmt"
	"hash/fnv"
	"regexp"
	"strings"
	"sync"
	"unicode"
)

// replyFunc computes an agent's answer to a message; n counts the answers the agent gave
// before this one. It must be deterministic: the same name, message and n (and, for the
// corpus, the same seed and earlier messages) always give the same answer, so tests and
// demos are repeatable.
type replyFunc func(name, msg string, n int) string

// checkReply reports whether mode names a reply generator.
func checkReply(mode string) error {
	switch mode {
	case "", "chat", "echo", "corpus":
		return nil
	}
	return fmt.Errorf("unknown reply mode %q (want chat, echo or corpus)", mode)
}

// newReply returns the reply generator of a's configuration; the corpus is seeded and
// fitted to a's screen (its banner and prompt rows, its width).
func newReply(a *agent) replyFunc {
	switch a.cfg.Reply {
	case "echo":
		return echoReply
	case "corpus":
		banner, prompt := a.draw.corpusRows(a)
		g := newGen(a.cfg.Seed, banner, prompt, a.cols, a.draw.fits())
		g.max = a.cfg.MaxChars
		if g.max <= 0 {
			g.max = 6000
		}
		return func(_, msg string, _ int) string { return g.reply(msg) }
	}
	return chatReply
}

// echoWords is how many words of the message an echo answer repeats.
const echoWords = 8

// echoReply answers "NAME heard: " and the first words of the message, on one line.
func echoReply(name, msg string, _ int) string {
	return name + " heard: " + firstWords(msg, echoWords)
}

// firstWords returns the first n whitespace-separated words of s, joined by single spaces.
func firstWords(s string, n int) string {
	words := strings.Fields(s)
	if len(words) > n {
		words = words[:n]
	}
	return strings.Join(words, " ")
}

// attribution matches the first line of a relayed message, "NAME (N):"; compiled on
// first use, not at every agentmux process's start.
var attribution = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^(\S+) \((\d+)\):$`) })

// splitAttribution separates a relayed message into its sender and its words. A message
// without the attribution line has an empty sender.
func splitAttribution(msg string) (sender, words string) {
	msg = strings.TrimSpace(msg)
	first, rest, _ := strings.Cut(msg, "\n")
	if m := attribution().FindStringSubmatch(strings.TrimSpace(first)); m != nil {
		return m[1], strings.TrimSpace(rest)
	}
	return "", msg
}

// isBrief reports whether msg is agentmux's brief (its default template), which the
// simulated agents acknowledge without counting it as a message of the conversation.
func isBrief(msg string) bool {
	return strings.HasPrefix(strings.TrimSpace(msg), "agentmux: you are ")
}

// chatTemplates are the shapes of a chat answer: %[1]s is a thanks ("Thanks, bob." or
// "Thanks."), %[2]s a short quote of the message, %[3]s its topic word.
var chatTemplates = []string{
	"%[1]s You said “%[2]s”, and I think %[3]s is the heart of it.",
	"Agreed on %[3]s. After “%[2]s”, my next step would be a small test.\nWhat would you try first?",
	"Hmm, “%[2]s”… what if we tried %[3]s the simple way first?",
	"%[1]s Let me build on “%[2]s”: %[3]s splits nicely into two steps.\nI'll take the first one.",
	"Noted: “%[2]s”. Shall I sketch a plan around %[3]s?",
	"Good point about %[3]s. “%[2]s” reminds me to write a test before the code.",
}

// chatScripts are the demo's two agents' halves of one conversation: alice opens with her
// greeting (see Agents), and each then answers with the next line of its script, so a
// newcomer watching `agentmux demo` sees a short, coherent exchange until the relay's
// turn budget ends it.
var chatScripts = map[string][]string{
	"bob": {
		"Sure, alice! Let's keep it tiny: a CLI with add, list and done, stored in one JSON file.\nCan you take the data model?",
		"Looks right. I'll write `todo list`: open items first, numbered; --all shows the done ones too.\nTests next?",
		"Good call. I'll save through a temp file and a rename, so a crash can never truncate the list.",
		"Done on my side: add, list and the safe save. Want to review each other's part next?",
	},
	"alice": {
		"On it: each item has an id, its text, a done flag and when it was added.\n`todo add` appends one and prints its id.",
		"Yes: table tests for add and done, and one that feeds a corrupt file: we must never lose someone's list.",
		"Nice. Last piece from me: `todo done 3` marks item 3 and prints what is still open.",
		"Deal, I'll review yours. Thanks, bob: that was a good little session.",
	},
}

// chatReply answers a message. The demo's alice and bob follow their scripts while they
// last; past that, and for any other name, it is a friendly line that quotes the message and
// picks up its topic, chosen by a hash of the agent's name and the message.
func chatReply(name, msg string, n int) string {
	if script := chatScripts[name]; n >= 0 && n < len(script) {
		return script[n]
	}
	sender, words := splitAttribution(msg)
	thanks := "Thanks."
	if sender != "" {
		thanks = "Thanks, " + sender + "."
	}
	h := fnv.New32a()
	h.Write([]byte(name + "\x00" + msg))
	tmpl := chatTemplates[h.Sum32()%uint32(len(chatTemplates))]
	return fmt.Sprintf(tmpl, thanks, quote(words, 6), topic(words))
}

// quote returns the first n words of s without quotation marks or trailing punctuation,
// marking a cut with "…".
func quote(s string, n int) string {
	s = strings.Map(func(r rune) rune {
		switch r {
		case '“', '”', '"', '…':
			return -1
		}
		return r
	}, s)
	words := strings.Fields(s)
	cut := len(words) > n
	if cut {
		words = words[:n]
	}
	q := strings.TrimRightFunc(strings.Join(words, " "), unicode.IsPunct)
	if q == "" {
		return "…"
	}
	if cut {
		q += "…"
	}
	return q
}

// stopWords are common words never chosen as a topic.
var stopWords = map[string]bool{
	"about": true, "after": true, "again": true, "agreed": true, "could": true, "first": true,
	"heard": true, "maybe": true, "noted": true, "shall": true, "should": true, "thanks": true,
	"their": true, "there": true, "these": true, "thing": true, "think": true, "those": true,
	"together": true, "would": true, "which": true, "while": true, "where": true, "what": true,
	"simple": true, "sketch": true, "reminds": true, "splits": true, "nicely": true, "build": true,
	"hello": true, "hey": true, "please": true, "great": true, "right": true, "really": true,
}

// topic picks the longest word of five letters or more in s that is not a stop word (the
// first one on a tie), lower-cased; "this" when there is none.
func topic(s string) string {
	best := ""
	for _, w := range strings.FieldsFunc(s, func(r rune) bool { return !unicode.IsLetter(r) && r != '-' }) {
		w = strings.ToLower(strings.Trim(w, "-"))
		if len([]rune(w)) < 5 || stopWords[w] {
			continue
		}
		if len([]rune(w)) > len([]rune(best)) {
			best = w
		}
	}
	if best == "" {
		return "this"
	}
	return best
}
