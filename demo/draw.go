package demo

import "time"

// entryKind is what a transcript entry is.
type entryKind int

const (
	entryUser  entryKind = iota // a message the agent was given
	entryReply                  // the agent's answer
	entryNote                   // a notice, such as an interrupted turn
)

// entry is one item of the transcript.
type entry struct {
	kind entryKind
	text string
	done bool // a reply: its last lines are in (an interrupted one never is)
}

// renderer draws the agent's state in one screen style. Every method writes to a.out.
// Three kinds draw every style: mainDraw (a main-screen program: transcript rows printed
// once above a live region redrawn in place), frameDraw (a full-screen program: the whole
// screen composed and written as one frame) and lineDraw (a line REPL).
type renderer interface {
	// begin enters the style's terminal modes and draws the first screen.
	begin(a *agent)
	// frame brings the screen up to date with the agent's state.
	frame(a *agent)
	// resized redraws everything after the terminal size changed.
	resized(a *agent)
	// raw prints filler output (the flood) and redraws.
	raw(a *agent, p []byte)
	// end leaves the style's modes, leaving the terminal as it found it.
	end(a *agent)
	// title is the window title for the current state; "" sets none.
	title(a *agent) string
	// tickEvery is the spinner period while busy; 0 means no animation.
	tickEvery() time.Duration
	// corpusRows are the rows the corpus answers repeat to trip a relay: the banner's
	// and the empty prompt's.
	corpusRows(a *agent) (banner, prompt string)
	// fits reports whether answer lines must fit the screen's width (a full-screen
	// program cuts, it does not wrap).
	fits() bool
}

// newRenderer returns the renderer of style s.
func newRenderer(s Style) renderer {
	switch s {
	case Alt:
		return &frameDraw{look: altLook{}}
	case Full:
		return &frameDraw{look: fullLook{}}
	case Clear:
		return &frameDraw{look: clearLook{}}
	case Prefixed:
		return &frameDraw{look: prefixedLook{}}
	case Plain:
		return &lineDraw{}
	case Line:
		return &lineDraw{cooked: true}
	case Bare:
		return &mainDraw{look: bareLook{}}
	case Boxed:
		return &mainDraw{look: boxedLook{}}
	}
	return &mainDraw{look: inlineLook{}}
}
