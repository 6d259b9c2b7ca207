package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"os"
	"strings"
	"time"

	"github.com/agentmux/agentmux/attach"
	"github.com/agentmux/agentmux/client"
	"github.com/agentmux/agentmux/dirs"
	"github.com/agentmux/agentmux/proto"
)

// runAttachCommand runs agentmux attach [NAME | --session NAME] [--read-only] [-d] and
// agentmux kill-session [NAME | --session NAME], their flags parsed (commands.go).
func runAttachCommand(ctx context.Context, cmd string, a clientArgs, stdin io.Reader, stdout io.Writer) (int, error) {
	var o attach.Options
	if cmd == "attach" {
		ao := own[attachArgs](a)
		o = attach.Options{ReadOnly: ao.readOnly, DetachOthers: ao.detachOthers}
	}
	var name string
	if len(a.operands) > 1 {
		return 2, usagef("agentmux %s: one session name at most (got %q and %q)", cmd, a.operands[0], a.operands[1])
	}
	if len(a.operands) == 1 {
		name = a.operands[0]
	}
	if a.session != "" {
		if name != "" && !strings.EqualFold(name, a.session) {
			return 2, usagef("agentmux %s: two sessions named (%s and --session %s)", cmd, name, a.session)
		}
		name = a.session
	}
	if o.ReadOnly && o.DetachOthers {
		return 2, usagef("agentmux attach: --read-only and -d do not go together")
	}
	if cmd == "attach" && os.Getenv("AGENTMUX_PANE") != "" {
		return 2, usagef("agentmux attach: this runs inside a pane of session %s: attaching would nest it", os.Getenv("AGENTMUX_SESSION"))
	}
	asked := name
	name, socket, err := findSession(cmd, name)
	if err != nil {
		return 1, restorableHint(err, asked)
	}
	if cmd == "kill-session" {
		return exit(killSession(socket, own[killArgs](a).keep))
	}
	in, inOK := stdin.(*os.File)
	out, outOK := stdout.(*os.File)
	if !inOK || !outOK {
		return 2, errors.New("agentmux attach needs a terminal")
	}
	return attachTo(ctx, name, socket, o, in, out)
}

// attachArgs are attach's: watch without typing; detach every other terminal first.
type attachArgs struct{ readOnly, detachOthers bool }

// killArgs are kill-session's: agentmux restore still offers the session afterwards.
type killArgs struct{ keep bool }

// findSession resolves a session's name (any case) to its socket: the only running
// session when name is "", else a list of the choices for cmd (attach, kill-session).
func findSession(cmd, name string) (string, string, error) {
	dir, err := dirs.RuntimeDir()
	if err != nil {
		return "", "", err
	}
	ss, err := dirs.Sessions(dir)
	if err != nil {
		return "", "", err
	}
	if name == "" {
		switch len(ss) {
		case 0:
			return "", "", client.ErrNoSession
		case 1:
			return ss[0].Name, ss[0].Socket, nil
		}
		names := make([]string, len(ss))
		for i, s := range ss {
			names[i] = s.Name
		}
		return "", "", fmt.Errorf("%d sessions are running: %s; name one (agentmux %s NAME)", len(ss), strings.Join(names, ", "), cmd)
	}
	for _, s := range ss {
		if strings.EqualFold(s.Name, name) {
			return s.Name, s.Socket, nil
		}
	}
	return "", "", fmt.Errorf("no session %q is running (agentmux sessions lists them)", name)
}

// killEndWait bounds how long kill-session waits, once the session said it ends, for
// it to have ended: its panes stopped, their worktrees kept or removed.
var killEndWait = time.Minute

// killSession asks the session on socket to end; keep: restore still offers it. It
// returns once the session has ended (the server closes the connection then; an older
// one closes it at once), so that a script may start the same session, or look at its
// worktrees, right after.
func killSession(socket string, keep bool) error {
	nc, err := net.DialTimeout("unix", socket, 5*time.Second)
	if err != nil {
		return fmt.Errorf("kill-session: %w", err)
	}
	defer nc.Close()
	if _, err = handshake(nc, attach.TypeKill, attach.Kill{Keep: keep}); err != nil {
		return err
	}
	_ = nc.SetDeadline(time.Now().Add(killEndWait))
	_, err = io.Copy(io.Discard, nc)
	if errors.Is(err, os.ErrDeadlineExceeded) {
		return fmt.Errorf("kill-session: the session is ending, but has not ended within %s", killEndWait)
	}
	return nil
}

// handshakeOnce sends one server request of type typ and returns the answer.
func handshakeOnce(nc net.Conn, typ string) (*proto.Envelope, error) {
	return handshake(nc, typ, struct{}{})
}

// handshake sends one server request of type typ with payload and returns the answer.
func handshake(nc net.Conn, typ string, payload any) (*proto.Envelope, error) {
	body, err := attach.Handshake(typ, payload)
	if err != nil {
		return nil, err
	}
	_ = nc.SetDeadline(time.Now().Add(5 * time.Second))
	if err := proto.WriteFrame(nc, body); err != nil {
		return nil, err
	}
	ans, err := proto.ReadFrame(nc, proto.DefaultMaxFrameBytes, nil)
	if err != nil {
		return nil, fmt.Errorf("no answer from the session: %w", err)
	}
	e, err := proto.Decode(ans)
	if err != nil {
		return nil, err
	}
	if e.Type == proto.TypeError {
		pe, _ := proto.DecodePayload[proto.Error](e)
		return nil, errors.New(pe.Message)
	}
	return e, nil
}

// sessionClients asks the session on socket for its attached terminals (false when it
// cannot say).
func sessionClients(socket string) (attach.ClientList, bool) {
	nc, err := net.DialTimeout("unix", socket, time.Second)
	if err != nil {
		return attach.ClientList{}, false
	}
	defer nc.Close()
	e, err := handshakeOnce(nc, attach.TypeClients)
	if err != nil || e.Type != attach.TypeClients {
		return attach.ClientList{}, false
	}
	l, err := proto.DecodePayload[attach.ClientList](e)
	if err != nil {
		return attach.ClientList{}, false
	}
	return l, true
}
