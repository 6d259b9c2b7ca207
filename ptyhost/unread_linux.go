package ptyhost

import (
	"fmt"

	"golang.org/x/sys/unix"
)

// kernelUnread returns how many bytes of input the terminal holds that the program has
// not read: in canonical mode the bytes of the whole lines waiting (a line still being
// edited is no input yet), else every byte waiting. It asks through a descriptor of the
// terminal's own end opened from the master (TIOCGPTPEER: no path is looked up) and
// closed again: holding one open would keep the terminal from hanging up when the
// program's last process ends.
func (p *Proc) kernelUnread() (int, error) {
	rc, err := p.ptm.SyscallConn()
	if err != nil {
		return 0, err
	}
	var (
		n     int
		ioErr error
	)
	cerr := rc.Control(func(fd uintptr) {
		peer, _, errno := unix.Syscall(unix.SYS_IOCTL, fd, unix.TIOCGPTPEER, uintptr(unix.O_RDONLY|unix.O_NOCTTY|unix.O_NONBLOCK|unix.O_CLOEXEC))
		if errno != 0 {
			ioErr = fmt.Errorf("open the terminal's end: %w", errno)
			return
		}
		defer unix.Close(int(peer))
		if n, ioErr = unix.IoctlGetInt(int(peer), unix.TIOCINQ); ioErr != nil {
			ioErr = fmt.Errorf("its input queue: %w", ioErr)
		}
	})
	if cerr != nil {
		return 0, cerr
	}
	return n, ioErr
}
