package tty

import (
	"errors"
	"fmt"
	"os"

	"golang.org/x/sys/unix"
)

// reopen opens f's terminal again through /proc/self/fd, read-only and never as a
// controlling terminal, for the runtime's poller (os.OpenFile makes a character device
// non-blocking and registers it). It refuses anything but the very device f is: the
// path is checked by its device number after opening.
func reopen(f *os.File) (*os.File, error) {
	fd, want, err := charDevice(f)
	if err != nil {
		return nil, err
	}
	nf, err := os.OpenFile(fmt.Sprintf("/proc/self/fd/%d", fd), os.O_RDONLY|unix.O_NOCTTY, 0)
	if err != nil {
		return nil, err
	}
	if _, got, err := charDevice(nf); err != nil || got != want {
		nf.Close()
		return nil, errors.New("the input opened again is another device")
	}
	return nf, nil
}

// charDevice returns f's descriptor and device number when f is a character device.
// It leaves f's mode alone (File.Fd would make it blocking).
func charDevice(f *os.File) (fd uintptr, dev uint64, err error) {
	rc, err := f.SyscallConn()
	if err != nil {
		return 0, 0, err
	}
	var st unix.Stat_t
	var serr error
	if err := rc.Control(func(d uintptr) { fd, serr = d, unix.Fstat(int(d), &st) }); err != nil {
		return 0, 0, err
	}
	if serr != nil {
		return 0, 0, serr
	}
	if st.Mode&unix.S_IFMT != unix.S_IFCHR {
		return 0, 0, errors.New("not a character device")
	}
	return fd, st.Rdev, nil
}
