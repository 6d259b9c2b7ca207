package session

import (
	"errors"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// Every pane gets its own random proof; PaneOf knows it, and nothing a pane shows
// (its member, the relay's status) carries it.
func TestPaneOfKnowsOnlyEachPanesProof(t *testing.T) {
	r := newRig(t, Options{}, "alice", "bob")
	pa, pb := r.procs[1].Spec.Proof, r.procs[2].Spec.Proof
	require.Len(t, pa, 32)
	require.NotEqual(t, pa, pb)
	id, name, ok := r.s.PaneOf(pb)
	assert.True(t, ok)
	assert.Equal(t, 2, id)
	assert.Equal(t, "bob", name)
	for _, bad := range []string{"", "bob", "2", pa[:31], strings.ToUpper(pa)} {
		_, _, ok := r.s.PaneOf(bad)
		assert.False(t, ok, "proof %q", bad)
	}
	for _, m := range r.s.Members() {
		assert.NotContains(t, strings.Join(m.Argv, " "), pa)
	}
	assert.NotContains(t, r.s.Status().Summary, pa)
}

// Link refuses a shell; LinkShell (the person said yes) links it; LinkAll leaves it out.
func TestLinkRefusesAShell(t *testing.T) {
	r := newRig(t, Options{}, "claude", "bash", "codex")
	err := r.s.Link(1, 2)
	require.True(t, errors.Is(err, ErrShell), "%v", err)
	require.NoError(t, r.s.LinkAll())
	m1, _ := r.s.Member(1)
	m2, _ := r.s.Member(2)
	m3, _ := r.s.Member(3)
	assert.NotZero(t, m1.Group)
	assert.Equal(t, m1.Group, m3.Group)
	assert.Zero(t, m2.Group, "the shell was linked")
	require.NoError(t, r.s.LinkShell(2, 1))
	m2, _ = r.s.Member(2)
	assert.Equal(t, m1.Group, m2.Group)
}

func TestIsShell(t *testing.T) {
	for _, argv := range [][]string{
		{"sh"}, {"/bin/bash"}, {"-zsh"}, {"fish"}, {"nu"}, {"dash"}, {"ksh"}, {"tcsh"}, {"csh"}, {"pwsh"},
		{"/usr/local/bin/pwsh.exe"}, {"bash", "-l"}, {"zsh", "--login"}, {"bash", "--norc", "-i"},
		{"bash", "-i", "script.sh"}, {"sh", "-s"}, {"bash", "+o", "history"},
		// behind a launcher, or given a command that is a shell
		{"env", "bash"}, {"/usr/bin/env", "-i", "bash"}, {"env", "-u", "HOME", "FOO=1", "zsh"}, {"busybox", "sh"},
		{"toybox", "sh", "-i"}, {"sudo", "-s"}, {"sudo", "-i"}, {"sudo", "-u", "bob", "-s"}, {"doas", "-u", "bob", "-s"}, {"sudo", "-u", "bob", "bash"}, {"doas", "zsh"},
		{"nice", "-n", "5", "bash"}, {"nohup", "bash"}, {"setsid", "bash"}, {"bash", "-ic", "exec bash"},
		{"bash", "-c", "exec zsh -l"}, {"sh", "-c", "env bash"},
		// another machine, a container, a multiplexer, su
		{"ssh", "prod"}, {"ssh", "-p", "2222", "-t", "user@prod"}, {"ssh", "prod", "bash", "-l"}, {"mosh", "prod"},
		{"docker", "exec", "-it", "c", "bash"}, {"podman", "run", "-it", "img", "/bin/sh"}, {"kubectl", "exec", "-it", "pod", "--", "bash"},
		{"tmux"}, {"tmux", "new", "-s", "x"}, {"screen"}, {"su"}, {"su", "-", "bob"}, {"nix-shell"}, {"nix-shell", "-p", "go"},
		// a REPL: an interpreter given no program, or -i; a tool's shell given no commands
		{"/usr/bin/python3"}, {"python3", "-q"}, {"nice", "python3", "-q"}, {"python3.12"}, {"python", "-W", "ignore"},
		{"python3", "-i", "setup.py"}, {"ipython"}, {"node"}, {"node", "-r", "dotenv/config"}, {"node", "--interactive", "-e", "x=1"},
		{"irb"}, {"lua5.4"}, {"R"}, {"deno"}, {"deno", "repl"}, {"bun", "repl"}, {"env", "node"},
		{"psql", "mydb"}, {"sqlite3", "app.db"}, {"gdb", "./a.out"}, {"ghci", "Main.hs"}, {"docker", "exec", "-it", "db", "psql"},
		// wrappers (a review's list): they run what follows, or a shell given nothing
		{"timeout", "1d", "bash"}, {"timeout", "-s", "KILL", "5m", "zsh"}, {"script", "-q", "/dev/null"}, {"rlwrap", "bash"},
		{"unbuffer", "bash"}, {"bash", "-c", "cd /tmp && bash"}, {"bash", "-lc", "source venv/bin/activate; exec bash"},
		{"env", "-S", "bash -l"}, {"docker", "run", "-it", "ubuntu"}, {"podman", "run", "--rm", "-it", "-v", "/a:/b", "fedora"},
		{"chroot", "/srv/root"}, {"chroot", "/srv/root", "bash"}, {"bwrap", "--ro-bind", "/", "/", "bash"}, {"firejail"},
		{"firejail", "--net=none", "bash"}, {"unshare", "-r"}, {"nsenter", "-t", "1", "-m"}, {"strace", "-o", "/tmp/t", "bash"},
		{"flock", "/tmp/lock", "bash"}, {"pkexec"}, {"telnet", "host"}, {"bash", "-c", "claude; exec bash"},
		// a second review's: script given a shell, a remote or su command that is one,
		// sudo's options run together, containers entered
		{"script", "-c", "bash", "/dev/null"}, {"script", "-q", "-c", "bash", "/dev/null"}, {"script", "-qc", "zsh -l", "/dev/null"},
		{"script", "-q", "/dev/null", "bash"}, {"ssh", "-t", "prod", "cd /srv && bash"}, {"su", "-c", "bash"}, {"nix-shell", "--run", "bash"},
		{"sudo", "-iu", "postgres"}, {"sudo", "-su", "root"}, {"sudo", "-Hu", "bob", "bash"}, {"toolbox", "enter"}, {"distrobox", "enter", "x"},
		{"systemd-run", "--user", "--shell"}, {"env", "-", "bash"},
	} {
		assert.True(t, IsShell(argv), "%q", argv)
	}
	// Programs, and shells running a program (a script, -c) rather than reading commands.
	for _, argv := range [][]string{
		{"claude"}, {"codex"}, {"gemini"}, {"bashful"}, {}, {""},
		{"python3", "bot.py"}, {"python3", "-u", "chat.py"}, {"python3", "-m", "http.server"}, {"python3", "-c", "print(1)"},
		{"node", "server.js"}, {"node", "-e", "1"}, {"deno", "run", "x.ts"}, {"bun", "x.ts"}, {"bun"}, {"irb", "x.rb"},
		{"psql", "-c", "select 1"}, {"gdb", "-batch", "-ex", "bt"}, {"Rscript", "x.R"}, {"pythonista"}, {"nodemon"},
		{"timeout", "1h", "claude"}, {"script", "-q", "-c", "claude", "/dev/null"}, {"rlwrap", "my-bot"}, {"chroot", "/srv", "make"},
		{"docker", "run", "-it", "img", "my-agent"}, {"docker", "run", "-d", "nginx"}, {"bash", "-c", "cd /srv && exec claude"},
		{"strace", "-f", "claude"}, {"env", "-S", "claude --model x"},
		{"script", "-qc", "claude", "/dev/null"}, {"script", "-qfc", "claude", "/dev/null"}, {"script", "-q", "/dev/null", "claude"},
		{"sudo", "-Hu", "bob", "claude"}, {"ssh", "-t", "prod", "cd /srv && claude"}, {"su", "-c", "make test", "bob"},
		{"bash", "bot.sh", "a"}, {"sh", "-c", "exec-cat"}, {"bash", "--", "script"}, {"zsh", "-l", "chat.zsh"},
		{"bash", "-c", "while read -p 'bot> ' l; do echo $l; done"}, {"env", "claude"}, {"env", "FOO=1", "codex"},
		{"sudo", "-u", "bob", "claude"}, {"busybox", "cat"}, {"ssh", "prod", "claude"},
		{"docker", "run", "-it", "img", "my-agent"}, {"su", "-c", "make", "bob"}, {"nix-shell", "--run", "claude"},
	} {
		assert.False(t, IsShell(argv), "%q", argv)
	}
}
