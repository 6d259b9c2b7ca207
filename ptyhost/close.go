package ptyhost

import (
	"errors"
	"fmt"
	"syscall"
	"time"

	"golang.org/x/sys/unix"
)

// Close ends the child's process group and releases the PTY: SIGHUP (and SIGCONT, so
// stopped jobs see it) to the child's process group and to the terminal's foreground
// process group when a job-control shell moved a job there; then, if the child has not
// exited within the kill grace (Spec.KillGrace), SIGKILL to both. SIGKILL also goes out
// when the child is gone but other members linger (grandchildren that ignore SIGHUP).
// Close then closes the master, drops pending writes and waits for the reader, writer
// and waiter goroutines. It is idempotent and safe to call concurrently; every call
// returns the first call's result.
func (p *Proc) Close() error {
	p.closeOnce.Do(func() { p.closeErr = p.close() })
	return p.closeErr
}

func (p *Proc) close() error {
	var errs []error
	groups := []int{p.pid}
	if fg := p.foreground(); fg > 0 && fg != p.pid {
		groups = append(groups, fg)
	}
	signal := func(sig syscall.Signal) {
		for _, g := range groups {
			if err := signalGroup(g, sig); err != nil {
				errs = append(errs, err)
			}
		}
	}
	signal(syscall.SIGHUP)
	signal(syscall.SIGCONT)
	t := time.NewTimer(p.spec.KillGrace)
	select {
	case <-p.exited:
	case <-t.C:
	}
	t.Stop()
	// Whatever is left (the child after the grace, or members that outlived it) is
	// killed; an empty group is not an error.
	signal(syscall.SIGKILL)
	<-p.exited
	p.queue.kill()
	close(p.stop)
	p.resizeMu.Lock()
	p.closed = true
	if err := p.ptm.Close(); err != nil {
		errs = append(errs, fmt.Errorf("close pty of pane %d: %w", p.spec.Pane, err))
	}
	p.resizeMu.Unlock()
	p.wg.Wait()
	return errors.Join(errs...)
}

// foreground returns the terminal's foreground process group, 0 if unknown.
func (p *Proc) foreground() int {
	rc, err := p.ptm.SyscallConn()
	if err != nil {
		return 0
	}
	var pgrp int
	var ierr error
	if err := rc.Control(func(fd uintptr) {
		pgrp, ierr = unix.IoctlGetInt(int(fd), unix.TIOCGPGRP)
	}); err != nil || ierr != nil {
		return 0
	}
	return pgrp
}

// signalGroup sends sig to process group pgid; an empty group is not an error.
func signalGroup(pgid int, sig syscall.Signal) error {
	err := syscall.Kill(-pgid, sig)
	if err == nil || errors.Is(err, syscall.ESRCH) {
		return nil
	}
	return fmt.Errorf("signal %v to process group %d: %w", sig, pgid, err)
}

// ForegroundCommand returns the command line of the program in the terminal's
// foreground (its process group's leader), the one that reads what is typed now; nil
// when it cannot be read (see CommandLine).
func (p *Proc) ForegroundCommand() []string {
	if pgrp := p.foreground(); pgrp > 0 {
		return CommandLine(pgrp)
	}
	return nil
}
