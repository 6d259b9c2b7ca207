package chatbot

import (
	"encoding/json"
	"io"
	"time"
)

// Run drives b in a terminal: it draws the first screen to out, then hands every read of
// in to the bot and draws what it answers, each step when it is due, until in ends. Every
// message the bot takes and every answer it gives is logged to transcript (if not nil) as
// a JSON line {"in": ...} or {"out": ...}, before the answer is drawn.
func Run(b *Bot, in io.Reader, out io.Writer, transcript io.Writer) error {
	reads := make(chan []byte)
	done := make(chan error, 1)
	go func() {
		buf := make([]byte, 4096)
		for {
			n, err := in.Read(buf)
			if n > 0 {
				reads <- append([]byte(nil), buf[:n]...)
			}
			if err != nil {
				done <- err
				return
			}
		}
	}()
	if _, err := out.Write(b.Start()); err != nil {
		return err
	}
	logged := 0
	logNew := func() {
		for ; logged < len(b.inputs); logged++ {
			if transcript != nil {
				json.NewEncoder(transcript).Encode(map[string]string{"in": b.inputs[logged]})
				json.NewEncoder(transcript).Encode(map[string]string{"out": b.replies[logged]})
			}
		}
	}
	var timer *time.Timer
	var due <-chan time.Time
	arm := func() {
		if due != nil {
			return
		}
		if d, ok := b.Next(); ok {
			timer = time.NewTimer(d)
			due = timer.C
		}
	}
	for {
		select {
		case p := <-reads:
			draw := b.Input(p)
			logNew()
			if _, err := out.Write(draw); err != nil {
				return err
			}
			arm()
		case <-due:
			due = nil
			if _, err := out.Write(b.Step()); err != nil {
				return err
			}
			arm()
		case err := <-done:
			if timer != nil {
				timer.Stop()
			}
			if err == io.EOF {
				return nil
			}
			return err
		}
	}
}
