package bridge

import "strconv"

// coreRefs is the delivery bookkeeping of Core: the session core's Send(from, to, text) returns no handle, and its
// Delivery events number deliveries itself (relay.Entry.Delivery) and name the sender
// and the pane (FromName, ToName). hub.Core.Send must return a reference that the
// delivery events carry, so the hub can record typed/submitted/… in the store.
//
// sent hands out a reference for a Send about to be made; the first Delivery event of
// a new delivery number for the same (from, to) is that Send's (the core queues in
// call order), and every later event of that number carries the same reference.
// Deliveries nobody sent through the hub get "" from event; a pane's own (relayed
// turns, @relay commands) then get one from own.
//
// Owned by the hub's loop: hub calls Core.Send and Events.Next only from it.
type coreRefs struct {
	next       int
	waiting    map[[2]string][]string // (from, to) → references in Send order
	byDelivery map[int]string         // the core's delivery number → reference
	mailRefs   map[int]string         // the same, kept after the final phase for mail
}

func newCoreRefs() *coreRefs {
	return &coreRefs{waiting: map[[2]string][]string{}, byDelivery: map[int]string{}, mailRefs: map[int]string{}}
}

// own gives delivery number n, which the core made by itself (a pane's relayed turn or
// @relay command), a reference of its own, kept for its later events unless final.
func (c *coreRefs) own(n int, final bool) string {
	ref := "c" + strconv.Itoa(n)
	if !final {
		c.byDelivery[n] = ref
	}
	return ref
}

// sent returns the reference for a Send from → to about to be made.
func (c *coreRefs) sent(from, to string) string {
	c.next++
	ref := "r" + strconv.Itoa(c.next)
	k := [2]string{from, to}
	c.waiting[k] = append(c.waiting[k], ref)
	return ref
}

// failed forgets ref: its Send was refused, no delivery will come.
func (c *coreRefs) failed(from, to, ref string) {
	k := [2]string{from, to}
	q := c.waiting[k]
	for i, r := range q {
		if r == ref {
			c.waiting[k] = append(q[:i:i], q[i+1:]...)
			break
		}
	}
	if len(c.waiting[k]) == 0 {
		delete(c.waiting, k)
	}
}

// event returns the reference of delivery number n from → to ("" when the hub did not
// send it); final forgets it after this event.
func (c *coreRefs) event(n int, from, to string, final bool) string {
	ref, ok := c.byDelivery[n]
	if !ok {
		k := [2]string{from, to}
		q := c.waiting[k]
		if len(q) == 0 {
			return ""
		}
		ref = q[0]
		if len(q) == 1 {
			delete(c.waiting, k)
		} else {
			c.waiting[k] = q[1:]
		}
		c.byDelivery[n] = ref
	}
	if final {
		delete(c.byDelivery, n)
	}
	return ref
}

// numbered returns a new reference for the core's delivery number n (Send and Remind
// return it): every event of that number carries it, exactly. mail: the message asked
// for notices, so mail about it names it too (kept for the session's life).
func (c *coreRefs) numbered(n int, mail bool) string {
	c.next++
	ref := "r" + strconv.Itoa(c.next)
	c.byDelivery[n] = ref
	if mail {
		c.mailRefs[n] = ref
	}
	return ref
}

// mail returns the reference of the message a mail is about ("" when the hub did not
// send it).
func (c *coreRefs) mail(n int) string { return c.mailRefs[n] }
