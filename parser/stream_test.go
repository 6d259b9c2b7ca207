package parser

// Strategy: the stream parser against itself. The differential test feeds generated
// agent output (prose, prompts, commands with continuations and threads, blocks over
// several lines, fences, escape sequences, CRLF) whole, byte by byte and in random
// chunks: the commands must be the same, since the parser is exact about chunking.
// FuzzParser checks the same on arbitrary bytes with a small block limit, and that
// nothing panics, the buffers stay bounded, and no block command is over the limit.
// BenchmarkParser parses a 1 MB transcript holding 1 000 commands.

import (
	"math/rand/v2"
	"reflect"
	"runtime"
	"strings"
	"testing"
)

// pieces are the fragments generated streams are made of.
var pieces = []string{
	"Let me look at the tests first.\n",
	"@relay:bob please review parser.go\n",
	"  and the tests too\n",
	"\t- especially the fuzz target\n",
	"\n",
	"> @relay:* [thread:t7] status: green\n",
	"⏺ >>relay:carol hi\r\n",
	"@thinking:bob should I split it?\n",
	"\\@relay:bob literal\n",
	"| @relay:bob in a table\n",
	"```go\n",
	"```\n",
	"[[RELAY]]{\"to\":\"bob\",\"type\":\"message\",\"body\":\"one\"}[[/RELAY]]\n",
	"[[RELAY]]\n{\"to\": \"carol\",\n  \"type\": \"action\", \"body\": \"run\",\n  \"data\": {\"cmd\": \"go test\"}, \"thread\": \"t1\"}\n[[/RELAY]] @relay:bob after\n",
	"[[RELAY]]{\"to\": broken}[[/RELAY]]\n",
	"\x1b[1m\x1b[32m@relay:bob\x1b[0m colour\n",
	"\x1b]0;✳ working\x07\x1b[2K\x1b[1G",
	"  indented words\n",
	"● Done.\n",
}

// stream returns n random pieces joined.
func stream(rng *rand.Rand, n int) string {
	var b strings.Builder
	for range n {
		b.WriteString(pieces[rng.IntN(len(pieces))])
	}
	return b.String()
}

func TestChunkingNeverMatters(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	total := 0
	for i := range 300 {
		in := stream(rng, 1+rng.IntN(40))
		whole := feedChunks(Syntax{}, in, len(in), nil)
		total += len(whole)
		if got := feedChunks(Syntax{}, in, 1, nil); !reflect.DeepEqual(simplify(got), simplify(whole)) {
			t.Fatalf("case %d %q: byte by byte %+v, whole %+v", i, in, simplify(got), simplify(whole))
		}
		if got := feedChunks(Syntax{}, in, 0, rng); !reflect.DeepEqual(simplify(got), simplify(whole)) {
			t.Fatalf("case %d %q: random chunks %+v, whole %+v", i, in, simplify(got), simplify(whole))
		}
	}
	if total < 1000 {
		t.Fatalf("only %d commands in all cases: the generator is too weak to test anything", total)
	}
}

func FuzzParser(f *testing.F) {
	for _, p := range pieces {
		f.Add(p, uint64(1))
	}
	f.Add("[[RELAY]]"+strings.Repeat("x", 100)+"[[/RELAY]]\n@relay:a b\n", uint64(3))
	f.Add("@relay:a [thread:x] b\n  c\n```\n@relay:d e\n```\n", uint64(5))
	const limit = 64
	s := Syntax{MaxBlockBytes: limit, MessagePrefixes: []string{"@relay:", ">>"}}
	f.Fuzz(func(t *testing.T, in string, seed uint64) {
		whole := NewParser(s)
		got := append(whole.Feed([]byte(in)), whole.Flush()...)
		rng := rand.New(rand.NewPCG(seed, 1))
		chunked := NewParser(s)
		var again []Command
		for rest := in; len(rest) > 0; {
			k := min(1+rng.IntN(9), len(rest))
			again = append(again, chunked.Feed([]byte(rest[:k]))...)
			rest = rest[k:]
			if len(chunked.line) > chunked.maxLine || len(chunked.block) > limit || len(chunked.body) > len(in) {
				t.Fatalf("buffers past their bounds: line %d, block %d, body %d", len(chunked.line), len(chunked.block), len(chunked.body))
			}
		}
		again = append(again, chunked.Flush()...)
		if !reflect.DeepEqual(simplify(got), simplify(again)) {
			t.Fatalf("whole %+v, chunked %+v", simplify(got), simplify(again))
		}
		for _, c := range got {
			if c.Err != nil {
				continue
			}
			if c.To == "" || c.Kind == "" {
				t.Fatalf("command without error is incomplete: %+v", c)
			}
			if c.Data != nil && len(c.Body)+len(c.Data) > limit {
				t.Fatalf("block command over the limit: %+v", c)
			}
		}
	})
}

// transcript returns about size bytes of agent output holding n commands: prose with
// colour, prompts, fences, and inline commands and blocks in turn.
func transcript(size, n int) string {
	prose := []string{
		"\x1b[1m●\x1b[0m I read the parser and the relay; the tests cover the grammar rules.\r\n",
		"  Next I will split the benchmark into a transcript builder and the loop itself.\r\n",
		"```go\r\nfunc main() { fmt.Println(\"@relay:nobody inside a fence\") }\r\n```\r\n",
		"- a bullet point that is not a command, with some words to make it long enough\r\n",
		"\x1b[2K\x1b[1G> $ go test ./parser/ -run TestChunkingNeverMatters -count=1\r\n",
		"ok  \tgithub.com/agentmux/agentmux/parser\t0.208s\r\n",
	}
	cmds := []string{
		"@relay:bob please review the change to stream.go\r\n  and the tests\r\n\r\n",
		"> @relay:* [thread:t1] status: all green\r\n\r\n",
		"[[RELAY]]{\"to\":\"carol\",\"type\":\"action\",\"body\":\"run\",\"data\":{\"cmd\":\"make lint\"}}[[/RELAY]]\r\n",
		"@thinking:bob the block limit could be smaller\r\n\r\n",
	}
	per := size / n
	var b strings.Builder
	for i := range n {
		start := b.Len()
		b.WriteString(cmds[i%len(cmds)])
		for j := i; b.Len()-start < per; j++ {
			b.WriteString(prose[j%len(prose)])
		}
	}
	return b.String()
}

func TestTranscriptCommands(t *testing.T) {
	in := transcript(1<<20, 1000)
	if got := len(Commands(in)); got != 1000 {
		t.Fatalf("the benchmark transcript holds %d commands, want 1000", got)
	}
}

func BenchmarkParser(b *testing.B) {
	in := []byte(transcript(1<<20, 1000))
	b.SetBytes(int64(len(in)))
	b.ReportAllocs()
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	before := ms.Mallocs
	start := cpuTime()
	b.ResetTimer()
	for range b.N {
		p := NewParser(Syntax{})
		n := 0
		for off := 0; off < len(in); off += 4096 { // PTY-sized reads
			n += len(p.Feed(in[off:min(off+4096, len(in))]))
		}
		n += len(p.Flush())
		if n != 1000 {
			b.Fatalf("%d commands, want 1000", n)
		}
	}
	b.StopTimer()
	reportCPU(b, start)
	runtime.ReadMemStats(&ms)
	b.ReportMetric(float64(ms.Mallocs-before)/float64(b.N)/1000, "allocs/command")
}
