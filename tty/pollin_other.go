//go:build !linux

package tty

import (
	"errors"
	"os"
)

// reopen is Linux's only: no other system here opens a new description of the terminal
// from its descriptor (macOS's /dev/fd/N is dup(2): the same description, whose
// non-blocking mode the shell sharing it would see). The input is read by cancelreader's
// blocking reader instead, handed off as pollin.go says.
func reopen(*os.File) (*os.File, error) {
	return nil, errors.New("the terminal is opened again on Linux only")
}
