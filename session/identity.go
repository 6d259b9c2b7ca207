package session

import (
	"crypto/rand"
	"crypto/subtle"
	"encoding/hex"
	"path/filepath"
	"strings"
)

// A pane's identity on the session socket is a secret only its process tree gets: a
// random proof in its environment (AGENTMUX_PROOF, ptyhost.Spec.Proof), made afresh
// for every pane of every run. A client that claims to speak for a pane (its hook, an
// `agentmux send` run inside it) shows the proof; a pane's number or name alone proves
// nothing, since every pane's program can reach the socket. The proof is never shown:
// not in Members, events, logs or captures.

// newProof returns 128 random bits in hex.
func newProof() string {
	var b [16]byte
	_, _ = rand.Read(b[:])
	return hex.EncodeToString(b[:])
}

// PaneOf returns the live pane whose proof is proof (its number and name); ok is false
// for any other string, the empty one included.
func (s *Session) PaneOf(proof string) (id int, name string, ok bool) {
	if proof == "" {
		return 0, "", false
	}
	s.call(func() {
		for _, p := range s.panes {
			if !p.exited && subtle.ConstantTimeCompare([]byte(p.proof), []byte(proof)) == 1 {
				id, name, ok = p.id, p.name, true
			}
		}
	})
	return id, name, ok
}

// shells are the base names of interactive shells: linked, a shell would run as
// commands whatever an agent answered.
var shells = map[string]bool{
	"sh": true, "bash": true, "zsh": true, "fish": true, "nu": true, "dash": true, "ksh": true,
	"mksh": true, "pdksh": true, "oksh": true, "yash": true, "tcsh": true, "csh": true, "ash": true,
	"busybox": true, "pwsh": true, "powershell": true, "elvish": true, "xonsh": true, "ion": true,
	"rc": true, "es": true, "oil": true, "osh": true, "ysh": true, "murex": true, "cmd": true, "cmd.exe": true,
}

// optionWithValue are the shells' options whose value is the next argument.
var optionWithValue = map[string]bool{"-o": true, "+o": true, "-O": true, "+O": true, "--rcfile": true, "--init-file": true}

// IsShell reports whether argv runs an interactive shell: a shell by its program's base
// name ("-bash", a login shell's name, and "bash.exe" count) reading its commands from
// the terminal, that is with options only (`bash`, `zsh -l`), or -i or -s. A shell
// given a script or -c runs that program instead (a chat loop written in bash): what
// is typed goes to the program.
func IsShell(argv []string) bool {
	if len(argv) == 0 {
		return false
	}
	b := strings.TrimPrefix(filepath.Base(argv[0]), "-")
	if !shells[b] && !shells[strings.TrimSuffix(b, ".exe")] {
		return false
	}
	args := argv[1:]
	for i := 0; i < len(args); i++ {
		switch a := args[i]; {
		case optionWithValue[a]:
			i++ // its value is no script
		case a == "-i" || a == "-s" || a == "--interactive":
			return true
		case a == "--":
			return false // a script follows
		case a == "-c" || a == "-Command" || a == "-File" || !strings.HasPrefix(a, "-") && !strings.HasPrefix(a, "+"):
			return false
		}
	}
	return true
}

// agentIDs returns the live panes whose program is no shell, the ones linking every
// pane (--link, LinkAll without ids) takes, and those it leaves out.
func (s *Session) agentIDs() (ids, shells []int) {
	for _, p := range s.panes {
		switch {
		case p.exited:
		case IsShell(p.argv):
			shells = append(shells, p.id)
		default:
			ids = append(ids, p.id)
		}
	}
	return ids, shells
}
