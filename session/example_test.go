package session_test

import (
	"fmt"
	"log"

	"github.com/agentmux/agentmux/session"
)

// A client of the session (the TUI, the session socket): start the panes, follow the
// events, send a message into a pane as a relay delivery, read a pane's text. (Compiled,
// not run: it starts real programs.)
func Example() {
	s, err := session.Start(session.Options{
		Panes: []session.PaneSpec{
			{Name: "alice", Argv: []string{"claude"}, Cols: 100, Rows: 40},
			{Name: "bob", Argv: []string{"codex"}, Cols: 100, Rows: 40},
		},
		Link: true,
	})
	if err != nil {
		log.Fatal(err)
	}
	defer s.Stop()

	sub := s.Subscribe(0)
	defer sub.Close()
	go func() {
		for range sub.Ready() { // closed when the subscription ends
			for _, ev := range sub.Next() {
				switch ev := ev.(type) {
				case session.MemberChanged:
					fmt.Println(ev.Member.Pane, ev.Member.Name, ev.Member.State)
				case session.Delivery:
					fmt.Println(ev.Entry)
				case session.Exit:
					fmt.Println("pane", ev.Pane, "exited", ev.Code)
				}
			}
		}
	}()

	if err := s.Send("ops", "bob", "please review alice's change", session.SendOptions{}); err != nil {
		log.Print(err)
	}
	text, err := s.Capture(1, 100, false)
	if err == nil {
		fmt.Print(text)
	}
}
