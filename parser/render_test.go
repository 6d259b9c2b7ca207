package parser

// This file regenerates testdata/screens/*.txt, the pre-rendered screens the fixture tests
// read. It is skipped unless -update is given, and needs tmux: every sample replays a prefix
// of a recorded agent stream (../testdata/agent-streams/NAME.raw, cut at a read
// boundary of NAME.chunks.json) into a fresh 120x40 tmux pane and captures it. A cursor
// position query after the replay makes sure tmux parsed every byte before the capture.
//
//	go test ./parser -run TestRenderScreens -update

import (
	"bytes"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

var update = flag.Bool("update", false, "regenerate testdata/screens with tmux")

const fixtureDir = "../testdata/agent-streams"

// fixtureNames are the recorded turns rendered into testdata/screens.
var fixtureNames = []string{"claude-code-turn", "claude-code-fullscreen-turn", "codex-turn", "gemini-turn"}

var titleRE = regexp.MustCompile(`\x1b\][02];([^\x07\x1b]*)(?:\x07|\x1b\\)`)

func TestRenderScreens(t *testing.T) {
	if !*update {
		t.Skip("run with -update to regenerate testdata/screens (needs tmux)")
	}
	if _, err := exec.LookPath("tmux"); err != nil {
		t.Fatalf("tmux: %v", err)
	}
	for _, name := range fixtureNames {
		if err := renderFixture(name); err != nil {
			t.Fatalf("render %s: %v", name, err)
		}
	}
}

type chunkFile struct {
	Chunks [][2]float64 `json:"chunks"`
	Input  [][2]any     `json:"input"`
}

func renderFixture(name string) error {
	raw, err := os.ReadFile(filepath.Join(fixtureDir, name+".raw"))
	if err != nil {
		return err
	}
	js, err := os.ReadFile(filepath.Join(fixtureDir, name+".chunks.json"))
	if err != nil {
		return err
	}
	var cf chunkFile
	if err := json.Unmarshal(js, &cf); err != nil {
		return fmt.Errorf("chunks: %w", err)
	}
	// Sample after the last read boundary of every quarter second.
	var cuts []int
	var times []float64
	off := 0
	for i, c := range cf.Chunks {
		off += int(c[1])
		last := i == len(cf.Chunks)-1
		if last || int(cf.Chunks[i+1][0]*4) != int(c[0]*4) {
			cuts = append(cuts, off)
			times = append(times, c[0])
		}
	}
	if off != len(raw) {
		return fmt.Errorf("chunks add up to %d bytes, file has %d", off, len(raw))
	}
	var out bytes.Buffer
	fmt.Fprintf(&out, "# %s: rendered by `go test ./parser -run TestRenderScreens -update` (tmux, 120x40)\n", name)
	fmt.Fprintf(&out, "# from %s.raw; each section is one sample: history rows then the 40 screen rows.\n", name)
	prev := ""
	for i, cut := range cuts {
		sec, err := renderPrefix(raw[:cut])
		if err != nil {
			return fmt.Errorf("t=%.3f: %w", times[i], err)
		}
		title := ""
		if m := titleRE.FindAllSubmatch(raw[:cut], -1); len(m) > 0 {
			title = string(m[len(m)-1][1])
		}
		body := fmt.Sprintf("title=%s %s", title, sec)
		if body == prev {
			continue
		}
		prev = body
		fmt.Fprintf(&out, "@@ t=%.3f %s", times[i], body)
	}
	return os.WriteFile(filepath.Join("testdata", "screens", name+".txt"), out.Bytes(), 0o644)
}

// renderCount numbers the tmux servers, one per sample, so a server still shutting down
// never meets the next sample.
var renderCount int

// renderPrefix replays b in a fresh tmux pane and returns "alt=A hist=H\n" and the rows.
func renderPrefix(b []byte) (string, error) {
	dir, err := os.MkdirTemp("", "render")
	if err != nil {
		return "", err
	}
	defer os.RemoveAll(dir)
	f := filepath.Join(dir, "in.raw")
	if err := os.WriteFile(f, b, 0o644); err != nil {
		return "", err
	}
	renderCount++
	sock := fmt.Sprintf("agentmux-render-%d-%d", os.Getpid(), renderCount)
	tm := func(args ...string) (string, error) {
		cmd := exec.Command("tmux", append([]string{"-L", sock, "-f", "/dev/null"}, args...)...)
		var stderr bytes.Buffer
		cmd.Stderr = &stderr
		out, err := cmd.Output()
		if err != nil {
			err = fmt.Errorf("%w: %s", err, strings.TrimSpace(stderr.String()))
		}
		return string(out), err
	}
	script := fmt.Sprintf(`stty raw -echo; cat %q; printf '\033[6n'; IFS= read -r -d R x; tmux -L %s wait-for -S rendered; exec sleep 600`, f, sock)
	if _, err := tm("new-session", "-d", "-x", "120", "-y", "40", "-s", "r", script); err != nil {
		return "", fmt.Errorf("new-session: %w", err)
	}
	defer tm("kill-server")
	if _, err := tm("wait-for", "rendered"); err != nil {
		return "", fmt.Errorf("wait-for: %w", err)
	}
	info, err := tm("display", "-p", "-t", "r", "#{alternate_on} #{history_size}")
	if err != nil {
		return "", fmt.Errorf("display: %w", err)
	}
	var alt, hist int
	if _, err := fmt.Sscan(info, &alt, &hist); err != nil {
		return "", fmt.Errorf("display %q: %w", info, err)
	}
	args := []string{"capture-pane", "-p", "-t", "r"}
	if alt == 0 {
		args = append(args, "-S", "-")
	}
	rows, err := tm(args...)
	if err != nil {
		return "", fmt.Errorf("capture: %w", err)
	}
	joined, err := tm(append(args, "-J")...)
	if err != nil {
		return "", fmt.Errorf("capture -J: %w", err)
	}
	lines := strings.Split(strings.TrimSuffix(rows, "\n"), "\n")
	if n := len(strings.Split(strings.TrimSuffix(joined, "\n"), "\n")); n != len(lines) {
		return "", fmt.Errorf("soft-wrapped rows present (%d rows, %d joined): extend the format", len(lines), n)
	}
	if alt == 1 {
		hist = 0
	}
	if len(lines) != hist+40 {
		return "", fmt.Errorf("captured %d rows, want %d", len(lines), hist+40)
	}
	var sb strings.Builder
	fmt.Fprintf(&sb, "alt=%d hist=%d\n", alt, hist)
	for _, l := range lines {
		sb.WriteString(strings.TrimRight(l, " "))
		sb.WriteByte('\n')
	}
	return sb.String(), nil
}
