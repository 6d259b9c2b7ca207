package mockmodel

import (
	"encoding/json"
	"regexp"
	"strings"
)

// contextOpen matches the opening tag of a context block the CLIs put into user messages:
// `<system-reminder>` (Claude Code), `<environment_context>` (Codex), `<session_context>`
// (Gemini CLI).
var contextOpen = regexp.MustCompile(`^<([A-Za-z_][A-Za-z0-9_ -]*)>`)

// isContext reports whether a text part is a context block rather than something the person
// typed: it opens with a tag and ends with the matching closing tag.
func isContext(text string) bool {
	t := strings.TrimSpace(text)
	m := contextOpen.FindStringSubmatch(t)
	return m != nil && strings.HasSuffix(t, "</"+m[1]+">")
}

// joinTyped joins the text parts that are not context blocks, one per line.
func joinTyped(parts []string) string {
	var keep []string
	for _, p := range parts {
		if strings.TrimSpace(p) != "" && !isContext(p) {
			keep = append(keep, p)
		}
	}
	return strings.Join(keep, "\n")
}

// textParts decodes a message content that is either a string or a list of typed parts and
// returns the text of the parts whose type is in types (any type when types is empty).
func textParts(raw json.RawMessage, types ...string) []string {
	var s string
	if json.Unmarshal(raw, &s) == nil {
		return []string{s}
	}
	var parts []struct {
		Type string `json:"type"`
		Text string `json:"text"`
	}
	if json.Unmarshal(raw, &parts) != nil {
		return nil
	}
	var out []string
	for _, p := range parts {
		if len(types) == 0 || contains(types, p.Type) {
			out = append(out, p.Text)
		}
	}
	return out
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// sampleJSON builds a value that satisfies a JSON schema well enough for the CLIs' side
// requests: objects get every property, strings "mock" (or the first enum value), numbers
// their minimum or 1. Property names the CLIs look for get the answer that lets them go on:
// next_speaker is "user" (the turn is over). Type names are matched case-insensitively
// (Gemini writes "OBJECT").
func sampleJSON(schema map[string]any, name string) any {
	typ, _ := schema["type"].(string)
	props, _ := schema["properties"].(map[string]any)
	switch strings.ToLower(typ) {
	case "object":
	case "array":
		return []any{}
	case "integer", "number":
		if m, ok := schema["minimum"].(float64); ok {
			return m
		}
		return 1
	case "boolean":
		return false
	case "string":
		if name == "next_speaker" {
			return "user"
		}
		if enum, ok := schema["enum"].([]any); ok && len(enum) > 0 {
			return enum[0]
		}
		return "mock"
	default:
		if props == nil {
			return "mock"
		}
	}
	obj := map[string]any{}
	for k, v := range props {
		sub, _ := v.(map[string]any)
		obj[k] = sampleJSON(sub, k)
	}
	return obj
}

// sampleJSONText is sampleJSON encoded; a schema that cannot be used gives the next-speaker
// answer Gemini CLI expects from its JSON side requests.
func sampleJSONText(schema map[string]any) string {
	if schema == nil {
		return `{"reasoning":"mock","next_speaker":"user"}`
	}
	b, err := json.Marshal(sampleJSON(schema, ""))
	if err != nil {
		return `{"reasoning":"mock","next_speaker":"user"}`
	}
	return string(b)
}
