//go:build !linux

package session

// peersKnown is false: a socket client the kernel does not name counts as the person
// (best effort) where peer credentials are not read.
const peersKnown = false

// userNSChain fails: user namespaces are Linux's.
func userNSChain(int) ([]nsID, error) { return nil, errNoUserNS }

// commOf is "": processes are not read here.
func commOf(int) string { return "" }
