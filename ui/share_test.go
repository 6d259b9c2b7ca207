package ui

import (
	"reflect"
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
