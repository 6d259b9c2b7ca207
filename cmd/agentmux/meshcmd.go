package main

import (
	"cmp"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"net"
	"os"
	"os/signal"
	"strings"
	"syscall"

	"github.com/agentmux/agentmux/client"
	"github.com/agentmux/agentmux/hub"
	"github.com/agentmux/agentmux/mesh"
	"github.com/agentmux/agentmux/proto"
	"github.com/agentmux/agentmux/session"
)

// meshSynopsis and meshHelp are `agentmux mesh`'s usage and help (commandHelp lists
// its flags).
const meshSynopsis = `agentmux mesh serve [--listen HOST:PORT] [--tls-cert FILE --tls-key FILE]
agentmux mesh creds NAME`

const meshHelp = `serve runs a mesh hub (NATS with JetStream, state in $XDG_STATE_HOME/agentmux/mesh) on
HOST:PORT (default ` + mesh.DefaultListen + `) until interrupted; creds NAME writes the
credentials of session NAME for this machine's hub. A session joins with
agentmux --mesh URL --mesh-creds FILE --session NAME …; agentmux ls --mesh lists the
mesh's sessions and members.`

// meshCommand is `agentmux mesh`: a hub of its own, and a session's credentials for it.
func meshCommand() command {
	return command{name: "mesh", short: "a mesh hub, and a session's credentials for it", synopsis: meshSynopsis, help: meshHelp, parts: []command{
		{name: "serve", flags: []flagSpec{
			stringFlag("listen", "HOST:PORT", "where the hub listens (default "+mesh.DefaultListen+")", func(a *meshServeArgs) *string { return &a.listen }),
			stringFlag("tls-cert", "FILE", "the hub's TLS certificate (with --tls-key)", func(a *meshServeArgs) *string { return &a.tlsCert }),
			stringFlag("tls-key", "FILE", "its private key", func(a *meshServeArgs) *string { return &a.tlsKey }),
		}, exec: func(ctx context.Context, a clientArgs, sio stdio) (int, error) {
			return meshServe(ctx, own[meshServeArgs](a), sio.out)
		}},
		{name: "creds", minArgs: 1, maxArgs: 1, exec: func(_ context.Context, a clientArgs, sio stdio) (int, error) {
			return meshCreds(a.operands[0], sio.out)
		}},
	}}
}

// meshServeArgs are mesh serve's: where the hub listens, and its TLS.
type meshServeArgs struct{ listen, tlsCert, tlsKey string }

// lsArgs are ls's: the mesh listed instead of the session (meshOn), with these
// settings.
type lsArgs struct {
	meshOn bool
	mesh   meshFlags
}

// lsMeshFlags are ls's flags that list the mesh instead of the session.
var lsMeshFlags = []flagSpec{
	ownFlag("mesh", "URL", "the mesh's sessions (live or away) and members instead, at URL\n(else config.toml's [mesh] url, else the mesh the running session joined)", kindOptional,
		func(a *lsArgs, val string, given bool) error {
			a.meshOn = true
			if given {
				a.mesh.url = val
			}
			return nil
		}),
	stringFlag("mesh-creds", "FILE", "the session's mesh credentials (agentmux mesh creds NAME, or a NATS .creds)", func(a *lsArgs) *string { return &a.mesh.creds }),
	stringFlag("mesh-nkey", "FILE", "an nkey seed file instead of --mesh-creds", func(a *lsArgs) *string { return &a.mesh.nkey }),
	stringFlag("mesh-ca", "FILE", "the certificate authority of the hub's TLS (else the system's)", func(a *lsArgs) *string { return &a.mesh.ca }),
}

// meshFlags are a session's mesh settings: --mesh, --mesh-creds, --mesh-nkey,
// --mesh-ca, or config.toml's [mesh] url, creds, nkey, ca.
type meshFlags struct{ url, creds, nkey, ca string }

// or fills what f leaves empty from d.
func (f meshFlags) or(d meshFlags) meshFlags {
	if f.url == "" {
		f.url = d.url
	}
	if f.creds == "" && f.nkey == "" {
		f.creds, f.nkey = d.creds, d.nkey
	}
	if f.ca == "" {
		f.ca = d.ca
	}
	return f
}

// meshCreds writes session name's credentials for this machine's hub.
func meshCreds(name string, stdout io.Writer) (int, error) {
	dir, err := statePath("mesh")
	if err != nil {
		return 1, err
	}
	path, err := mesh.WriteCreds(dir, name)
	if err != nil {
		return 1, err
	}
	key, err := mesh.PublicKey(path, false)
	if err != nil {
		return 1, err
	}
	_, err = fmt.Fprintf(stdout, "%s\nGive it to session %s (keep it 0600): agentmux --mesh URL --mesh-creds FILE --session %s …\n"+
		"Its signing key: %s\n(other sessions pin it on first sight; to pin it before, add the line \"%s %s\" to their %s)\n",
		path, name, name, key, name, key, knownKeysName)
	return 0, err
}

// meshServe runs a mesh hub until interrupted.
func meshServe(ctx context.Context, a *meshServeArgs, stdout io.Writer) (int, error) {
	dir, err := statePath("mesh")
	if err != nil {
		return 1, err
	}
	listen := cmp.Or(a.listen, mesh.DefaultListen)
	h, err := mesh.Serve(mesh.HubConfig{Dir: dir, Listen: listen, TLSCert: a.tlsCert, TLSKey: a.tlsKey})
	if err != nil {
		return 1, err
	}
	defer h.Close()
	_, err = fmt.Fprintf(stdout, "agentmux mesh hub: %s (JetStream state in %s)\n"+
		"Credentials: `agentmux mesh creds NAME` writes session NAME's file (its signing key, and a password derived from %s/secret for older sessions).\n"+
		"Join: agentmux --mesh %s --mesh-creds FILE --session NAME …\n", h.URL(), dir, dir, h.URL())
	if err != nil {
		return 1, err
	}
	if host, _, _ := net.SplitHostPort(listen); !h.TLS() && !isLoopback(host) {
		fmt.Fprintln(stdout, "Warning: no TLS (--tls-cert, --tls-key): messages cross the network in clear (and the passwords of sessions of an older agentmux).")
	}
	sigs := make(chan os.Signal, 1)
	signal.Notify(sigs, syscall.SIGINT, syscall.SIGTERM, syscall.SIGHUP)
	defer signal.Stop(sigs)
	select {
	case <-sigs:
	case <-ctx.Done():
	}
	return 0, nil
}

// lsMesh lists the mesh's sessions and members.
func lsMesh(a clientArgs, stdout io.Writer) (int, error) {
	o := own[lsArgs](a)
	if !o.meshOn {
		return 2, usagef("agentmux ls: --mesh-creds, --mesh-nkey and --mesh-ca go with --mesh")
	}
	conf, err := loadConfig()
	if err != nil {
		return 2, err
	}
	f := o.mesh.or(conf.Mesh)
	var got []mesh.SessionInfo
	if f.url == "" {
		// No mesh named: the running session lists the mesh it joined (its command
		// line's --mesh), over the connection it has.
		if got, err = sessionMesh(a.session); err != nil {
			return 1, err
		}
	} else {
		mo := mesh.Options{URL: f.url, CredsFile: f.creds, NkeyFile: f.nkey, CAFile: f.ca, Session: a.session, KnownKeys: knownKeys()}
		if mo.Session == "" {
			mo.Session = credsSession(f.creds)
		}
		if got, err = mesh.List(mo); err != nil {
			return 1, err
		}
	}
	if a.json {
		return exit(json.NewEncoder(stdout).Encode(got)) // JSON escapes control characters
	}
	for _, s := range got {
		state := "away"
		if s.Live {
			state = "live"
		}
		if s.Untrusted != "" {
			state = "away; its answer refused: " + visible(s.Untrusted, false)
		}
		if s.Silent != "" {
			state = "not answering: " + visible(s.Silent, false) + " (its server may be stopped or stuck)"
		}
		fmt.Fprintf(stdout, "%s (%s)\n", visible(s.Name, false), state)
		for _, m := range s.Members {
			fmt.Fprintf(stdout, "  %s@%s\t%s\t%s\n", visible(m.Name, false), visible(s.Name, false), visible(m.Program, false), visible(m.State, false))
		}
	}
	return 0, nil
}

// sessionMesh asks the running session named (or the only one) for the mesh it
// joined (X_MESH).
func sessionMesh(name string) ([]mesh.SessionInfo, error) {
	path, err := client.Socket(name)
	if err != nil {
		return nil, fmt.Errorf("agentmux ls --mesh: no mesh given (--mesh=URL, or [mesh] url in config.toml), and no session to ask: %w", err)
	}
	c, err := client.DialHere(path)
	if err != nil {
		return nil, err
	}
	defer c.Close()
	res, err := c.Request(proto.TypeMesh, struct{}{})
	if err != nil {
		return nil, fmt.Errorf("agentmux ls --mesh: %w (or give --mesh=URL)", err)
	}
	return res.Mesh, nil
}

// knownKeysName is the file, in the state folder, of the keys this user's sessions
// know for the other sessions of their meshes (pinned on first sight).
const knownKeysName = "mesh_known_keys"

// knownKeys is the known keys' path ("": none, kept in memory for the run).
func knownKeys() string {
	p, err := statePath(knownKeysName)
	if err != nil {
		return ""
	}
	return p
}

// isLoopback says whether host (a --listen host) is reachable from this machine only.
func isLoopback(host string) bool {
	if host == "localhost" {
		return true
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}

// credsSession is the session an agentmux credentials file is for ("" when none).
func credsSession(path string) string {
	b, err := os.ReadFile(path)
	if err != nil {
		return ""
	}
	for _, line := range strings.Split(string(b), "\n") {
		if v, ok := strings.CutPrefix(line, "session "); ok {
			return strings.TrimSpace(v)
		}
	}
	return ""
}

// dialMesh joins the mesh the flags or config.toml name (nil, nil: none) as session
// name, before the panes start: wrong credentials or a taken name stop agentmux here.
func dialMesh(f meshFlags, conf settings, sock *sessionSocket, logger *slog.Logger, restored []mesh.RestoredLink) (*mesh.Node, error) {
	f = f.or(conf.Mesh)
	if f.url == "" {
		if f.creds != "" || f.nkey != "" {
			return nil, usagef("--mesh-creds and --mesh-nkey need --mesh URL (or [mesh] url)")
		}
		return nil, nil
	}
	n, err := mesh.Dial(mesh.Options{URL: f.url, Session: sock.Name, CredsFile: f.creds, NkeyFile: f.nkey, CAFile: f.ca,
		Store: sock.store, Logger: logger, KnownKeys: knownKeys(), Restored: restored, AnswerFrom: conf.MeshAnswerFrom})
	if err != nil {
		return nil, err
	}
	return n, nil
}

// sessionCore is the core the session socket serves: s itself, with the mesh in front
// when it joined one (then also s's way across sessions, for the ui's prefix l); the
// pane commands and warnings go to s either way. The mesh's own goroutine reads s's
// events through a stream of its own.
func sessionCore(n *mesh.Node, s *session.Session, logger *slog.Logger) hub.Core {
	if n == nil {
		return s
	}
	if err := n.Start(s); err != nil {
		logger.Error("mesh", "err", err)
		return s
	}
	c := n.Wrap(s)
	s.SetAcross(c) // prefix l with NAME@SESSION links as `agentmux link` does
	return meshPanes{Core: c, PaneCore: s, Warner: s, Answerer: s, Asker: s, LinkBudgeter: s}
}

// meshPanes is the mesh's core with the session's pane commands (hub.PaneCore), its
// status line (hub.Warner), the answers to its panes' prompts (hub.Answerer) and its
// programs' notification hooks (hub.Asker) and its links' budgets (hub.LinkBudgeter),
// which the mesh does not wrap.
type meshPanes struct {
	*mesh.Core
	hub.PaneCore
	hub.Warner
	hub.Answerer
	hub.Asker
	hub.LinkBudgeter
}

// The session core, with or without the mesh in front, takes answers and asks.
var (
	_ hub.Answerer = meshPanes{}
	_ hub.Asker    = meshPanes{}
	_ hub.Answerer = (*session.Session)(nil)
	_ hub.Asker    = (*session.Session)(nil)
)

// The hub finds the pane commands and the status line by asserting its core is a
// hub.PaneCore and a hub.Warner; the session is all three as it is.
var (
	_ hub.Core       = meshPanes{}
	_ hub.PaneCore   = meshPanes{}
	_ hub.Warner     = meshPanes{}
	_ hub.Linker     = meshPanes{}
	_ hub.MeshLister = meshPanes{}
	_ hub.PaneCore   = (*session.Session)(nil)
	_ hub.Warner     = (*session.Session)(nil)

	_ hub.LinkBudgeter = meshPanes{}
	_ hub.LinkBudgeter = (*session.Session)(nil)
)
