// Package ptyhost runs child programs in pseudo-terminals for agentmux.
//
// It owns, per child: the PTY master, the child's process group, one reader goroutine
// (Read → out.Write → a coalesced notification on Updates; after bytes, QuietAfter with
// nothing more is a pause, said on Quiet), one writer goroutine fed by an unbounded FIFO
// (so Write never blocks its caller and bytes keep their order), one goroutine waiting
// for the exit status, and the shutdown sequence (SIGHUP to the whole process group,
// SIGKILL after a grace period, close the PTY, wait for the goroutines).
//
// Event flow for one Proc:
//
//	Write(b) ──► FIFO ──► writer goroutine ──► PTY master ──► child's stdin
//	child's stdout ──► PTY master ──► reader goroutine ──► out.Write(chunk)
//	                                                   ├──► Updates() (capacity 1, coalesced)
//	                                                   └──► Quiet() after QuietAfter of nothing
//	child exits ──► waiter goroutine ──► ExitStatus(); Done() once the reader drained too
//
// The master is kept in non-blocking mode behind Go's poller, so closing it always
// unblocks the reader and the writer, even when some stray process still holds the
// terminal's slave side open.
//
// The programs of one session may share an EchoFirst: after a person's key (Expect) the
// other readers wait, before reading or parsing, until the keyed program printed or a
// few milliseconds passed, so an echo never queues behind a flood for a processor.
//
// A reader yields its processor after every 4 KiB through the poller (a byte into a pipe
// of its own, waited for there), not runtime.Gosched: on one processor (the session
// server's while a person types) that is what lets the scheduler poll the network while
// a pane floods.
//
// Package ptyhost must not import anything of the agentmux project (vterm, ui, relay,
// parser, keys) nor bubbletea: the host passes an io.Writer (the pane's emulator) in.
package ptyhost
