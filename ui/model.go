package ui

import (
	"log/slog"
	"slices"
	"time"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/lipgloss"

	"github.com/agentmux/agentmux/keys"
	"github.com/agentmux/agentmux/session"
	"github.com/agentmux/agentmux/tty"
	"github.com/agentmux/agentmux/vterm"
)

// inputMode is the state of the prefix-key state machine.
type inputMode uint8

const (
	modeNormal  inputMode = iota // keys go to the focused pane (or its scroll view)
	modePrefix                   // the prefix was typed: the next key is a command
	modeLink                     // prefix l was typed: the next key is a pane number
	modeConfirm                  // a y/n question is on the status line
	modeHelp                     // the help overlay is shown
	modeDigit                    // a first pane digit waits for a second (panenum.go)
	modeSearch                   // copy mode's search text is typed on the status line
	modePrompt                   // a line is typed on the status line (panes.go)
)

// confirmation is a pending y/n question and what "y" does (and "d", when detach is
// set: the end-or-detach question).
type confirmation struct {
	prompt string
	yes    func() tea.Cmd
	detach func() tea.Cmd
	// fresh, when set, is f's answer: a restored pane's program started on a new
	// conversation instead of resuming its own (prefix R).
	fresh func() tea.Cmd
}

// paneView is the ui's drawing state for one pane: its member (as the session last
// described it), its screen, its last snapshot, its rendered rows and its scroll
// position. Owned by the ui goroutine.
type paneView struct {
	member  session.Member
	screen  *session.Screen
	snap    *vterm.Snapshot
	cache   lineCache
	rows    []string      // rendered content rows, one per content line
	lines   []*vterm.Line // the lines rows were rendered from (for clipped redraws)
	content rect          // where the rows go on the outer screen
	dirty   bool          // output arrived: take a snapshot at the next frame
	stale   bool          // rows must be rebuilt from the snapshot
	// syncSince is when the pane was first seen mid synchronized update (zero: not).
	syncSince time.Time
	scroll    *scrollState
	// treeState is what the pane's own worktree holds, as git last said (diffview.go).
	treeState string
	// bell flags an alert raised while the pane was not focused, until it is.
	bell bool
	// top and bottom are the cached border rows; borderKey says what they were drawn for.
	top, bottom string
	borderKey   borderKey
}

// exited reports whether the pane's program has exited.
func (v *paneView) exited() bool { return v.member.State == session.Exited }

// borderKey is everything a pane's border rows depend on.
type borderKey struct {
	w       int
	focused bool
	name    string
	state   string // what the border says about the pane (borderState)
	after   string // where it runs, how it was restored (" · " between)
	kind    stateKind
	bell    bool   // the pane rang while not focused
	ptitle  string // the title the pane's program set (OSC 0/2)
}

// presenter draws frames on the outer terminal (tty.Screen); nil in tests.
type presenter interface {
	Present(lines []string, w, h int, cur tty.Cursor)
	// Send writes seq (OSC 52) after the frame being drawn, never inside one.
	Send(seq string)
}

var _ presenter = (*tty.Screen)(nil)

// modelOptions are the model's dependencies that differ between the real program and
// tests.
type modelOptions struct {
	width, height int
	renderer      *lipgloss.Renderer // lipgloss renderer (tests pin its colour profile)
	now           func() time.Time   // the clock for frame throttling
	screen        presenter          // where frames go; nil: only View
	probed        tty.Probed         // what the terminal's answers said at start-up
	attach        attachment         // how the terminal is attached (zero: fixed, in control)
}

// model is the bubbletea model: it renders the session's snapshots and forwards input
// to it. Every field is owned by bubbletea's event-loop goroutine (Update and View).
type model struct {
	cfg    Config
	s      *session.Session
	sub    *session.Subscription
	log    *slog.Logger
	prefix keys.Key
	st     styles
	now    func() time.Time
	probed tty.Probed

	paneLayout   // the panes and where they are
	modelModes   // the input mode and the overlays over the panes
	promptInput  // what the person is typing to agentmux itself
	presentation // the frame, the status line and the screen writer

	quitting bool   // tea.Quit has been returned
	ending   Ending // how the program ended (EndQuit, EndDetach…)
	err      error  // why the program quit, when it was an error
	att      attachment
}

// paneLayout is the panes the model shows and where: the screen's size, the layout
// tree, the visible rectangles, focus and zoom. slots is the layout's order where prefix
// { } swapped panes (panes.go).
type paneLayout struct {
	width, height int
	tree          *node
	order         []int      // the panes, by number
	rects         []paneRect // visible panes and their rectangles (border included)
	focus         int
	zoomed        bool
	views         map[int]*paneView
	slots         []int
}

// modelModes is the input mode and what it shows over the panes: the help, the relay
// log, the diff view, a question, copy and search state, a drag under way.
type modelModes struct {
	mode      inputMode
	helpTop   int       // the first help row shown when the help is taller than the screen
	logv      logView   // the relay log overlay (relaylog.go)
	diffv     *diffView // prefix D's view of a pane's changes (diffview.go)
	confirm   *confirmation
	searchBuf string     // the search text being typed (modeSearch)
	copied    string     // the text last copied to the clipboard
	drag      *dragState // a left-button drag over a pane that does not take the mouse
	mouseDown int        // pane that received a forwarded button press (drags go there)
}

// promptInput is what the person types to agentmux rather than to a pane: a pending
// pane-number digit, the line being typed in modePrompt and the command lines prefix c
// took; sync sends typing to every pane (prefix S). See panes.go.
type promptInput struct {
	pending     pendingDigit
	digitGen    uint64
	prompt      *linePrompt
	newHistory  []string
	linkHistory []string // the names prefix l then a name took (NAME@SESSION)
	sync        bool
}

// presentation is the frame and what is drawn with it: when the next frame may be drawn
// (frame.go), the composed frame and its rows, where it leaves the outer cursor, the
// status line's messages, and the writer that puts it on the screen.
type presentation struct {
	pace       framePacer
	ticks      *frameTimer // fires when pace says the next frame is due; nil in tests that deliver frames themselves
	fr         frameState
	frame      string
	frameLines []string   // frame split in rows, handed to the screen writer
	cursor     tty.Cursor // where the frame leaves the outer cursor (outerCursor)
	lineCap    int        // longest row built so far, to size the next ones
	scr        presenter
	status     statusMsg // the message on the status line (status.go)
	relaySum   string    // the relay status shown on the status line
	// askedBatch are the panes that began to need the person in the events being
	// handled: one terminal notification names them all (notify.go).
	askedBatch []session.Member
}

// attachment is how the model's terminal is attached to the session server. The zero
// value cannot detach and always sets the panes' sizes (as the terminal a session runs
// in, which the server tells so).
type attachment struct {
	name       string // the session's name, for the detach line and the question
	detachable bool   // prefix d detaches; prefix q asks end, detach or cancel
	// readOnly: the terminal watches: it may change its own view (actions.go's
	// watchable), nothing reaches a pane; toldDropped once it was told so.
	readOnly, toldDropped bool
	control               func() bool // whether this terminal sets the panes' sizes (nil: always)
	active                func()      // called on every input from this terminal (nil: nothing)
}

// controls reports whether this terminal sets the panes' sizes.
func (a attachment) controls() bool { return a.control == nil || a.control() }

var _ tea.Model = (*model)(nil)

// newModel builds the model over the session's panes and subscribes to its events.
func newModel(cfg Config, s *session.Session, o modelOptions) *model {
	if o.now == nil {
		o.now = time.Now
	}
	if o.renderer == nil {
		o.renderer = lipgloss.DefaultRenderer()
	}
	log := cfg.Logger
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	m := &model{
		cfg:    cfg,
		s:      s,
		sub:    s.Subscribe(1 << 16),
		log:    log,
		prefix: cfg.Prefix,
		st:     newStyles(o.renderer),
		now:    o.now,
		probed: o.probed,
		paneLayout: paneLayout{
			width:  max(o.width, 1),
			height: max(o.height, 1),
			views:  make(map[int]*paneView),
		},
		presentation: presentation{
			scr:  o.screen,
			pace: framePacer{interval: frameInterval, echoGap: echoGap, echoWindow: echoWindow},
		},
		att: o.attach,
	}
	for _, mb := range s.Members() {
		if mb.External {
			continue
		}
		sc := s.Screen(mb.Pane)
		if sc == nil {
			continue
		}
		m.order = append(m.order, mb.Pane)
		m.views[mb.Pane] = &paneView{member: mb, screen: sc, snap: sc.Snapshot(), stale: true}
		if m.focus == 0 {
			m.focus = mb.Pane
		}
	}
	m.takeView(s.View())
	m.relaySum = s.Status().Summary
	if left := m.shellPanes(); s.LinkedAtStart() && left != "" {
		m.setStatus("--link left out " + left + ": a shell would run agents' answers as commands (prefix l then its number links it, asking first)")
	}
	if cfg.Notice != nil {
		if n := cfg.Notice(); n != "" {
			m.setStatus(n)
		}
	}
	m.relayout()
	return m
}

// Init starts reading each pane's worktree state. Input and the session's events come
// from the forwarders runModel starts (msgs.go), not from Cmds.
func (m *model) Init() tea.Cmd {
	var cmds []tea.Cmd
	for _, v := range m.views {
		cmds = append(cmds, readTree(v))
	}
	return tea.Batch(cmds...)
}

// relayout rebuilds the layout tree from the live panes, gives every visible pane its
// rectangle and resizes its emulator and PTY to the content area inside the border.
func (m *model) relayout() {
	m.tree = buildLayout(m.cfg.Layout, m.placed())
	m.tree.weigh(func(id int) [2]int {
		if v := m.views[id]; v != nil {
			return v.member.Share
		}
		return [2]int{}
	})
	area := rect{0, 0, m.width, max(m.height-1, 0)}
	if m.zoomed && m.views[m.focus] != nil {
		m.rects = []paneRect{{Pane: m.focus, R: area}}
	} else {
		m.zoomed = false
		m.rects = m.tree.rects(area)
	}
	for _, pr := range m.rects {
		v := m.views[pr.Pane]
		if v == nil {
			continue
		}
		c := rect{pr.R.X + 1, pr.R.Y + 1, max(pr.R.W-2, 0), max(pr.R.H-2, 0)}
		if c != v.content {
			v.content = c
			v.stale = true
		}
		if m.att.controls() {
			m.s.Resize(pr.Pane, max(c.W, 1), max(c.H, 1))
		}
		v.snap = v.screen.Snapshot()
		v.stale = true
	}
	m.fr.invalidate()
	if m.att.controls() {
		m.s.SetView(m.view())
	}
}

// takeView starts the layout from the session's view (a restored session's, or what
// another terminal left): its kind, the panes' order and the zoomed pane.
func (m *model) takeView(v session.View) {
	if k, err := ParseLayout(v.Layout); err == nil && v.Layout != "" {
		m.cfg.Layout = k
	}
	if len(v.Order) > 0 {
		m.slots = slices.Clone(v.Order)
	}
	if m.views[v.Zoomed] != nil && len(m.order) > 1 {
		m.focus, m.zoomed = v.Zoomed, true
	}
}

// view is the layout as the session keeps it (takeView).
func (m *model) view() session.View {
	v := session.View{Layout: m.cfg.Layout.String(), Order: m.placed()}
	if v.Layout == LayoutAuto.String() {
		v.Layout = ""
	}
	if m.zoomed {
		v.Zoomed = m.focus
	}
	return v
}

// setFocus moves the focus to pane id (no focus-out is sent: every pane stays watched).
func (m *model) setFocus(id int) {
	if id == m.focus || m.views[id] == nil {
		return
	}
	if v := m.views[m.focus]; v != nil {
		v.stale = true
	}
	m.focus = id
	m.views[id].stale = true
	m.views[id].bell = false
	if m.zoomed {
		m.relayout()
	}
	m.fr.invalidate()
}

// focused returns the focused pane's view, or nil when none is left.
func (l *paneLayout) focused() *paneView { return l.views[l.focus] }

// setStatus shows a one-off message on the status line, until the next key.
func (m *model) setStatus(s string) {
	m.setHint(s, scopeOnce, 0)
}

// quit ends the program; the server then ends the session.
func (m *model) quit() tea.Cmd {
	return m.end(EndQuit)
}

// detach ends the program and leaves the session running (attached terminals only).
func (m *model) detach() tea.Cmd {
	return m.end(EndDetach)
}

// end ends the program, saying how.
func (m *model) end(e Ending) tea.Cmd {
	if !m.quitting {
		m.ending = e
	}
	m.quitting = true
	return tea.Quit
}
