package tty

import (
	"fmt"
	"runtime/debug"

	"github.com/agentmux/agentmux/keys"
	"github.com/agentmux/agentmux/vterm"
)

// Probed is what the outer terminal's answers said: its default colours (handed to
// every pane's emulator for its OSC 10/11 answers) and whether it speaks the kitty
// keyboard protocol. The answers are decoded by keys (Reply's helpers): one grammar.
type Probed struct {
	Colors vterm.Colors
	Kitty  bool
	// Answers counts the answers seen.
	Answers int
}

// Apply folds one answer into p and reports whether it was the DA1 sentinel that ends
// the probe. Answers arriving later (a terminal's theme changed) go through it too.
func (p *Probed) Apply(r keys.Reply) (sentinel bool) {
	p.Answers++
	if n, red, green, blue, ok := r.Color(); ok {
		c := vterm.RGBColor{R: red, G: green, B: blue}
		switch n {
		case 10:
			p.Colors.FG = c
		case 11:
			p.Colors.BG = c
		}
		return false
	}
	if _, ok := r.KittyFlags(); ok {
		p.Kitty = true
		return false
	}
	return r.PrimaryDA()
}

// PanicError is a panic caught in one of agentmux's goroutines, with its stack, returned
// after the terminal has been restored.
type PanicError struct {
	Value any
	Stack []byte
}

// Error describes the panic and where it happened.
func (e *PanicError) Error() string { return fmt.Sprintf("panic: %v\n%s", e.Value, e.Stack) }

// Recovered wraps a recovered value r with the current stack.
func Recovered(r any) *PanicError { return &PanicError{Value: r, Stack: debug.Stack()} }
