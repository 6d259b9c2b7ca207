// Command chatbot runs one bot of package internal/chatbot in its terminal, for the
// end-to-end tests (built by path: ./... skips testdata).
//
//	chatbot --name NAME --style line|inline|full|boxed|clear [--seed N] [--think D] [--pace D]
//	        [--max-chars N] [--transcript FILE]
package main

import (
	"flag"
	"fmt"
	"io"
	"os"
	"time"

	"github.com/agentmux/agentmux/internal/chatbot"
	"github.com/charmbracelet/x/term"
)

func main() {
	name := flag.String("name", "bot", "the bot's name")
	style := flag.String("style", "line", "line, inline, full, boxed or clear")
	seed := flag.Uint64("seed", 1, "the seed of its answers")
	think := flag.Duration("think", 300*time.Millisecond, "time before an answer's first line")
	pace := flag.Duration("pace", 30*time.Millisecond, "time between the steps of an answer")
	transcript := flag.String("transcript", "", "log every message and answer to this file")
	maxChars := flag.Int("max-chars", 0, "the most characters of an answer (0: the package's default)")
	flag.Parse()
	st, err := chatbot.ParseStyle(*style)
	if err != nil {
		fmt.Fprintln(os.Stderr, "chatbot:", err)
		os.Exit(2)
	}
	cols, rows, err := term.GetSize(os.Stdout.Fd())
	if err != nil {
		cols, rows = 80, 24
	}
	if st != chatbot.Line {
		if saved, err := term.MakeRaw(os.Stdin.Fd()); err == nil {
			defer term.Restore(os.Stdin.Fd(), saved)
		}
	}
	var log io.Writer
	if *transcript != "" {
		f, err := os.Create(*transcript)
		if err != nil {
			fmt.Fprintln(os.Stderr, "chatbot:", err)
			os.Exit(2)
		}
		defer f.Close()
		log = f
	}
	b := chatbot.New(chatbot.Config{Name: *name, Style: st, Seed: *seed, Cols: cols, Rows: rows, Think: *think, Pace: *pace, MaxChars: *maxChars})
	if err := chatbot.Run(b, os.Stdin, os.Stdout, log); err != nil {
		fmt.Fprintln(os.Stderr, "chatbot:", err)
	}
}
