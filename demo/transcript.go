package demo

import (
	"encoding/json"
	"io"
)

// transcriptLog appends the agent's conversation to a file (-transcript) so that tests can
// compare exactly what was delivered to an agent with what another one answered, without
// reading it back off a screen. Each message and answer is one JSON object on one line,
// written with one call, so a reader that takes only complete lines never sees half of one.
type transcriptLog struct {
	w   io.Writer // nil: no transcript
	err error     // the first write error; later entries are not written
}

// transcriptEntry is one line of the transcript: exactly one of In and Out is set.
type transcriptEntry struct {
	In  *string `json:"in,omitempty"`
	Out *string `json:"out,omitempty"`
}

// received records a message the agent was given (when it is submitted, even if queued).
func (l *transcriptLog) received(msg string) { l.write(transcriptEntry{In: &msg}) }

// answered records an answer the agent gave.
func (l *transcriptLog) answered(answer string) { l.write(transcriptEntry{Out: &answer}) }

func (l *transcriptLog) write(e transcriptEntry) {
	if l.w == nil || l.err != nil {
		return
	}
	b, err := json.Marshal(e)
	if err != nil {
		l.err = err
		return
	}
	_, l.err = l.w.Write(append(b, '\n'))
}
