// Package notify owns telling the person, wherever they are, that a pane needs them or
// that something they would want to know happened: a pane waiting at an approval
// prompt (with what it asks), a relay budget spent, an agent that exited or was
// killed, a message that expired, and (when asked for) a turn finished. It turns the
// session's events into notes (Watch), gathers notes that come together into one
// (six panes stuck on one prompt are one notification naming six), and hands each to
// the notifiers config.toml's [notify] names: a command given the JSON on its stdin, a
// webhook POSTed the same JSON, an ntfy topic. The attached terminals' own desktop
// notifications (OSC 9 / OSC 777) are ui's, which knows the pane in front of the person.
//
// Nothing here may slow the session: Notify never blocks (a full queue drops the note
// and logs it), each notifier has a bounded queue of its own and a timeout, so a
// webhook that hangs delays nothing but its own later notes.
//
//	session events ─► Watch ─► Notify (never blocks) ─► loop: gather for Window ─► one note
//	                                                        ├─► command queue ─► exec, JSON on stdin
//	                                                        ├─► webhook queue ─► POST JSON
//	                                                        └─► ntfy queue    ─► POST text, Title, Click
//
// It imports session (the events it watches) and proto (the asks' wire form), nothing
// else of the project; only cmd imports it.
package notify
