// Package sysbench holds the whole-program benchmarks of agentmux that `make bench` runs
// next to the in-process ones: agentmux built from cmd/agentmux and run in a PTY, its
// output read back through a vterm.Terminal, and tmux 3.3a measured on the same work in
// the same run, so the ratios hold on whatever machine runs them.
//
// The benchmarks live in the package's _test.go files; the package itself has no code and
// imports nothing. The benchmarks (test code) run programs in PTYs read through vterm with
// internal/ptytest, import vterm to read agentmux's screen and github.com/creack/pty for
// the emulator-only PTY benchmark; nothing may import sysbench.
//
//   - BenchmarkCatColoredLog: `cat` of a 64 MB SGR-coloured log in one agentmux pane vs a
//     detached tmux pane of the same size (agentmux_s, tmux_s, ratio), and vs tmux with a
//     client attached in a PTY read the same way as agentmux (tmux_attached_s), and vs
//     the PTY's own pace, a plain reader that drops the bytes (pty_floor_s, ratio_floor).
//   - BenchmarkPTYThroughput/{plain,sgr,redraw}: the emulator alone (vterm fed from a PTY
//     master) vs a tmux pane, in MB/s.
//   - BenchmarkIdleCPU: CPU of agentmux with four idle panes, unlinked and --link, over a
//     window set by -sysbench.idle (default 10s; for a 30 s window:
//     go test -run '^$' -bench IdleCPU ./internal/sysbench/ -args -sysbench.idle=30s).
//   - BenchmarkMemory: peak and current RSS with four panes that each printed a screenful.
//   - BenchmarkKeystrokeEcho: key written to the outer PTY until its echo from a raw `cat`
//     is on agentmux's screen (median and p95), typed (keys a little over a frame apart)
//     and burst (back to back, bounded by agentmux's 60 fps frame cap).
//   - BenchmarkBurstEnd: a key until the second of two writes 3 ms apart that answer it
//     is on agentmux's screen (median, p95, p99): the end of a burst, drawn at its pause.
//   - BenchmarkStartFirstFrame: from the exec of `agentmux --session NAME CMD` until the
//     pane's first output is on the client's screen (median and max).
package sysbench
