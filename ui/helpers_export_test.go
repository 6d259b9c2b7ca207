package ui

import (
	"fmt"
	"strings"
)

// Helpers only tests use, kept out of the package's code.

// rectsString formats pane rectangles for table tests: "1:0,0 60x39 2:60,0 60x39".
func rectsString(rs []paneRect) string {
	parts := make([]string, len(rs))
	for i, pr := range rs {
		parts[i] = fmt.Sprintf("%d:%s", pr.Pane, pr.R)
	}
	return strings.Join(parts, " ")
}
