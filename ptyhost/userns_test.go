package ptyhost

// A program started with Spec.UserNS runs in a user namespace other than this
// process's, as the same user, and so does whatever it starts after setsid; a program
// started without it shares this process's.

import (
	"os"
	"runtime"
	"strconv"
	"strings"
	"testing"
)

func TestUserNSHoldsThePaneAndItsEscapees(t *testing.T) {
	if runtime.GOOS != "linux" || !UserNSAllowed() {
		t.Skip("this machine makes no user namespaces")
	}
	self, err := os.Readlink("/proc/self/ns/user")
	if err != nil {
		t.Fatal(err)
	}
	script := `echo "ns=$(readlink /proc/self/ns/user) id=$(id -u)"; setsid -f sh -c 'echo "esc=$(readlink /proc/self/ns/user)"'; exec sleep 5`
	p, out := start(t, Spec{Argv: []string{"sh", "-c", script}, UserNS: true})
	text := waitContains(t, p, out, "esc=")
	fields := map[string]string{}
	for _, f := range strings.Fields(text) {
		if k, v, ok := strings.Cut(f, "="); ok {
			fields[k] = v
		}
	}
	if fields["ns"] == "" || fields["ns"] == self {
		t.Errorf("the pane's namespace %q is this process's %q", fields["ns"], self)
	}
	if fields["esc"] != fields["ns"] {
		t.Errorf("a process that called setsid left the pane's namespace: %q, pane %q", fields["esc"], fields["ns"])
	}
	if fields["id"] != strconv.Itoa(os.Getuid()) {
		t.Errorf("the pane runs as uid %q, want %d (mapped 1:1)", fields["id"], os.Getuid())
	}

	q, out := start(t, Spec{Argv: []string{"sh", "-c", `echo "ns=$(readlink /proc/self/ns/user)"`}})
	waitDone(t, q)
	if !strings.Contains(out.String(), "ns="+self) {
		t.Errorf("without UserNS the program is not in this process's namespace: %q", out.String())
	}
}
