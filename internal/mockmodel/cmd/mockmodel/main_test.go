package main

// The command is a thin shell over mockmodel.Server.Serve (tested there); this only checks
// that bad arguments are refused with status 2 and a bad address with status 1.

import (
	"strings"
	"testing"
)

func TestRunRefusesBadArguments(t *testing.T) {
	var out strings.Builder
	if code := run([]string{"-no-such-flag"}, &out); code != 2 {
		t.Errorf("run(-no-such-flag) = %d, want 2", code)
	}
	out.Reset()
	if code := run([]string{"-addr", "256.0.0.1:0"}, &out); code != 1 || !strings.Contains(out.String(), "listen") {
		t.Errorf("run(-addr bad) = %d, %q; want 1 and a listen error", code, out.String())
	}
}
