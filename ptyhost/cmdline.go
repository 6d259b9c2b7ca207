package ptyhost

import (
	"encoding/binary"
	"strings"
)

// splitArgs splits NUL-ended arguments; nil for none.
func splitArgs(b []byte) []string {
	s := strings.TrimSuffix(string(b), "\x00")
	if s == "" {
		return nil
	}
	return strings.Split(s, "\x00")
}

// procArgs2 reads a kern.procargs2 buffer: argc (host order, 4 bytes), the executable's
// path and its padding NULs, then argc arguments.
func procArgs2(b []byte) []string {
	if len(b) < 4 {
		return nil
	}
	argc := int(binary.NativeEndian.Uint32(b))
	b = b[4:]
	i := 0
	for i < len(b) && b[i] != 0 {
		i++ // the executable's path
	}
	for i < len(b) && b[i] == 0 {
		i++
	}
	args := splitArgs(b[i:])
	if len(args) > argc {
		args = args[:argc] // the environment follows
	}
	return args
}
