package ui

import (
	"log/slog"
	"time"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/lipgloss"

	"github.com/agentmux/agentmux/keys"
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
)

// confirmation is a pending y/n question and what "y" does.
type confirmation struct {
	prompt string
	yes    func() tea.Cmd
}

// paneView is the ui's drawing state for one pane: its last snapshot, its rendered rows
// and its scroll position. Owned by the ui goroutine.
type paneView struct {
	snap  *vterm.Snapshot
	cache lineCache
	rows  []string      // rendered content rows, one per content line
	lines []*vterm.Line // the lines rows were rendered from (for clipped redraws)
	// cursorRow and cursorX are where rows drew the cursor (-1: not drawn).
	cursorRow, cursorX int
	content            rect // where the rows go on the outer screen
	dirty              bool // output arrived: take a snapshot at the next frame
	waiting            bool // a waitForOutput for this pane is outstanding
	stale              bool // rows must be rebuilt from the snapshot
	// syncSince is when the pane was first seen mid synchronized update (zero: not).
	syncSince time.Time
	scroll    *scrollState
	// alertsSeen is the pane's alert count last looked at; bell flags an alert raised
	// while it was not focused, until it is; noteSeen is the last notification shown.
	alertsSeen uint64
	bell       bool
	noteSeen   string
	// top and bottom are the cached border rows; borderKey says what they were drawn for.
	top, bottom string
	borderKey   borderKey
}

// borderKey is everything a pane's border rows depend on.
type borderKey struct {
	w       int
	focused bool
	name    string
	state   string // what the border says about the pane (borderState)
	kind    stateKind
	bell    bool   // the pane rang while not focused
	ptitle  string // the title the pane's program set (OSC 0/2)
}

// presenter draws frames on the outer terminal (screenWriter); nil in tests.
type presenter interface {
	present(lines []string, w, h int)
}

// modelOptions are the model's dependencies that differ between the real program and
// tests.
type modelOptions struct {
	width, height int
	input         <-chan inputMsg    // decoded outer input; nil when tests feed inputMsg
	renderer      *lipgloss.Renderer // lipgloss renderer (tests pin its colour profile)
	now           func() time.Time   // the clock for frame throttling
	initial       []keys.Event       // input read while probing the terminal, replayed first
	screen        presenter          // where frames go; nil: only View
}

// model is the bubbletea model: it renders the Host's snapshots and forwards input to it.
// Every field is owned by bubbletea's event-loop goroutine (Update and View).
type model struct {
	cfg    Config
	host   *Host
	log    *slog.Logger
	prefix keys.Key
	st     styles
	now    func() time.Time
	input  <-chan inputMsg

	width, height int
	tree          *node
	rects         []paneRect // visible panes and their rectangles (border included)
	focus         int
	zoomed        bool
	views         map[int]*paneView

	rl        *relayWire // the relay and the drafts typed into panes
	wakeArmed bool       // a relay wake-up tick is coming at wakeAt
	wakeAt    time.Time  //
	wakeGen   uint64     // the armed tick's generation: any other is stale
	logv      logView    // the relay log overlay (relaylog.go)
	relaySum  string     // the relay status last drawn on the status line

	mode      inputMode
	confirm   *confirmation
	status    string // a one-off message on the status line, cleared by the next key
	mouseDown int    // pane that received a forwarded button press (drags go there)

	// echoPane is the pane a key was just written to (0: none); its output before
	// echoBy may draw a frame early, once (scheduleEcho).
	echoPane   int
	echoBy     time.Time
	frameArmed bool      // a frame tick is coming at frameAt
	frameAt    time.Time //
	lastFrame  time.Time
	frame      string
	frameLines []string // frame split in rows, handed to the screen writer
	lineCap    int      // longest row built so far, to size the next ones
	frameOK    bool
	frameGen   uint64 // counts rebuilt frames
	shownGen   uint64 // the frame last handed to scr
	scr        presenter

	initial  []keys.Event
	quitting bool  // tea.Quit has been returned
	err      error // why the program quit, when it was an error
}

var _ tea.Model = (*model)(nil)

// newModel builds the model over host's panes.
func newModel(cfg Config, host *Host, o modelOptions) *model {
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
		cfg:     cfg,
		host:    host,
		log:     log,
		prefix:  cfg.Prefix,
		st:      newStyles(o.renderer),
		now:     o.now,
		input:   o.input,
		width:   max(o.width, 1),
		height:  max(o.height, 1),
		views:   make(map[int]*paneView),
		initial: o.initial,
		scr:     o.screen,
	}
	for _, p := range host.Panes() {
		m.views[p.ID] = &paneView{snap: p.Term.Snapshot(), stale: true}
		if m.focus == 0 {
			m.focus = p.ID
		}
	}
	m.relayout()
	m.rl = newRelayWire(cfg, host, m.now())
	m.relaySum = m.rl.r.Status().String()
	return m
}

// Init arms the input reader and every pane's output and exit watchers, and replays
// input read before the program started.
func (m *model) Init() tea.Cmd {
	cmds := []tea.Cmd{}
	if m.input != nil {
		cmds = append(cmds, waitForInput(m.input))
	}
	for _, p := range m.host.Panes() {
		if v := m.views[p.ID]; v != nil {
			v.waiting = true
		}
		cmds = append(cmds, waitForOutput(p.ID, p.Proc.Updates(), p.Proc.Done()), waitForExit(p.ID, p.Proc))
	}
	cmds = append(cmds, m.armWake())
	if len(m.initial) > 0 {
		ev := m.initial
		m.initial = nil
		cmds = append(cmds, func() tea.Msg { return inputMsg{Events: ev, replay: true} })
	}
	return tea.Batch(cmds...)
}

// relayout rebuilds the layout tree from the live panes, gives every visible pane its
// rectangle and resizes its emulator and PTY to the content area inside the border.
func (m *model) relayout() {
	ids := make([]int, 0, len(m.views))
	for _, p := range m.host.Panes() {
		ids = append(ids, p.ID)
	}
	m.tree = buildLayout(m.cfg.Layout, ids)
	area := rect{0, 0, m.width, max(m.height-1, 0)}
	if m.zoomed && m.host.Pane(m.focus) != nil {
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
		m.host.Resize(pr.Pane, max(c.W, 1), max(c.H, 1))
		if p := m.host.Pane(pr.Pane); p != nil {
			v.snap = p.Term.Snapshot()
			v.stale = true
		}
	}
	m.frameOK = false
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
	m.frameOK = false
}

// focusedPane returns the focused pane, or nil when none is left.
func (m *model) focusedPane() *Pane { return m.host.Pane(m.focus) }

// setStatus shows a one-off message on the status line.
func (m *model) setStatus(s string) {
	m.status = s
	m.frameOK = false
}

// quit ends the program (run.go restores the terminal and closes the panes).
func (m *model) quit() tea.Cmd {
	m.quitting = true
	return tea.Quit
}
