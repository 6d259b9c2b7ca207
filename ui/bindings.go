package ui

import (
	"fmt"
	"slices"
	"strings"

	"github.com/agentmux/agentmux/action"
	"github.com/agentmux/agentmux/keys"
)

// This file is the key bindings config.toml adds ([ui.keys]: a key after the prefix →
// an action's name). A binding of the person's wins over the built-in key map.

// Binding binds Key, typed after the prefix, to the action named Action (ActionNames).
type Binding struct {
	Key    keys.Key
	Action string
}

// keyAction is one thing a key after the prefix does: its action in the vocabulary
// (package action), the command the key map runs for it with its argument, and the
// name config.toml's [ui.keys] binds a key to it by ("" for none: focus N takes its
// number from the key, and detach stays where it is).
type keyAction struct {
	bind string
	name action.Name
	act  command
	arg  int
}

// keyActions names every command of the key map in the vocabulary, once: bindings,
// the help and the test that holds the roads to one vocabulary read it. A binding's
// name is the vocabulary's where it says the same (link, hold, zoom); where a key
// does one way of an action (focus-left, wider, new-pane), it is the key's own.
var keyActions = []keyAction{
	{"", action.Focus, actFocusN, 0},
	{"focus-next", action.Focus, actFocusNext, 0},
	{"focus-left", action.Focus, actFocusDir, int(dirLeft)},
	{"focus-right", action.Focus, actFocusDir, int(dirRight)},
	{"focus-up", action.Focus, actFocusDir, int(dirUp)},
	{"focus-down", action.Focus, actFocusDir, int(dirDown)},
	{string(action.Link), action.Link, actLink, 0},
	{"link-all", action.Link, actLinkAll, 0},
	{string(action.Unlink), action.Unlink, actUnlink, 0},
	{string(action.Hold), action.Hold, actHold, 0}, // or release, when held
	{string(action.Address), action.Address, actAddress, 0},
	{string(action.Brief), action.Brief, actBrief, 0},
	{string(action.Zoom), action.Zoom, actZoom, 0},
	{string(action.Scroll), action.Scroll, actScroll, 0},
	{string(action.RelayLog), action.RelayLog, actRelayLog, 0},
	{string(action.Help), action.Help, actHelp, 0},
	{string(action.Close), action.Close, actClose, 0},
	{string(action.Quit), action.Quit, actQuit, 0},
	{"", action.Detach, actDetach, 0},
	{"send-prefix", action.Input, actSendPrefix, 0},
	{"new-pane", action.New, actNewPane, 0},
	{string(action.Respawn), action.Respawn, actRespawn, 0},
	{string(action.Rename), action.Rename, actRename, 0},
	{"next-layout", action.Layout, actLayout, 0},
	{"swap-prev", action.Swap, actSwapPrev, -1},
	{"swap-next", action.Swap, actSwapPrev, 1},
	{string(action.Sync), action.Sync, actSync, 0},
	{string(action.Diff), action.Diff, actDiff, 0},
	{"wider", action.Resize, actShare, int(dirRight)},
	{"narrower", action.Resize, actShare, int(dirLeft)},
	{"taller", action.Resize, actShare, int(dirDown)},
	{"shorter", action.Resize, actShare, int(dirUp)},
}

// actionNames are the keyActions a binding may name, by their binding name.
var actionNames = func() map[string]keyAction {
	m := map[string]keyAction{}
	for _, k := range keyActions {
		if k.bind != "" {
			m[k.bind] = k
		}
	}
	return m
}()

// KeyActions are the actions the keys produce (with repeats, as keyActions has them).
func KeyActions() []action.Name {
	out := make([]action.Name, len(keyActions))
	for i, k := range keyActions {
		out[i] = k.name
	}
	return out
}

// ActionNames lists the action names a binding may use, sorted.
func ActionNames() []string {
	names := make([]string, 0, len(actionNames))
	for n := range actionNames {
		names = append(names, n)
	}
	slices.Sort(names)
	return names
}

// CheckAction reports why name is no action a binding may use.
func CheckAction(name string) error {
	if _, ok := actionNames[name]; !ok {
		return fmt.Errorf("no action %q (one of: %s)", name, strings.Join(ActionNames(), ", "))
	}
	return nil
}

// bound returns the action the person bound k to, if any.
func bound(bs []Binding, k keys.Key) (command, int, bool) {
	for _, b := range bs {
		if b.Key.Matches(k) {
			if a, ok := actionNames[b.Action]; ok {
				return a.act, a.arg, true
			}
		}
	}
	return actNone, 0, false
}
