package ui

import (
	"fmt"
	"slices"
	"strings"

	"github.com/agentmux/agentmux/keys"
	"github.com/agentmux/agentmux/session"
)

// This file is the key bindings config.toml adds ([ui.keys]: a key after the prefix →
// an action's name). A binding of the person's wins over the built-in key map.

// Binding binds Key, typed after the prefix, to the action named Action (ActionNames).
type Binding struct {
	Key    keys.Key
	Action string
}

// actionNames names the actions a binding may take, with their argument: those the
// other roads offer too by their session.Action names.
var actionNames = map[string]struct {
	act action
	arg int
}{
	"focus-next": {actFocusNext, 0}, "focus-left": {actFocusDir, int(dirLeft)}, "focus-right": {actFocusDir, int(dirRight)},
	"focus-up": {actFocusDir, int(dirUp)}, "focus-down": {actFocusDir, int(dirDown)},
	string(session.ActLink): {actLink, 0}, "link-all": {actLinkAll, 0}, string(session.ActUnlink): {actUnlink, 0},
	string(session.ActHold): {actHold, 0}, "address": {actAddress, 0}, "brief": {actBrief, 0}, "zoom": {actZoom, 0}, "scroll": {actScroll, 0},
	"relay-log": {actRelayLog, 0}, "help": {actHelp, 0}, "close": {actClose, 0}, "quit": {actQuit, 0},
	"send-prefix": {actSendPrefix, 0}, "new-pane": {actNewPane, 0}, string(session.ActRespawn): {actRespawn, 0},
	string(session.ActRename): {actRename, 0}, "next-layout": {actLayout, 0}, "swap-prev": {actSwapPrev, -1},
	"swap-next": {actSwapPrev, 1}, "sync": {actSync, 0}, string(session.ActDiff): {actDiff, 0},
	"wider": {actShare, int(dirRight)}, "narrower": {actShare, int(dirLeft)},
	"taller": {actShare, int(dirDown)}, "shorter": {actShare, int(dirUp)},
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
func bound(bs []Binding, k keys.Key) (action, int, bool) {
	for _, b := range bs {
		if b.Key.Matches(k) {
			if a, ok := actionNames[b.Action]; ok {
				return a.act, a.arg, true
			}
		}
	}
	return actNone, 0, false
}
