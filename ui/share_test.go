package ui

import (
	"reflect"
	"strings"
	"testing"
)

func TestShareWeighted(t *testing.T) {
	for _, c := range []struct {
		total   int
		weights []int
		want    []int
	}{
		{120, []int{100, 100}, []int{60, 60}},
		{121, []int{100, 100}, []int{61, 60}},
		{120, []int{300, 100}, []int{90, 30}},
		{10, []int{500, 20, 20}, []int{8, 1, 1}}, // every part keeps a cell
		{2, []int{100, 100, 100}, []int{1, 1, 0}},
	} {
		if got := shareWeighted(c.total, c.weights); !reflect.DeepEqual(got, c.want) {
			t.Errorf("shareWeighted(%d, %v) = %v, want %v", c.total, c.weights, got, c.want)
		}
	}
}

// In a tiled layout a row is as tall as its tallest pane asks, and a pane's width
// share applies within its row.
func TestLayoutSharesInTiled(t *testing.T) {
	tree := buildLayout(LayoutTiled, []int{1, 2, 3, 4})
	tree.weigh(func(id int) [2]int {
		if id == 1 {
			return [2]int{300, 300}
		}
		return [2]int{}
	})
	got := rectsString(tree.rects(rect{0, 0, 120, 40}))
	want := "1:0,0 90x30 2:90,0 30x30 3:0,30 60x10 4:60,30 60x10"
	if got != want {
		t.Errorf("rects = %s, want %s", got, want)
	}
}

// The person's bindings run their action and are listed in the help.
func TestBindingRunsItsActionAndShowsInHelp(t *testing.T) {
	hs := newHarness(t, 100, 30, "a", "b")
	hs.m.cfg.Bindings = []Binding{{Key: runeKey('n'), Action: "sync"}}
	hs.press(testPrefix, runeKey('n'))
	if !hs.m.sync {
		t.Fatal("prefix n bound to sync did not turn it on")
	}
	help := strings.Join(hs.m.helpRows(80), "\n")
	if !strings.Contains(help, "yours (config.toml [ui.keys]), before the above:") || !strings.Contains(help, "n\x1b[0m  sync") && !strings.Contains(help, "n  sync") {
		t.Errorf("the help does not list the binding:\n%s", help)
	}
	if err := CheckAction("fly"); err == nil || !strings.Contains(err.Error(), "new-pane") {
		t.Errorf("CheckAction(fly) = %v", err)
	}
}
