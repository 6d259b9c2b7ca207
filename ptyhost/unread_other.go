//go:build !linux

package ptyhost

import "errors"

// kernelUnread is told on Linux only.
func (p *Proc) kernelUnread() (int, error) {
	return 0, errors.New("the terminal's input queue is told on Linux only")
}
