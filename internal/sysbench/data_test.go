package sysbench

// Deterministic inputs, generated once per run into the scratch folder (a fixed PCG seed
// per kind, so every run and both sides of a comparison see the same bytes): plain text,
// SGR-coloured compiler output (bold file:line, 256-colour and truecolour runs, lines of
// about 100 characters) and full-screen TUI redraws at 200×50. Lines end in "\n" as in a
// real file; the PTY's ONLCR turns them into "\r\n" for every terminal alike.

import (
	"bufio"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"sync"
	"testing"
)

var words = []string{"the", "quick", "brown", "fox", "jumps", "over", "a", "lazy", "dog",
	"while", "compiling", "package", "main", "import", "fmt", "func", "return", "error", "nil",
	"if", "else", "for", "range", "go", "build", "test", "vet", "lorem", "ipsum", "dolor",
	"sit", "amet", "consectetur", "adipiscing", "elit", "sed", "do", "eiusmod", "tempor"}

// kind names a generator.
type kind string

const (
	kindPlain  kind = "plain"
	kindSGR    kind = "sgr"
	kindRedraw kind = "redraw"
	kindScreen kind = "screen" // one screenful (50 lines) of SGR text, for the memory benchmark
	// kindHistory is coloured lines of 60 to 80 columns; its size is a number of lines.
	kindHistory kind = "history"
)

var (
	inputsMu sync.Mutex
	inputs   = map[string]string{} // "kind/size" -> path
)

// input returns the path of a generated file of about size bytes of kind k.
func input(tb testing.TB, k kind, size int) string {
	tb.Helper()
	inputsMu.Lock()
	defer inputsMu.Unlock()
	key := fmt.Sprintf("%s-%d", k, size)
	if p, ok := inputs[key]; ok {
		return p
	}
	p := filepath.Join(scratch(tb), key+".txt")
	if err := generate(p, k, size); err != nil {
		tb.Fatalf("generate %s: %v", key, err)
	}
	inputs[key] = p
	return p
}

func generate(path string, k kind, size int) error {
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	w := &countWriter{w: bufio.NewWriterSize(f, 1<<20)}
	switch k {
	case kindPlain:
		genPlain(w, size)
	case kindSGR:
		genSGR(w, size, -1)
	case kindScreen:
		genSGR(w, size, outerRows)
	case kindRedraw:
		genRedraw(w, size)
	case kindHistory:
		genHistory(w, size)
	default:
		f.Close()
		return fmt.Errorf("unknown kind %q", k)
	}
	if err := w.w.Flush(); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}

// countWriter counts what goes through a bufio.Writer (whose errors surface at Flush).
type countWriter struct {
	w *bufio.Writer
	n int
}

func (c *countWriter) str(s string) { c.w.WriteString(s); c.n += len(s) }

func (c *countWriter) printf(format string, a ...any) {
	n, _ := fmt.Fprintf(c.w, format, a...)
	c.n += n
}

// text writes about n bytes of words.
func text(r *rand.Rand, w *countWriter, n int) {
	for start := w.n; w.n-start < n; {
		w.str(words[r.IntN(len(words))])
		w.str(" ")
	}
}

// genPlain writes ordinary text in lines of 20 to 190 columns.
func genPlain(w *countWriter, size int) {
	r := rand.New(rand.NewPCG(1, 1))
	for w.n < size {
		text(r, w, 20+r.IntN(170))
		w.str("\n")
	}
}

// genSGR writes compiler-style output of about 100 columns a line: a bold file:line:col,
// a coloured severity, text, then a 256-colour or truecolour run. It stops at size bytes,
// or after lines lines when lines >= 0.
func genSGR(w *countWriter, size, lines int) {
	r := rand.New(rand.NewPCG(2, 2))
	sev := []string{"\x1b[1;31merror:\x1b[0m ", "\x1b[1;35mwarning:\x1b[0m ", "\x1b[1;36mnote:\x1b[0m "}
	for n := 0; w.n < size && (lines < 0 || n < lines); n++ {
		w.printf("\x1b[1m%s/%s.go:%d:%d:\x1b[0m %s", words[r.IntN(len(words))], words[r.IntN(len(words))],
			1+r.IntN(999), 1+r.IntN(80), sev[r.IntN(3)])
		text(r, w, 20+r.IntN(30))
		if r.IntN(2) == 0 {
			w.printf("\x1b[38;5;%dm", r.IntN(256))
		} else {
			w.printf("\x1b[38;2;%d;%d;%dm", r.IntN(256), r.IntN(256), r.IntN(256))
		}
		text(r, w, 10+r.IntN(20))
		w.printf("\x1b[0m\x1b[48;5;%dm", r.IntN(256))
		text(r, w, 5+r.IntN(10))
		w.str("\x1b[0m\n")
	}
}

// genRedraw writes full-screen frames at 200×50 in synchronized updates: every row
// addressed, coloured and filled.
func genRedraw(w *countWriter, size int) {
	r := rand.New(rand.NewPCG(3, 3))
	line := make([]byte, outerCols)
	for w.n < size {
		w.str("\x1b[?2026h")
		for row := 1; row <= outerRows; row++ {
			w.printf("\x1b[%d;1H\x1b[38;5;%d;48;5;%dm", row, r.IntN(256), r.IntN(256))
			for i := range line {
				line[i] = byte('!' + r.IntN(94))
			}
			w.str(string(line))
		}
		w.str("\x1b[0m\x1b[?2026l")
	}
}

// genHistory writes lines coloured lines of 60 to 80 columns, narrower than a pane of a
// tiled 200×50 layout: a bold file:line prefix, a coloured severity and plain text.
func genHistory(w *countWriter, lines int) {
	r := rand.New(rand.NewPCG(4, 4))
	sev := []string{"\x1b[1;31merror:\x1b[0m ", "\x1b[32mok\x1b[0m ", "\x1b[36mnote:\x1b[0m "}
	for n := 0; n < lines; n++ {
		w.printf("\x1b[1m%s.go:%d:\x1b[0m %s", words[r.IntN(len(words))], 1+r.IntN(999), sev[r.IntN(3)])
		text(r, w, 35+r.IntN(15)) // the escapes above take about 20 bytes of no width
		w.str("\n")
	}
}
