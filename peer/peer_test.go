package peer

import (
	"net"
	"os"
	"path/filepath"
	"runtime"
	"testing"
)

// The peer of a connection this process made to itself is this process; a connection
// that is no socket is unknown.
func TestPIDOfOurOwnConnection(t *testing.T) {
	l, err := net.Listen("unix", filepath.Join(t.TempDir(), "s"))
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	c, err := net.Dial("unix", l.Addr().String())
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	s, err := l.Accept()
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	want := os.Getpid()
	if runtime.GOOS != "linux" {
		want = 0
	}
	if got := PID(s); got != want {
		t.Errorf("PID = %d, want %d", got, want)
	}
	a, b := net.Pipe()
	defer a.Close()
	defer b.Close()
	if got := PID(a); got != 0 {
		t.Errorf("PID of a pipe = %d, want 0", got)
	}
}
