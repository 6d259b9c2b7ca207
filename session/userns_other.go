//go:build !linux

package session

import "runtime"

// peersKnown: macOS names every socket client's process (LOCAL_PEERPID), so one it
// does not name is not the person; elsewhere (FreeBSD before 13 gives no pid) such a
// client counts as the person, best effort (docs/security.md).
const peersKnown = runtime.GOOS == "darwin"

// placesKnown: there are no user namespaces to read a Place from (Place.Admits).
const placesKnown = false

// userNSChain fails: user namespaces are Linux's.
func userNSChain(int) ([]nsID, error) { return nil, errNoUserNS }

// commOf is "": processes are not read here.
func commOf(int) string { return "" }

// Here is the zero Place: there are no user namespaces to tell processes apart by.
func Here() Place { return Place{} }
