// The documents are embedded whole and found by their names, with or without ".md";
// names that could reach outside the folder find nothing.
package docs

import (
	"os"
	"sort"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestTopicIsTheFile(t *testing.T) {
	want, err := os.ReadFile("relay.md")
	require.NoError(t, err)
	for _, name := range []string{"relay", "relay.md"} {
		got, ok := Topic(name)
		require.True(t, ok, name)
		assert.Equal(t, string(want), got, name)
	}
	for _, name := range []string{"", ".md", "../README", "nope", "docs.go", "./relay"} {
		_, ok := Topic(name)
		assert.False(t, ok, name)
	}
}

func TestTopicsListEveryDocument(t *testing.T) {
	entries, err := os.ReadDir(".")
	require.NoError(t, err)
	var want []string
	for _, e := range entries {
		if n := e.Name(); len(n) > 3 && n[len(n)-3:] == ".md" {
			want = append(want, n[:len(n)-3])
		}
	}
	sort.Strings(want) // "mesh" before "mesh-security", whose file sorts first
	assert.Equal(t, want, Topics())
	assert.Contains(t, Topics(), "usage")
}
