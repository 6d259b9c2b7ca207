// Package docs holds agentmux's user documentation, the Markdown files beside this one,
// so that `agentmux help TOPIC` prints the same text the repository shows. It imports
// nothing of the project.
package docs

import (
	"embed"
	"sort"
	"strings"
)

//go:embed *.md
var files embed.FS

// Topic returns the document named name ("relay" or "relay.md"); ok is false when there
// is none.
func Topic(name string) (text string, ok bool) {
	name = strings.TrimSuffix(name, ".md")
	if name == "" || strings.ContainsAny(name, `/\.`) {
		return "", false
	}
	b, err := files.ReadFile(name + ".md")
	if err != nil {
		return "", false
	}
	return string(b), true
}

// Topics lists the documents' names, sorted, without ".md".
func Topics() []string {
	entries, _ := files.ReadDir(".")
	var names []string
	for _, e := range entries {
		names = append(names, strings.TrimSuffix(e.Name(), ".md"))
	}
	sort.Strings(names)
	return names
}
