package mockmodel

// Pure helpers as tables: word chunks must join back to the text exactly, FirstWords folds
// whitespace, context blocks are recognised only when closed by their own tag, and schema
// samples give the CLIs the answers that let them go on.

import (
	"encoding/json"
	"strings"
	"testing"
)

func TestChunks(t *testing.T) {
	tests := []struct {
		in   string
		want []string
	}{
		{"", nil},
		{"Hello", []string{"Hello"}},
		{"Hello from the mock.", []string{"Hello", " from", " the", " mock."}},
		{"  lead and trail  ", []string{"  lead", " and", " trail", "  "}},
		{"two\nlines\n\nhere", []string{"two", "\nlines", "\n\nhere"}},
		{"été où", []string{"été", " où"}},
	}
	for _, tc := range tests {
		got := chunks(tc.in)
		if strings.Join(got, "|") != strings.Join(tc.want, "|") || len(got) != len(tc.want) {
			t.Errorf("chunks(%q) = %q, want %q", tc.in, got, tc.want)
		}
		equal(t, "joined chunks of "+tc.in, strings.Join(got, ""), tc.in)
	}
}

func TestNumberedAndFirstWords(t *testing.T) {
	equal(t, "FirstWords", FirstWords("  claude (1):\n\n  Hello   there you ", 3), "claude (1): Hello")
	equal(t, "FirstWords short", FirstWords("hi", 5), "hi")
	equal(t, "Numbered", Numbered("CODEX", 2)(Prompt{N: 7, Text: "say hi there"}), "CODEX-7 to: say hi")
	equal(t, "Fixed", Fixed("x")(Prompt{N: 3}), "x")
}

func TestIsContext(t *testing.T) {
	tests := map[string]bool{
		"<system-reminder>\nstuff\n</system-reminder>":                  true,
		"<environment_context>\n <cwd>/p</cwd>\n</environment_context>": true,
		"<permissions instructions>x</permissions instructions>":        true,
		"<session>\nsay hi\n</session>\n\nWrite the title":              false,
		"say <b>hi</b>":         false,
		"<b>bold</b> then text": false,
		"<a>x</b>":              false,
	}
	for in, want := range tests {
		equal(t, "isContext("+in+")", isContext(in), want)
	}
}

func TestSampleJSON(t *testing.T) {
	tests := []struct{ schema, want string }{
		{`{"type":"object","properties":{"title":{"type":"string"}}}`, `{"title":"mock"}`},
		{`{"type":"OBJECT","properties":{"n":{"type":"INTEGER","minimum":5},"ok":{"type":"boolean"},"l":{"type":"array"}}}`,
			`{"l":[],"n":5,"ok":false}`},
		{`{"properties":{"next_speaker":{"type":"string","enum":["model","user"]},"mode":{"type":"string","enum":["a","b"]}}}`,
			`{"mode":"a","next_speaker":"user"}`},
	}
	for _, tc := range tests {
		var sch map[string]any
		if err := json.Unmarshal([]byte(tc.schema), &sch); err != nil {
			t.Fatal(err)
		}
		equal(t, "sample of "+tc.schema, sampleJSONText(sch), tc.want)
	}
	equal(t, "nil schema", sampleJSONText(nil), `{"reasoning":"mock","next_speaker":"user"}`)
}
