package mailbox

// Many putters, one taker that sleeps on Ready and takes all: nothing is lost, each
// putter's items come in its order, and puts never wait for the taker.

import (
	"sync"
	"testing"
)

func TestEveryPutIsTakenInOrder(t *testing.T) {
	const putters, each = 8, 1000
	b := New[[2]int]()
	var wg sync.WaitGroup
	for p := range putters {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range each {
				b.Put([2]int{p, i})
			}
		}()
	}
	next := make([]int, putters)
	for got := 0; got < putters*each; {
		<-b.Ready()
		for _, v := range b.Take() {
			if v[1] != next[v[0]] {
				t.Fatalf("putter %d: item %d after %d", v[0], v[1], next[v[0]]-1)
			}
			next[v[0]]++
			got++
		}
	}
	wg.Wait()
	if rest := b.Take(); rest != nil {
		t.Fatalf("left over: %v", rest)
	}
}

func TestPutsCoalesceIntoOneWakeUp(t *testing.T) {
	b := New[string]()
	b.Put("a")
	b.Put("b") // no taker yet: must not block
	<-b.Ready()
	select {
	case <-b.Ready():
		t.Fatal("two wake-ups for puts taken by one Take")
	default:
	}
	if got := b.Take(); len(got) != 2 || got[0] != "a" || got[1] != "b" {
		t.Fatalf("Take = %v, want [a b]", got)
	}
}
