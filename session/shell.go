package session

import (
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"time"

	"github.com/agentmux/agentmux/relay"
)

// A pane that runs an interactive shell runs as commands whatever is typed into it, so
// only the person links it (LinkShell), sends or reminds it (intoShell), and no relay
// command reaches it (relay.Open.Shell). IsShell tells such a pane by its command line:
// a shell reading the terminal, also behind the launchers people put in front of one
// (env, sudo -s, busybox sh, nice, timeout), a login to another machine (ssh host), a
// shell in a container (docker exec -it c bash, or a REPL there), or a terminal
// multiplexer or su. A REPL (python3, node, irb, psql, gdb: a language's or a tool's
// own shell, each able to run a command) runs what is typed as code, so it counts as
// one. A program (an agent CLI, a chat loop a shell or an interpreter runs as a script)
// is no shell. runsShell also reads the program in the pane's terminal's foreground.

// shells are the base names of interactive shells.
var shells = map[string]bool{
	"sh": true, "bash": true, "zsh": true, "fish": true, "nu": true, "dash": true, "ksh": true,
	"mksh": true, "pdksh": true, "oksh": true, "yash": true, "tcsh": true, "csh": true, "ash": true,
	"pwsh": true, "powershell": true, "elvish": true, "xonsh": true, "ion": true,
	"rc": true, "es": true, "oil": true, "osh": true, "ysh": true, "murex": true, "cmd": true, "cmd.exe": true,
}

// shellHosts run a shell for what is typed, whatever follows them: terminal
// multiplexers, su and login, nix-shell.
var shellHosts = map[string]bool{
	"tmux": true, "screen": true, "zellij": true, "byobu": true, "abduco": true, "dtach": true,
	"su": true, "login": true, "nix-shell": true, "machinectl": true, "telnet": true,
}

// remoteShells log in to another machine: a shell there unless given a command.
var remoteShells = map[string]bool{"ssh": true, "mosh": true, "et": true}

// containerTools run a program in a container: a shell when one is named among
// their words (docker exec -it c bash).
var containerTools = map[string]bool{
	"docker": true, "podman": true, "nerdctl": true, "kubectl": true, "oc": true, "lxc": true,
	"incus": true, "distrobox": true, "toolbox": true, "flatpak-spawn": true, "systemd-run": true,
	"bwrap": true, "firejail": true, "systemd-nspawn": true, "proot": true,
}

// containerRunsShell reports whether a container tool given args runs its image's own
// command in a terminal (docker run -it IMAGE, no command after the image): most
// images' is a shell. firejail given nothing runs the user's.
func containerRunsShell(tool string, args []string) bool {
	if tool == "firejail" {
		return !slices.ContainsFunc(args, func(a string) bool { return !strings.HasPrefix(a, "-") })
	}
	if len(args) == 0 || args[0] != "run" {
		return false
	}
	interactive, positional := false, 0
	for i := 1; i < len(args); i++ {
		switch a := args[i]; {
		case a == "-i" || a == "-it" || a == "-ti" || a == "--interactive" || a == "--interactive=true":
			interactive = true
		case len(a) == 2 && a[0] == '-' && strings.ContainsRune("evpwuhlmcaL", rune(a[1])):
			i++ // its value
		case strings.HasPrefix(a, "--") && !strings.Contains(a, "=") && !containerFlags[a]:
			i++
		case strings.HasPrefix(a, "-"):
		default:
			positional++
		}
	}
	return interactive && positional == 1
}

// containerFlags are container tools' long options that take no value.
var containerFlags = map[string]bool{
	"--rm": true, "--tty": true, "--privileged": true, "--init": true, "--detach": true,
	"--read-only": true, "--publish-all": true, "--no-healthcheck": true, "--quiet": true,
}

// repls are interpreters that read code from the terminal when given no program: no
// script and no code to run (-c, -e, -m), or -i. Versioned names (python3.12, lua5.4)
// count by the name before the version.
var repls = map[string]bool{
	"python": true, "pypy": true, "ipython": true, "bpython": true, "ptpython": true,
	"node": true, "nodejs": true, "irb": true, "pry": true, "julia": true, "R": true,
	"lua": true, "luajit": true, "ocaml": true, "utop": true, "scala": true, "racket": true,
	"guile": true, "sbcl": true, "clisp": true, "tclsh": true, "wish": true, "swipl": true,
	"octave": true, "erl": true, "iex": true, "clj": true, "clojure": true, "jshell": true,
	"groovysh": true, "kotlinc": true,
}

// replSubcommands are the tools whose REPL is a subcommand (deno repl, bun repl),
// deno's also what it runs given nothing (bun given nothing says how to use it).
var replSubcommands = map[string]bool{"deno": true, "bun": true}

// toolShells read commands from the terminal whatever file they are given (a database,
// a program to debug), each with a way out to the system's shell (\!, .shell, shell),
// unless given commands to run instead.
var toolShells = map[string]bool{
	"ghci": true, "gdb": true, "lldb": true, "sqlite3": true, "psql": true, "mysql": true,
	"mariadb": true, "mongosh": true, "duckdb": true,
}

// replCode are the interpreters' options that give them code to run, or commands to
// run and leave (a database's -c, a debugger's -batch): no REPL then, unless with -i.
var replCode = map[string]bool{
	"-c": true, "-e": true, "-m": true, "-p": true, "--eval": true, "--print": true,
	"--command": true, "--execute": true, "-f": true, "--file": true, "-batch": true, "--batch": true,
}

// replValued are the interpreters' options whose value is the next argument (python's
// -W and -X, a module or a folder to load first).
var replValued = map[string]bool{"-W": true, "-X": true, "-r": true, "--require": true, "-I": true}

// isREPL reports whether the program b (a base name) given args reads code from the
// terminal (see repls).
func isREPL(b string, args []string) bool {
	name := strings.TrimRight(b, "0123456789.")
	switch {
	case replSubcommands[b]:
		return len(args) == 0 && b == "deno" || len(args) > 0 && args[0] == "repl"
	case toolShells[b]:
		return !slices.ContainsFunc(args, func(a string) bool { return replCode[a] })
	case !repls[name]:
		return false
	}
	for i := 0; i < len(args); i++ {
		switch a := args[i]; {
		case a == "-i" || a == "--interactive":
			return true
		case replValued[a]:
			i++
		case replCode[a], !strings.HasPrefix(a, "-"):
			return false // code to run, or a script
		}
	}
	return true
}

// optionWithValue are the shells' options whose value is the next argument.
var optionWithValue = map[string]bool{"-o": true, "+o": true, "-O": true, "+O": true, "--rcfile": true, "--init-file": true}

// IsShell reports whether argv runs an interactive shell (see above): a shell by its
// program's base name ("-bash", a login shell's name, and "bash.exe" count) reading its
// commands from the terminal, that is with options only (`bash`, `zsh -l`), or -i or
// -s, or given -c a command that is itself one (`bash -c 'exec zsh'`). A shell given a
// script or another -c command runs that program instead (a chat loop written in
// bash): what is typed goes to the program.
func IsShell(argv []string) bool {
	argv = unwrapLauncher(argv)
	if len(argv) == 0 {
		return false
	}
	b := baseName(argv[0])
	args := argv[1:]
	switch {
	case shells[b]:
		return readsTerminal(args)
	case b == "script":
		return scriptRunsShell(args)
	case (b == "toolbox" || b == "distrobox") && len(args) > 0 && args[0] == "enter",
		b == "systemd-run" && slices.Contains(args, "--shell"):
		return true
	case shellHosts[b]:
		return !hasCommandFlag(args) || b == "tmux" || b == "screen" || b == "zellij" || b == "byobu"
	case remoteShells[b]:
		return remoteIsShell(args)
	case containerTools[b]:
		if containerRunsShell(b, args) {
			return true
		}
		for i, w := range args {
			if shells[baseName(w)] || isREPL(baseName(w), args[i+1:]) {
				return true
			}
		}
	default:
		return isREPL(b, args)
	}
	return false
}

// baseName is a program's name as IsShell compares it: no folder, no leading '-' (a
// login shell's), no ".exe".
func baseName(w string) string {
	b := strings.TrimPrefix(filepath.Base(w), "-")
	if shells[b] {
		return b
	}
	return strings.TrimSuffix(b, ".exe")
}

// readsTerminal reports whether a shell given args reads its commands from the
// terminal.
func readsTerminal(args []string) bool {
	for i := 0; i < len(args); i++ {
		switch a := args[i]; {
		case optionWithValue[a]:
			i++ // its value is no script
		case a == "-i" || a == "-s" || a == "--interactive":
			return true
		case a == "--":
			return false // a script follows
		case a == "-c" || a == "-Command" || len(a) > 2 && a[0] == '-' && a[1] != '-' && strings.ContainsRune(a, 'c'):
			// -c CMD (alone, or among short options: -ic, -lc): the command is the program
			return i+1 < len(args) && commandRunsShell(args[i+1])
		case a == "-File" || !strings.HasPrefix(a, "-") && !strings.HasPrefix(a, "+"):
			return false
		}
	}
	return true
}

// commandSeparators split a shell's -c command into the simple commands it runs.
var commandSeparators = regexp.MustCompile(`[;&|\n(){}]+`)

// commandRunsShell reports whether a shell's -c command runs an interactive shell among
// its commands (cd /tmp && bash, source venv/bin/activate; exec bash), as far as
// splitting it at ; & | and newlines tells: no quoting is read, so a separator quoted
// counts too, which errs towards a shell.
func commandRunsShell(cmd string) bool {
	for _, part := range commandSeparators.Split(cmd, -1) {
		words := strings.Fields(part)
		for len(words) > 0 && (words[0] == "then" || words[0] == "do" || words[0] == "else" || words[0] == "!") {
			words = words[1:]
		}
		if IsShell(words) {
			return true
		}
	}
	return false
}

// hasCommandFlag reports whether args give su, script or nix-shell a command to run
// (-c CMD, --command, --run): that command, not a shell, then takes the terminal.
func hasCommandFlag(args []string) bool {
	for i, a := range args {
		switch a {
		case "-c", "--command", "--run", "--session-command":
			// the command runs instead, unless it is a shell itself (su -c bash)
			return i+1 >= len(args) || !commandRunsShell(args[i+1])
		}
	}
	return false
}

// scriptRunsShell reports whether script (recording a terminal) given args runs a
// shell: its -c command when given one (also among short options: -qc), else the
// command after the file (macOS's script FILE COMMAND…), else the user's shell.
func scriptRunsShell(args []string) bool {
	var positional []string
	for i := 0; i < len(args); i++ {
		a := args[i]
		switch {
		case a == "-c" || a == "--command" || len(a) > 2 && a[0] == '-' && a[1] != '-' && strings.HasSuffix(a, "c"):
			return i+1 >= len(args) || commandRunsShell(args[i+1])
		case strings.HasPrefix(a, "--command="):
			return commandRunsShell(strings.TrimPrefix(a, "--command="))
		case a == "-t" || a == "-T" || a == "-B" || a == "-I" || a == "-O" || a == "-E" || a == "-m":
			i++ // their values (timing, log files, echo, type)
		case strings.HasPrefix(a, "-"):
		default:
			positional = append(positional, a)
		}
	}
	return len(positional) <= 1 || IsShell(positional[1:])
}

// sshValued are ssh's options that take a value (the next word).
var sshValued = "bcDEeFIiJLlmOopQRSWw"

// remoteIsShell reports whether ssh (mosh, et) given args opens a shell on the other
// machine: no command after the host, or a command that is one.
func remoteIsShell(args []string) bool {
	for i := 0; i < len(args); i++ {
		a := args[i]
		switch {
		case a == "--":
			continue
		case len(a) == 2 && a[0] == '-' && strings.ContainsRune(sshValued, rune(a[1])):
			i++
		case strings.HasPrefix(a, "-"):
		default: // the host; what follows is the command
			rest := args[i+1:]
			return len(rest) == 0 || commandRunsShell(strings.Join(rest, " "))
		}
	}
	return false
}

// launcher is how a program that runs a command given after its own words reads them.
type launcher struct {
	valued string // its short options whose value is the next word
	words  int    // its own words before the command (timeout's duration, chroot's folder)
	// shell: given no command, it runs a shell (chroot, unshare, nsenter, pkexec).
	shell bool
}

// launchers are the programs people put in front of the one a pane runs: what they
// run is what IsShell judges.
var launchers = map[string]launcher{
	"env": {valued: "uCS"}, "sudo": {valued: "ugCDhpUrtTa"}, "doas": {valued: "uC"},
	"nice": {valued: "n"}, "ionice": {valued: "cnpt"}, "nohup": {}, "setsid": {},
	"stdbuf": {valued: "ioe"}, "exec": {valued: "a"}, "command": {}, "time": {valued: "fo"},
	"chpst": {valued: "ugUbn/lmdofcpr"}, "timeout": {valued: "sk", words: 1},
	"flock": {valued: "wE", words: 1}, "strace": {valued: "abeEIoOpPsSuX"}, "ltrace": {valued: "aAeEnopsSuX"},
	"rlwrap": {valued: "bCfHlPsSw"}, "unbuffer": {}, "caffeinate": {valued: "tw"}, "taskset": {words: 1},
	"chroot": {words: 1, shell: true}, "unshare": {valued: "SGR", shell: true},
	"nsenter": {valued: "tSGrw", shell: true}, "pkexec": {shell: true}, "systemd-inhibit": {},
}

// longValued are the launchers' long options whose value is the next word (those
// written --opt=value are one word).
var longValued = map[string]bool{
	"--user": true, "--group": true, "--signal": true, "--kill-after": true, "--chdir": true,
	"--split-string": true, "--unset": true, "--output": true, "--target": true, "--what": true, "--why": true,
}

// unwrapLauncher returns the command the launchers in front of it run (launchers,
// busybox), repeatedly; sudo -s or -i, and a launcher that runs a shell given no
// command, is a shell itself (returned as "sh"). env -S splits its value into the
// command's first words.
func unwrapLauncher(argv []string) []string {
	for range 8 { // launchers in front of launchers, not for ever
		if len(argv) == 0 {
			return nil
		}
		b, args := baseName(argv[0]), argv[1:]
		if b == "busybox" || b == "toybox" {
			argv = args // the applet
			continue
		}
		l, ok := launchers[b]
		if !ok {
			return argv
		}
		i, own := 0, 0
	words:
		for i < len(args) {
			switch a := args[i]; {
			case a == "--":
				i++
				break words
			case b == "env" && (a == "-S" || a == "--split-string") && i+1 < len(args):
				return unwrapLauncher(append(strings.Fields(args[i+1]), args[i+2:]...))
			case (b == "sudo" || b == "doas") && (a == "--shell" || a == "--login" ||
				len(a) > 1 && a[0] == '-' && a[1] != '-' && strings.ContainsAny(a[1:], "si")):
				return []string{"sh"} // the user's shell (-s, -i, also among others: -iu bob)
			case len(a) >= 2 && a[0] == '-' && a[1] != '-' && strings.ContainsRune(l.valued, rune(a[len(a)-1])), longValued[a]:
				i += 2 // an option whose value follows, alone or last among others (-Hu bob)
			case b == "env" && a == "-":
				i++ // an empty environment
			case strings.HasPrefix(a, "-") && a != "-", b == "env" && strings.Contains(a, "="):
				i++
			case own < l.words:
				i, own = i+1, own+1
			default:
				break words
			}
		}
		for ; own < l.words && i < len(args); own++ {
			i++ // after --
		}
		argv = args[min(i, len(args)):]
		if len(argv) == 0 && l.shell {
			return []string{"sh"}
		}
	}
	return argv
}

// foregrounder is a Process that says which program reads its terminal now: the
// command line of its foreground process group's leader (*ptyhost.Proc).
type foregrounder interface{ ForegroundCommand() []string }

// runsShell reports whether pane p runs a shell now: its command line is one (IsShell),
// or the program in its terminal's foreground is (a shell started later: the agent
// exited into `bash -c 'claude; exec bash'`, a wrapper IsShell does not know, a `:sh`).
// Loop only: it reads the foreground's command line from the system each time.
func runsShell(p *pane) bool {
	if IsShell(p.argv) {
		return true
	}
	return foregroundShell(p) != ""
}

// foregroundShell is the program of pane p's terminal's foreground when it is a shell
// (by IsShell), else "".
func foregroundShell(p *pane) string {
	f, ok := p.proc.(foregrounder)
	if !ok || p.exited {
		return ""
	}
	if argv := f.ForegroundCommand(); IsShell(argv) {
		return baseName(argv[0])
	}
	return ""
}

// checkShell tells the relay when pane p came to run a shell, or stopped: read after
// each output it printed (a shell that takes the terminal prints its prompt). Loop only.
func (s *Session) checkShell(p *pane, now time.Time) {
	if ps, ok := s.rl.Pane(p.id); ok && ps.Group == 0 {
		p.shellOK = false // unlinked, by whoever: the person's word was for that link
	}
	program := p.program()
	on := IsShell(p.argv)
	if !on {
		program = foregroundShell(p)
		on = program != ""
	}
	if on == p.shellNow {
		return
	}
	p.shellNow = on
	s.log.Info("the pane's shell changed", "pane", p.id, "shell", on, "program", program)
	s.act(s.rl.Handle(relay.Shell{Pane: p.id, On: on, Kept: p.shellOK, Program: program}, now))
}
