package ptyhost

import (
	"errors"
	"fmt"
	"syscall"
	"time"
)

// Close ends the child's whole process group and releases the PTY: SIGHUP to the
// group, then, if the child has not exited within the kill grace (Spec.KillGrace),
// SIGKILL to the group. SIGKILL also goes to the group when the child is gone but
// other members linger (grandchildren that ignore SIGHUP). Close then closes the
// master, drops pending writes and waits for the reader, writer and waiter goroutines.
// It is idempotent and safe to call concurrently; every call returns the first result.
func (p *Proc) Close() error {
	p.closeOnce.Do(func() { p.closeErr = p.close() })
	return p.closeErr
}

func (p *Proc) close() error {
	var errs []error
	if err := p.signalGroup(syscall.SIGHUP); err != nil {
		errs = append(errs, err)
	}
	t := time.NewTimer(p.spec.KillGrace)
	select {
	case <-p.exited:
	case <-t.C:
	}
	t.Stop()
	// Whatever is left of the group (the child after the grace, or grandchildren that
	// outlived it) is killed; ESRCH means the group is already empty.
	if err := p.signalGroup(syscall.SIGKILL); err != nil {
		errs = append(errs, err)
	}
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

// signalGroup sends sig to the child's process group; an empty group is not an error.
func (p *Proc) signalGroup(sig syscall.Signal) error {
	err := syscall.Kill(-p.pid, sig)
	if err == nil || errors.Is(err, syscall.ESRCH) {
		return nil
	}
	return fmt.Errorf("signal %v to process group %d: %w", sig, p.pid, err)
}
