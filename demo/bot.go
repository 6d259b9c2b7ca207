package demo

import "time"

// Bot is a simulated agent without a terminal or timers, for tests that run it on a fake
// clock: Start gives its first screen, Input takes the bytes typed into its terminal and
// returns what it draws at once, and the answer to a message is printed in steps, each due
// Next() after the one before and drawn by Step. A Line bot gets what its terminal's line
// discipline hands it: whole lines, each ending in "\n". Not safe for concurrent use.
type Bot struct {
	a   *agent
	now time.Time // the bot's clock: moved on by each step's delay
}

// New returns a bot configured by c (Name "agent" and an 80×24 screen when not set).
func New(c Config) *Bot {
	if c.Name == "" {
		c.Name = "agent"
	}
	if c.Cols <= 0 {
		c.Cols = 80
	}
	if c.Rows <= 0 {
		c.Rows = 24
	}
	b := &Bot{now: time.Date(2000, 1, 1, 0, 0, 0, 0, time.UTC)}
	b.a = newAgent(config{Config: c, exitAfter: -1}, c.Cols, c.Rows, func() time.Time { return b.now })
	b.a.dec.lfSubmits = c.Style.cooked()
	return b
}

// Start returns the bot's first screen.
func (b *Bot) Start() []byte {
	b.a.start()
	return b.flush()
}

// Input handles bytes typed into the bot's terminal and returns what it draws at once.
func (b *Bot) Input(p []byte) []byte {
	b.a.input(p)
	return b.flush()
}

// Next returns the time from the step before to the next step, and false when none is
// queued.
func (b *Bot) Next() (time.Duration, bool) { return b.a.nextStep() }

// Step draws the next step of the answer (nothing when none is queued).
func (b *Bot) Step() []byte {
	if d, ok := b.a.nextStep(); ok {
		b.now = b.now.Add(d)
	}
	b.a.step()
	return b.flush()
}

// flush returns what the agent drew since the last call.
func (b *Bot) flush() []byte {
	out := append([]byte(nil), b.a.out.Bytes()...)
	b.a.out.Reset()
	return out
}

// Banner is the bot's banner row; Prompt its empty prompt (or input) row.
func (b *Bot) Banner() string {
	banner, _ := b.a.draw.corpusRows(b.a)
	return banner
}

// Prompt is the bot's empty prompt (or input) row.
func (b *Bot) Prompt() string {
	_, prompt := b.a.draw.corpusRows(b.a)
	return prompt
}

// Inputs returns the messages submitted to the bot, in order.
func (b *Bot) Inputs() []string { return b.a.inputs }

// Replies returns the answers the bot gave or is giving, one a turn, in order: "" for
// an answer cut short.
func (b *Bot) Replies() []string { return b.a.replies }

// Busy reports whether the bot is working on a message.
func (b *Bot) Busy() bool { return b.a.busy }

// Draft returns what is typed in the bot's input and not sent (for Line, nothing: its
// draft is its terminal's line).
func (b *Bot) Draft() string { return b.a.draft }

// Interrupted returns how many answers were cut short (Escape, Ctrl+C).
func (b *Bot) Interrupted() int { return b.a.interrupted }

// TickEvery returns the period of the bot's spinner while it works, and 0 when it is idle
// or its style shows no spinner: a driver calls Tick that often while it is not 0.
func (b *Bot) TickEvery() time.Duration {
	if !b.a.busy {
		return 0
	}
	return b.a.draw.tickEvery()
}

// Tick advances the bot's spinner and returns what it redraws.
func (b *Bot) Tick() []byte {
	b.a.tick()
	return b.flush()
}
