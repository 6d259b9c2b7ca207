package hub

// Helpers only tests use, kept out of the package's code.

// Recipients returns how many recipients' stream seqs the hub keeps. It waits for the
// hub to be closed: until then they are its loop's.
func (h *Hub) Recipients() int {
	<-h.done
	return len(h.st.seqs)
}
