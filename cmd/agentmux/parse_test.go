package main

// agentmux parse through run(): a stream from stdin or a file in, one JSON object a
// command out, malformed blocks on stderr; the --jsonl cases with their options, chunks
// and flush, bad cases answered with an error while the run goes on; bad flags give
// status 2.

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// runParseArgs runs agentmux parse with args and stdin.
func runParseArgs(t *testing.T, stdin string, args ...string) (int, string, string, error) {
	t.Helper()
	var out, errb bytes.Buffer
	code, err := run(context.Background(), append([]string{"parse"}, args...), strings.NewReader(stdin), &out, &errb)
	return code, out.String(), errb.String(), err
}

func TestParseStream(t *testing.T) {
	in := "Working.\n> @relay:bob [thread:t1] please review\n  the tests\n\n" +
		"```\n@relay:bob hidden\n```\n" +
		`[[RELAY]]{"to":"*","type":"action","body":"run","data":{"cmd":"make"}}[[/RELAY]]` + "\n" +
		`[[RELAY]]{"to": carol}[[/RELAY]]` + "\n" +
		"@thinking:carol last line without a break"
	code, out, errs, err := runParseArgs(t, in)
	if code != 0 || err != nil {
		t.Fatalf("status %d, %v", code, err)
	}
	want := `{"to":"bob","kind":"message","body":"please review\n  the tests","thread":"t1"}
{"to":"*","kind":"action","body":"run","data":{"cmd":"make"}}
{"to":"carol","kind":"thinking","body":"last line without a break"}
`
	if out != want {
		t.Errorf("stdout:\n%s\nwant:\n%s", out, want)
	}
	if !strings.Contains(errs, "malformed: relay block: bad JSON") {
		t.Errorf("stderr %q: want the malformed block and why", errs)
	}
}

func TestParseFileAndFlags(t *testing.T) {
	path := filepath.Join(t.TempDir(), "out.txt")
	if err := os.WriteFile(path, []byte(">>bob one\n@relay:bob two\n[[RELAY]]{\"to\":\"a\",\"type\":\"state\",\"body\":\"b\"}[[/RELAY]]\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	_, out, _, err := runParseArgs(t, "", "--prefix", ">>", "--no-block", path)
	if err != nil || out != `{"to":"bob","kind":"message","body":"one"}`+"\n" {
		t.Errorf("--prefix >> --no-block: %q, %v", out, err)
	}
	_, out, _, _ = runParseArgs(t, "", "--no-inline", path)
	if out != `{"to":"a","kind":"state","body":"b"}`+"\n" {
		t.Errorf("--no-inline: %q", out)
	}
	_, out, errs, _ := runParseArgs(t, "", "--max-block-bytes", "10", path)
	if strings.Contains(out, `"state"`) || !strings.Contains(errs, "larger than the limit") {
		t.Errorf("--max-block-bytes 10: %q / %q", out, errs)
	}
	for _, bad := range [][]string{
		{"--max-block-bytes", "0"}, {"--prefix", ""}, {"--prefix", "a b"}, {"--bogus"},
		{"a", "b"}, {"--jsonl", path}, {filepath.Join(t.TempDir(), "missing")},
	} {
		code, _, _, err := runParseArgs(t, "", bad...)
		if code != 2 || err == nil {
			t.Errorf("%q: status %d, %v; want 2 and an error", bad, code, err)
		}
		if strings.Contains(err.Error(), "\n") {
			t.Errorf("%q: error is not one line: %q", bad, err)
		}
	}
}

func TestParseJSONL(t *testing.T) {
	cases := strings.Join([]string{
		`{"input": "@relay:bob hi\n@relay:carol yo"}`,
		`{"chunks": ["@rel", "ay:bob a\n  b", "\n"], "flush": true}`,
		`{"chunks": ["@relay:bob a\n"], "flush": false}`,
		`{"chunks": ["@relay:bob unterminated"], "flush": true}`,
		`{"input": ">>bob x\n@relay:bob y", "options": {"prefix": ">>"}}`,
		`{"input": "@relay:bob x\n[[RELAY]]{\"to\":\"c\",\"type\":\"message\",\"body\":\"z\"}[[/RELAY]]", "options": {"enableInline": false}}`,
		`{"input": "[[RELAY]]{\"to\":\"c\",\"type\":\"message\",\"body\":\"z\"}[[/RELAY]]", "options": {"enableBlock": false, "maxBlockBytes": 5}}`,
		`{"input": "[[RELAY]]{\"to\":\"c\",\"type\":\"message\",\"body\":\"z\"}[[/RELAY]]", "options": {"maxBlockBytes": 5}}`,
		`not json`,
		`{"input": "a", "chunks": ["b"]}`,
		`{"inputs": "a"}`,
		`{"input": "@relay:bob after the errors"}`,
	}, "\n") + "\n"
	code, out, _, err := runParseArgs(t, cases, "--jsonl")
	if code != 0 || err != nil {
		t.Fatalf("status %d, %v", code, err)
	}
	lines := strings.Split(strings.TrimSuffix(out, "\n"), "\n")
	want := []string{
		`{"commands":[{"to":"bob","kind":"message","body":"hi"},{"to":"carol","kind":"message","body":"yo"}]}`,
		`{"commands":[{"to":"bob","kind":"message","body":"a\n  b"}]}`,
		`{"commands":[]}`,
		`{"commands":[]}`,
		`{"commands":[{"to":"bob","kind":"message","body":"x"}]}`,
		`{"commands":[{"to":"c","kind":"message","body":"z"}]}`,
		`{"commands":[]}`,
		`{"commands":[],"malformed":["relay block larger than the limit (5 bytes)"]}`,
		`error`, `error`, `error`,
		`{"commands":[{"to":"bob","kind":"message","body":"after the errors"}]}`,
	}
	if len(lines) != len(want) {
		t.Fatalf("%d lines out for %d cases:\n%s", len(lines), len(want), out)
	}
	for i, w := range want {
		if w == "error" {
			if !strings.HasPrefix(lines[i], `{"error":"bad case: `) {
				t.Errorf("case %d: %s, want an error", i, lines[i])
			}
			continue
		}
		if lines[i] != w {
			t.Errorf("case %d: %s\nwant      %s", i, lines[i], w)
		}
	}
}

func TestAddressAndBriefFlags(t *testing.T) {
	o, err := parseArgs([]string{"--address", "--brief", "sh"})
	if err != nil || !o.sess.Address || !o.sess.Brief {
		t.Errorf("--address --brief: %+v, %v", o.cfg, err)
	}
	o, err = parseArgs([]string{"sh"})
	if err != nil || o.sess.Address || o.sess.Brief {
		t.Errorf("defaults: address %v brief %v, %v", o.sess.Address, o.sess.Brief, err)
	}
}

// TestParseFlagErrors: agentmux parse names a bad flag as the user wrote it, as the main
// flags do (--bogus, not Go's -bogus), and says what a value flag wants.
func TestParseFlagErrors(t *testing.T) {
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"--bogus"}, "parse: unknown flag --bogus (agentmux parse --help lists them)"},
		{[]string{"--bogus=1"}, "parse: unknown flag --bogus (agentmux parse --help lists them)"},
		{[]string{"--max-block-bytes", "x"}, `parse: --max-block-bytes "x": want a whole number`},
		{[]string{"--prefix"}, "parse: --prefix needs a value"},
		{[]string{"--jsonl=maybe"}, "parse: --jsonl=maybe: want true or false"},
	} {
		code, _, _, err := runParseArgs(t, "", c.args...)
		if code != 2 || err == nil || err.Error() != c.want {
			t.Errorf("%q: status %d, %v; want 2 and %q", c.args, code, err, c.want)
		}
	}
	path := filepath.Join(t.TempDir(), "out.txt")
	if err := os.WriteFile(path, []byte("@relay:bob hi\n[[RELAY]]{\"to\":\"a\",\"type\":\"state\",\"body\":\"b\"}[[/RELAY]]\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, out, _, err := runParseArgs(t, "", path, "--no-block"); err != nil || out != `{"to":"bob","kind":"message","body":"hi"}`+"\n" {
		t.Errorf("FILE --no-block (a flag after the file, as the main flags allow): %q, %v", out, err)
	}
	if _, out, _, err := runParseArgs(t, "@relay:bob hi\n", "-"); err != nil || out != `{"to":"bob","kind":"message","body":"hi"}`+"\n" {
		t.Errorf("FILE - (stdin): %q, %v", out, err)
	}
}
