package bridge

import "strconv"

// coreRefs is the delivery bookkeeping of Core: the session core's Send and Remind
// return the delivery's number, which its Delivery events carry (relay.Entry.Delivery);
// hub.Core.Send must return a reference that the delivery events carry, so the hub can
// record typed/submitted/… in the store. numbered gives a Send's number its reference;
// a pane's own deliveries (relayed turns, @relay commands) get one from own; any other
// (a brief) gets "" from event.
//
// Owned by the hub's loop: hub calls Core.Send and Events.Next only from it.
type coreRefs struct {
	next       int
	byDelivery map[int]string // the core's delivery number → reference
	mailRefs   map[int]string // the same, kept after the final phase for mail
}

func newCoreRefs() *coreRefs {
	return &coreRefs{byDelivery: map[int]string{}, mailRefs: map[int]string{}}
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

// event returns the reference of delivery number n ("" when the hub did not send it
// and the core did not make it by itself); final forgets it after this event.
func (c *coreRefs) event(n int, final bool) string {
	ref := c.byDelivery[n]
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
