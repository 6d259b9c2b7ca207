// Command mockmodel runs the fake model server of package mockmodel standalone, for trying the
// real agent CLIs by hand:
//
//	go run ./internal/mockmodel/cmd/mockmodel -addr 127.0.0.1:8555 -duration 8s
//	ANTHROPIC_BASE_URL=http://127.0.0.1:8555 ANTHROPIC_API_KEY=dummy claude
//
// It logs one line per request on stderr and stops on SIGINT or SIGTERM.
package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"net"
	"os"
	"os/signal"
	"syscall"

	"github.com/agentmux/agentmux/internal/mockmodel"
)

func main() {
	os.Exit(run(os.Args[1:], os.Stderr))
}

// run parses args, serves until a signal arrives, and returns the exit status.
func run(args []string, logw io.Writer) int {
	fs := flag.NewFlagSet("mockmodel", flag.ContinueOnError)
	fs.SetOutput(logw)
	addr := fs.String("addr", "127.0.0.1:8555", "address to listen on")
	reply := fs.String("reply", mockmodel.DefaultText, "fixed answer to every turn")
	label := fs.String("numbered", "", `answer "LABEL-N to: first words" instead of -reply`)
	words := fs.Int("words", 6, "words of the prompt quoted by -numbered")
	dur := fs.Duration("duration", 0, "time one answer takes to stream")
	if err := fs.Parse(args); err != nil {
		return 2
	}
	o := mockmodel.Options{Reply: mockmodel.Fixed(*reply), Duration: *dur, Log: logw}
	if *label != "" {
		o.Reply = mockmodel.Numbered(*label, *words)
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	err := mockmodel.New(o).Serve(ctx, *addr, func(a net.Addr) {
		fmt.Fprintf(logw, "mockmodel: listening on http://%s\n", a)
	})
	if err != nil {
		fmt.Fprintln(logw, err)
		return 1
	}
	return 0
}
