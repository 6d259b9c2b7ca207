package vterm_test

// Fixture replay: the real start-up and turn streams of Claude Code, Codex and Gemini CLI
// (testdata/agent-streams/NAME.raw, recorded at 120×40) are played into a
// Terminal of the same size. The screen must match the "Final screen" block of NAME.md
// (what tmux 3.3a showed for the same bytes; rows not listed must be blank), as must the
// replay state line (alt, cx, cy, title). Every query in the stream must get its reply
// through Options.Reply: the stream is cut right after each query, so each reply is
// checked against the query that asked for it (CPR against the cursor at that moment,
// OSC 10/11 against the colours given and the query's own terminator, kitty ?u only when
// KittyKeyboard is on, and nothing for the probes a legacy terminal ignores). The query
// counts found by our scanner must equal the counts written in NAME.md. Finally the
// stream fed byte by byte, in random chunks and in the recorded read chunks must give
// exactly the snapshot, history and replies of the whole-write replay.

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"unicode"

	"github.com/agentmux/agentmux/vterm"
)

const fixtureCols, fixtureRows = 120, 40

// fixture is one recorded stream and what its notes say about it.
type fixture struct {
	name     string
	raw      []byte
	chunks   []int          // read sizes, in order
	rows     map[int]string // 0-based row → text of the final screen
	alt      bool
	cx, cy   int
	title    string
	titleSet bool
	counts   map[string]int // query kind → count listed under "Sequences found"
}

// loadFixtures reads every NAME.raw with its NAME.md and NAME.chunks.json.
func loadFixtures(t *testing.T) []fixture {
	t.Helper()
	dir := fixtureDir(t)
	raws, err := filepath.Glob(filepath.Join(dir, "*.raw"))
	if err != nil || len(raws) == 0 {
		t.Fatalf("no *.raw fixtures in %s (%v)", dir, err)
	}
	var out []fixture
	for _, p := range raws {
		f := fixture{name: strings.TrimSuffix(filepath.Base(p), ".raw")}
		if f.raw, err = os.ReadFile(p); err != nil {
			t.Fatalf("read fixture: %v", err)
		}
		md, err := os.ReadFile(strings.TrimSuffix(p, ".raw") + ".md")
		if err != nil {
			t.Fatalf("read fixture notes: %v", err)
		}
		if err := parseFixtureNotes(&f, string(md)); err != nil {
			t.Fatalf("%s.md: %v", f.name, err)
		}
		cj, err := os.ReadFile(strings.TrimSuffix(p, ".raw") + ".chunks.json")
		if err != nil {
			t.Fatalf("read fixture chunks: %v", err)
		}
		var chunks struct{ Chunks [][2]float64 }
		if err := json.Unmarshal(cj, &chunks); err != nil {
			t.Fatalf("%s.chunks.json: %v", f.name, err)
		}
		total := 0
		for _, c := range chunks.Chunks {
			f.chunks = append(f.chunks, int(c[1]))
			total += int(c[1])
		}
		if total != len(f.raw) {
			t.Fatalf("%s.chunks.json adds up to %d bytes, the stream has %d", f.name, total, len(f.raw))
		}
		out = append(out, f)
	}
	return out
}

var (
	stateRe = regexp.MustCompile("Replay state: `alt=([01]) cx=(\\d+) cy=(\\d+) title=(\\(never set\\)|'.*')`")
	rowRe   = regexp.MustCompile(`^(\d\d)\|(.*)$`)
	countRe = regexp.MustCompile(`(?:^|; )(.*?) ×(\d+)`)
)

// parseFixtureNotes reads the replay state, the final screen and the query counts.
func parseFixtureNotes(f *fixture, md string) error {
	m := stateRe.FindStringSubmatch(md)
	if m == nil {
		return fmt.Errorf("no replay state line")
	}
	f.alt = m[1] == "1"
	f.cx, _ = strconv.Atoi(m[2])
	f.cy, _ = strconv.Atoi(m[3])
	if m[4] != "(never set)" {
		f.title, f.titleSet = strings.Trim(m[4], "'"), true
	}
	f.rows = map[int]string{}
	sc := bufio.NewScanner(strings.NewReader(md))
	section := ""
	inBlock := false
	for sc.Scan() {
		line := sc.Text()
		switch {
		case strings.HasPrefix(line, "## "):
			section, inBlock = line, false
		case strings.HasPrefix(line, "```"):
			inBlock = !inBlock
		case inBlock && strings.HasPrefix(section, "## Final screen"):
			rm := rowRe.FindStringSubmatch(line)
			if rm == nil {
				return fmt.Errorf("bad screen row %q", line)
			}
			n, _ := strconv.Atoi(rm[1])
			f.rows[n-1] = strings.TrimRight(rm[2], " ")
		case strings.HasPrefix(section, "## Sequences found") && strings.TrimSpace(line) != "":
			f.counts = parseQueryCounts(line)
		}
	}
	if len(f.rows) == 0 {
		return fmt.Errorf("no final screen rows")
	}
	return sc.Err()
}

// parseQueryCounts maps the "Sequences found" items that are queries to our query kinds.
func parseQueryCounts(line string) map[string]int {
	names := map[string]string{
		"(DA1)": qDA1, "(CPR)": qCPR, "OSC 10 ; ?": qOSC10, "OSC 11 ; ?": qOSC11,
		"(XTVERSION)": qXTVERSION, "(kitty keyboard query)": qKitty,
		"(modifyOtherKeys query)": qModKeys, "OSC 7501": qOSC7501,
	}
	out := map[string]int{}
	for _, m := range countRe.FindAllStringSubmatch(line, -1) {
		for key, kind := range names {
			if strings.Contains(m[1], key) {
				n, _ := strconv.Atoi(m[2])
				out[kind] += n
			}
		}
	}
	return out
}

// replayWhole plays a fixture in one Write and returns the terminal and its replies.
func replayWhole(f fixture, o vterm.Options) (*vterm.Terminal, []byte) {
	var replies []byte
	o.Cols, o.Rows = fixtureCols, fixtureRows
	o.Reply = func(b []byte) { replies = append(replies, b...) }
	term := vterm.New(o)
	term.Write(f.raw)
	return term, replies
}

func TestFixtureScreens(t *testing.T) {
	for _, f := range loadFixtures(t) {
		t.Run(f.name, func(t *testing.T) {
			term, _ := replayWhole(f, vterm.Options{})
			want := make([]string, fixtureRows)
			for r, text := range f.rows {
				want[r] = text
			}
			// The notes' rows were trimmed of trailing Unicode white space (Claude's prompt
			// ends in a no-break space), so ours are trimmed the same way.
			got := term.ScreenText()
			for i := range got {
				got[i] = strings.TrimRightFunc(got[i], unicode.IsSpace)
			}
			if d := diffRows(want, got); d != "" {
				t.Errorf("screen differs from what tmux showed (rows 0-based):\n%s", d)
			}
			s := term.Snapshot()
			if s.AltScreen != f.alt {
				t.Errorf("alternate screen: want %v, got %v", f.alt, s.AltScreen)
			}
			if s.Cursor.X != f.cx || s.Cursor.Y != f.cy {
				t.Errorf("cursor: want %d,%d, got %d,%d", f.cx, f.cy, s.Cursor.X, s.Cursor.Y)
			}
			// The notes trim the trailing spaces Gemini pads its title with.
			if got := strings.TrimRight(s.Title, " "); got != f.title {
				t.Errorf("title: want %q (set %v), got %q", f.title, f.titleSet, s.Title)
			}
			if err := checkInvariants(s, fixtureCols, fixtureRows); err != nil {
				t.Error(err)
			}
		})
	}
}

func TestFixtureSplitsMatchWhole(t *testing.T) {
	opts := vterm.Options{KittyKeyboard: true, Version: "test"}
	for _, f := range loadFixtures(t) {
		t.Run(f.name, func(t *testing.T) {
			whole, wantReplies := replayWhole(f, opts)
			splits := map[string][]int{"recorded chunks": f.chunks, "byte by byte": nil}
			for seed := range uint64(3) {
				r := rand.New(rand.NewPCG(seed, 7))
				var sizes []int
				for n := 0; n < len(f.raw); {
					k := 1 + r.IntN(64)
					if r.IntN(8) == 0 {
						k = 1 + r.IntN(4096)
					}
					k = min(k, len(f.raw)-n)
					sizes, n = append(sizes, k), n+k
				}
				splits[fmt.Sprintf("random chunks seed %d", seed)] = sizes
			}
			for name, sizes := range splits {
				var replies []byte
				o := opts
				o.Cols, o.Rows = fixtureCols, fixtureRows
				o.Reply = func(b []byte) { replies = append(replies, b...) }
				term := vterm.New(o)
				if sizes == nil {
					for i := range f.raw {
						term.Write(f.raw[i : i+1])
					}
				} else {
					n := 0
					for _, k := range sizes {
						term.Write(f.raw[n : n+k])
						n += k
					}
				}
				if d := diffSnapshots(whole.Snapshot(), term.Snapshot()); d != "" {
					t.Errorf("%s: snapshot differs from the whole-write replay (whole vs split):\n%s", name, d)
				}
				if d := diffHistory(whole, term); d != "" {
					t.Errorf("%s: history differs from the whole-write replay: %s", name, d)
				}
				if !bytes.Equal(replies, wantReplies) {
					t.Errorf("%s: replies %q, whole-write replay gave %q", name, replies, wantReplies)
				}
			}
		})
	}
}

// Query kinds found by scanQueries.
const (
	qDA1       = "DA1"
	qDA2       = "DA2"
	qCPR       = "CPR"
	qDECXCPR   = "DECXCPR"
	qDSR       = "DSR"
	qXTVERSION = "XTVERSION"
	qKitty     = "kitty ?u"
	qOSC10     = "OSC 10"
	qOSC11     = "OSC 11"
	qOSC12     = "OSC 12"
	qOSC4      = "OSC 4"
	qWinOps    = "XTWINOPS"
	qDECRQM    = "DECRQM"
	qModKeys   = "modifyOtherKeys query" // xterm answers, a legacy terminal need not
	qOSC7501   = "OSC 7501"              // Claude Code's probe: unknown OSC, must stay unanswered
	qOSCState  = "OSC 7501 state"        // Codex's status reports: must stay unanswered too
	qAPC       = "APC"                   // kitty graphics probe: must stay unanswered
)

// query is one query found in a stream.
type query struct {
	kind  string
	end   int    // offset just past its last byte
	term  string // OSC terminator: "\a" or "\x1b\\"
	param string // OSC 4 index, XTWINOPS number, DECRQM mode
	kitty int    // kitty ?u: the flags the stream set before it (main and alternate stacks)
}

// scanQueries finds the queries in a stream with a small tokenizer (CSI, OSC, DCS, APC,
// PM, SOS), tracking the kitty keyboard flag stacks of both screens on the way.
func scanQueries(b []byte) []query {
	var out []query
	stacks := [2][]int{}
	alt := 0
	for i := 0; i < len(b); i++ {
		if b[i] != 0x1b || i+1 >= len(b) {
			continue
		}
		switch b[i+1] {
		case '[':
			j := i + 2
			for j < len(b) && b[j] >= 0x20 && b[j] <= 0x3f {
				j++
			}
			if j >= len(b) {
				return out
			}
			params, final := string(b[i+2:j]), b[j]
			q := query{end: j + 1}
			switch {
			case final == 'c' && (params == "" || params == "0"):
				q.kind = qDA1
			case final == 'c' && (params == ">" || params == ">0"):
				q.kind = qDA2
			case final == 'n' && params == "6":
				q.kind = qCPR
			case final == 'n' && params == "?6":
				q.kind = qDECXCPR
			case final == 'n' && params == "5":
				q.kind = qDSR
			case final == 'q' && (params == ">" || params == ">0"):
				q.kind = qXTVERSION
			case final == 'u' && params == "?":
				q.kind = qKitty
				if s := stacks[alt]; len(s) > 0 {
					q.kitty = s[len(s)-1]
				}
			case final == 'u' && strings.HasPrefix(params, ">"):
				n, _ := strconv.Atoi(params[1:])
				stacks[alt] = append(stacks[alt], n)
			case final == 'u' && strings.HasPrefix(params, "<"):
				n, err := strconv.Atoi(params[1:])
				if err != nil || n < 1 {
					n = 1
				}
				stacks[alt] = stacks[alt][:max(len(stacks[alt])-n, 0)]
			case final == 't' && (params == "14" || params == "16" || params == "18"):
				q.kind, q.param = qWinOps, params
			case final == 'p' && strings.HasSuffix(params, "$"):
				q.kind, q.param = qDECRQM, strings.TrimSuffix(params, "$")
			case final == 'm' && strings.HasPrefix(params, ">") && strings.Contains(params, "?"):
				q.kind = qModKeys
			case (final == 'h' || final == 'l') && (params == "?1049" || params == "?1047" || params == "?47"):
				alt = 0
				if final == 'h' {
					alt = 1
				}
			}
			if q.kind != "" {
				out = append(out, q)
			}
			i = j
		case ']', 'P', '_', '^', 'X':
			j := i + 2
			end, term := -1, ""
			for ; j < len(b); j++ {
				if b[j] == 0x07 && b[i+1] == ']' {
					end, term = j+1, "\a"
					break
				}
				if b[j] == 0x1b {
					if j+1 < len(b) && b[j+1] == '\\' {
						end, term = j+2, "\x1b\\"
					}
					break
				}
			}
			if end < 0 {
				i = j - 1
				continue
			}
			body := string(b[i+2 : end-len(term)])
			q := query{end: end, term: term}
			switch {
			case b[i+1] == '_':
				q.kind = qAPC
			case b[i+1] != ']':
			case body == "10;?":
				q.kind = qOSC10
			case body == "11;?":
				q.kind = qOSC11
			case body == "12;?":
				q.kind = qOSC12
			case strings.HasPrefix(body, "4;") && strings.HasSuffix(body, ";?"):
				q.kind, q.param = qOSC4, strings.TrimSuffix(body[2:], ";?")
			case body == "7501;?":
				q.kind = qOSC7501
			case strings.HasPrefix(body, "7501;"):
				q.kind = qOSCState
			}
			if q.kind != "" {
				out = append(out, q)
			}
			i = end - 1
		case 'c': // RIS
			stacks, alt = [2][]int{}, 0
		}
	}
	return out
}

// oscColorRe matches an xterm colour report of c, with 2 or 4 hex digits per component.
func oscColorRe(c vterm.RGBColor) string {
	return fmt.Sprintf("rgb:(%02x|%02x%02x)/(%02x|%02x%02x)/(%02x|%02x%02x)", c.R, c.R, c.R, c.G, c.G, c.G, c.B, c.B, c.B)
}

// checkReply checks the replies a query produced; s is the snapshot right after it.
func checkReply(q query, reply string, s *vterm.Snapshot, o vterm.Options) error {
	match := func(pattern string) error {
		if !regexp.MustCompile(`\A(?:` + pattern + `)\z`).MatchString(reply) {
			return fmt.Errorf("%s: reply %q does not match %q", q.kind, reply, pattern)
		}
		return nil
	}
	esc := regexp.QuoteMeta
	switch q.kind {
	case qDA1:
		return match(esc("\x1b[?") + `[0-9;]+c`)
	case qDA2:
		return match(esc("\x1b[>") + `[0-9;]+c`)
	case qCPR:
		if s.Modes.Origin {
			return match(esc("\x1b[") + `\d+;\d+R`)
		}
		return match(esc(fmt.Sprintf("\x1b[%d;%dR", s.Cursor.Y+1, s.Cursor.X+1)))
	case qDECXCPR:
		return match(esc(fmt.Sprintf("\x1b[?%d;%d", s.Cursor.Y+1, s.Cursor.X+1)) + `(;\d+)?R`)
	case qDSR:
		return match(esc("\x1b[0n"))
	case qXTVERSION:
		return match(esc("\x1bP>|agentmux " + o.Version + "\x1b\\"))
	case qKitty:
		if !o.KittyKeyboard {
			return match("")
		}
		return match(esc(fmt.Sprintf("\x1b[?%du", q.kitty)))
	case qOSC10:
		return match(esc("\x1b]10;") + oscColorRe(o.Colors.FG) + esc(q.term))
	case qOSC11:
		return match(esc("\x1b]11;") + oscColorRe(o.Colors.BG) + esc(q.term))
	case qOSC12:
		return match(esc("\x1b]12;") + `rgb:[0-9a-f/]+` + esc(q.term))
	case qOSC4:
		return match(esc("\x1b]4;"+q.param+";") + `rgb:[0-9a-f/]+` + esc(q.term))
	case qWinOps:
		if q.param == "18" {
			return match(esc(fmt.Sprintf("\x1b[8;%d;%dt", s.Rows, s.Cols)))
		}
		return match(esc("\x1b[") + map[string]string{"14": "4", "16": "6"}[q.param] + `;\d+;\d+t`)
	case qDECRQM:
		return match(esc("\x1b["+q.param) + `;[0-4]\$y`)
	case qModKeys:
		return match(`|` + esc("\x1b[>4;") + `\d*m`)
	case qOSC7501, qOSCState, qAPC:
		return match("")
	}
	return fmt.Errorf("unknown query kind %q", q.kind)
}

func TestFixtureQueries(t *testing.T) {
	colors := vterm.Colors{FG: vterm.RGBColor{R: 0x11, G: 0x22, B: 0x33}, BG: vterm.RGBColor{R: 0xfe, G: 0xdc, B: 0xba}}
	required := []string{qDA1, qCPR, qOSC10, qOSC11, qXTVERSION, qKitty, qModKeys, qOSC7501}
	for _, f := range loadFixtures(t) {
		qs := scanQueries(f.raw)
		if len(qs) == 0 {
			t.Fatalf("%s: the scanner found no queries (every recorded CLI probes at start)", f.name)
		}
		t.Run(f.name+"/counts", func(t *testing.T) {
			found := map[string]int{}
			for _, q := range qs {
				found[q.kind]++
			}
			for _, k := range required {
				if found[k] != f.counts[k] {
					t.Errorf("%s: the notes list %d, the scanner found %d", k, f.counts[k], found[k])
				}
			}
		})
		for _, kitty := range []bool{false, true} {
			t.Run(fmt.Sprintf("%s/kitty=%v", f.name, kitty), func(t *testing.T) {
				var replies []byte
				o := vterm.Options{Cols: fixtureCols, Rows: fixtureRows, Colors: colors, KittyKeyboard: kitty, Version: "1.2.3-test"}
				o.Reply = func(b []byte) { replies = append(replies, b...) }
				term := vterm.New(o)
				start := 0
				for _, q := range qs {
					term.Write(f.raw[start:q.end])
					if err := checkReply(q, string(replies), term.Snapshot(), o); err != nil {
						t.Errorf("query at bytes %d-%d: %v", start, q.end, err)
					}
					start, replies = q.end, nil
				}
				term.Write(f.raw[start:])
				if len(replies) != 0 {
					t.Errorf("replies %q after the last query", replies)
				}
			})
		}
	}
}
