package demo

// The -transcript file is checked through Main with pipes: a greeting, a message answered
// at once and one queued while busy must appear as JSON lines in the order they happened,
// and an unopenable file must fail the start.

import (
	"encoding/json"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestMainTranscript(t *testing.T) {
	path := filepath.Join(t.TempDir(), "t.jsonl")
	m := startMain(t, "--name", "bob", "--style", "plain", "--reply", "echo", "--busy", "20ms",
		"--greet", "hi there", "--transcript", path)
	m.out.waitFor(t, "hi there")
	io.WriteString(m.stdin, "one two\nthree\n") // the second arrives while the first is answered
	m.out.waitFor(t, "bob heard: three")
	m.stdin.Close()
	if code := m.wait(t); code != 0 {
		t.Fatalf("exit %d", code)
	}
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, line := range strings.Split(strings.TrimSuffix(string(b), "\n"), "\n") {
		var e transcriptEntry
		if err := json.Unmarshal([]byte(line), &e); err != nil {
			t.Fatalf("line %q: %v", line, err)
		}
		switch {
		case e.In != nil && e.Out == nil:
			got = append(got, "in "+*e.In)
		case e.Out != nil && e.In == nil:
			got = append(got, "out "+*e.Out)
		default:
			t.Fatalf("line %q has not exactly one of in and out", line)
		}
	}
	want := []string{"out hi there", "in one two", "in three", "out bob heard: one two", "out bob heard: three"}
	if strings.Join(got, "|") != strings.Join(want, "|") {
		t.Fatalf("transcript\n%q\nwant\n%q", got, want)
	}

	bad := filepath.Join(t.TempDir(), "no", "such", "dir", "t.jsonl")
	if code := Main([]string{"--transcript", bad}, strings.NewReader(""), io.Discard); code != 1 {
		t.Fatalf("unwritable transcript: exit %d, want 1", code)
	}
}
