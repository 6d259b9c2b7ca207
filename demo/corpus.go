package demo

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"unicode/utf8"
)

// gen draws an agent's answers (--reply corpus) from a seeded corpus built to trip a
// relay that guesses which rows are old or chrome: 1 to 60 lines (often more than the pane holds), blank lines
// inside, lines identical to the agent's banner, to its prompt row and to a line of an
// earlier answer, lines opening with "> ", "❯ ", "› " or "$ ", lines exactly the pane's
// width, wide characters and emoji, indented code, and the message it answers quoted back.
// An answer never opens or ends with a blank line and no line ends in white space (a
// terminal cannot show either), and an answer of one line is plain words (the relay
// rightly holds back an answer that only repeats what was typed). The same seed gives
// the same answers to the same messages.
type gen struct {
	rng     *rand.Rand
	banner  string // the agent's banner row
	prompt  string // its empty prompt row, trailing blanks trimmed
	width   int    // the pane's width
	fit     bool   // every line must fit in width (a full-screen program does not wrap)
	max     int    // the most characters of an answer, 0 for no bound
	earlier []string
}

// newGen returns a generator for an agent showing banner and prompt in a pane width
// columns wide; fit says lines must not be longer than that.
func newGen(seed uint64, banner, prompt string, width int, fit bool) *gen {
	return &gen{rng: rand.New(rand.NewPCG(seed, seed^0x5851f42d4c957f2d)), banner: banner,
		prompt: strings.TrimRight(prompt, " "), width: width, fit: fit}
}

var words = strings.Fields(`the relay types each answer into the other pane once it is idle and a person
is not typing there agents answer with plans tests code reviews and questions about the parser
screen rows history cursor prompt banner footer spinner transcript budget turn link group`)

// wide are words of wide characters and emoji, two columns each.
var wide = []string{"漢字", "日本語", "中文", "🙂", "🚀", "🎉", "한국어"}

// sentence returns words up to max columns (at least one word).
func (g *gen) sentence(max int, wideToo bool) string {
	var b strings.Builder
	n := 3 + g.rng.IntN(12)
	for i := 0; i < n; i++ {
		w := words[g.rng.IntN(len(words))]
		if wideToo && g.rng.IntN(3) == 0 {
			w = wide[g.rng.IntN(len(wide))]
		}
		if i == 0 && w[0] < utf8.RuneSelf {
			w = strings.ToUpper(w[:1]) + w[1:]
		}
		if b.Len() > 0 && width(b.String())+1+width(w) > max {
			break
		}
		if b.Len() > 0 {
			b.WriteByte(' ')
		}
		b.WriteString(w)
	}
	if width(b.String())+1 <= max {
		b.WriteByte('.')
	}
	return b.String()
}

// limit returns the widest line allowed.
func (g *gen) limit() int {
	if g.fit {
		return g.width
	}
	return g.width + g.width/2
}

// exact returns a line exactly width columns wide.
func (g *gen) exact() string {
	s := g.sentence(g.width, false)
	for i := 0; width(s) < g.width; i++ {
		s += string(rune('a' + i%26))
	}
	return s
}

// reply returns the agent's answer to msg.
func (g *gen) reply(msg string) string {
	var n int
	switch k := g.rng.IntN(10); {
	case k < 4:
		n = 1 + g.rng.IntN(3)
	case k < 7:
		n = 4 + g.rng.IntN(9)
	default:
		n = 13 + g.rng.IntN(48)
	}
	if n == 1 {
		line := g.sentence(g.limit(), g.rng.IntN(4) == 0)
		g.earlier = append(g.earlier, line)
		return line
	}
	quote := ""
	for _, l := range strings.Split(msg, "\n") {
		if strings.TrimSpace(l) != "" {
			quote = strings.TrimSpace(l)
			break
		}
	}
	lines := make([]string, 0, n)
	for len(lines) < n {
		first, last := len(lines) == 0, len(lines) == n-1
		var l string
		switch k := g.rng.IntN(100); {
		case k < 8 && !first && !last && lines[len(lines)-1] != "":
			l = ""
		case k < 12:
			l = g.banner
		case k < 16:
			l = g.prompt
		case k < 20 && len(g.earlier) > 0:
			l = g.earlier[g.rng.IntN(len(g.earlier))]
		case k < 30:
			pre := []string{"> ", "❯ ", "› ", "$ "}[g.rng.IntN(4)]
			l = pre + g.sentence(g.limit()-2, false)
		case k < 36:
			l = g.exact()
		case k < 46:
			l = g.sentence(g.limit(), true)
		case k < 50:
			l = fmt.Sprintf("    x%d := parse(row%d) // code", g.rng.IntN(100), g.rng.IntN(100))
		case k < 56 && quote != "":
			l = quote
			if g.rng.IntN(2) == 0 {
				l = "> " + quote
			}
			l = fitTo(l, g.limit()*3)
			if g.fit {
				l = fitTo(l, g.width)
			}
		default:
			l = g.sentence(g.limit(), false)
		}
		if g.fit {
			l = fitTo(l, g.width)
		}
		l = strings.TrimRight(l, " ")
		if g.max > 0 && utf8.RuneCountInString(strings.Join(lines, "\n"))+1+utf8.RuneCountInString(l) > g.max {
			break
		}
		lines = append(lines, l)
	}
	for len(lines) > 1 && lines[len(lines)-1] == "" {
		lines = lines[:len(lines)-1]
	}
	for _, l := range lines {
		if l != "" {
			g.earlier = append(g.earlier, l)
		}
	}
	if len(g.earlier) > 200 {
		g.earlier = g.earlier[len(g.earlier)-200:]
	}
	return strings.Join(lines, "\n")
}

// fitTo cuts s to at most max columns, without trailing blanks.
func fitTo(s string, max int) string { return strings.TrimRight(truncate(s, max), " ") }
