package ui

import (
	"strings"
	"unicode"

	"github.com/agentmux/agentmux/keys"
)

// This file is the prefix key map: the one place that says which key after the prefix
// does what (the README's table). The help overlay is generated from it.

// command is what a key after the prefix runs (keyActions names each in the action
// vocabulary).
type command uint8

const (
	actNone       command = iota
	actFocusN             // arg: pane number
	actFocusDir           // arg: direction
	actFocusNext          //
	actLink               // waits for a pane number
	actLinkAll            //
	actUnlink             //
	actHold               //
	actZoom               //
	actScroll             //
	actRelayLog           //
	actHelp               //
	actClose              //
	actQuit               //
	actSendPrefix         //
	actAddress            //
	actBrief              //
	actDetach             //
)

// The actions on panes coming and going and their places (panes.go, share.go,
// diffview.go), numbered apart from the others.
const (
	actNewPane  command = iota + 64
	actRespawn          //
	actRename           //
	actLayout           //
	actSwapPrev         // arg: -1 previous, 1 next
	actSync             //
	actShare            // arg: direction
	actDiff             //
)

// binding is one row of the key map: how it is shown in the help and which keys match.
type binding struct {
	label string
	desc  string
	act   command
	// match returns the action's argument and true when k triggers this binding.
	match func(k, prefix keys.Key) (int, bool)
}

// runeIs matches one plain character (shift allowed, as terminals report capitals).
func runeIs(r rune) func(k, prefix keys.Key) (int, bool) {
	return func(k, _ keys.Key) (int, bool) {
		got, ok := plainRune(k)
		return 0, ok && got == r
	}
}

// codeIs matches a special key with no modifiers, returning arg.
func codeIs(c keys.Code, arg int) func(k, prefix keys.Key) (int, bool) {
	return func(k, _ keys.Key) (int, bool) {
		return arg, k.Code == c && k.Mod&^keys.ModShift == 0
	}
}

// plainRune returns the character a key types when it carries no Ctrl, Alt or Super:
// a shifted letter reported as its lower case comes back in upper case.
func plainRune(k keys.Key) (rune, bool) {
	if k.Code != keys.KeyRune || k.Mod&(keys.ModCtrl|keys.ModAlt|keys.ModSuper) != 0 {
		return 0, false
	}
	r := k.Rune
	if k.Mod&keys.ModShift != 0 && unicode.IsLower(r) {
		r = unicode.ToUpper(r)
	}
	return r, true
}

// digitKey returns N for a plain '1'..'9'.
func digitKey(k keys.Key) (int, bool) {
	r, ok := plainRune(k)
	if !ok || r < '1' || r > '9' {
		return 0, false
	}
	return int(r - '0'), true
}

// keymap is every prefix binding, in the order the help shows them.
var keymap = []binding{
	{label: "N", desc: "focus pane N (10 and up: two digits, e.g. 1 2)", act: actFocusN,
		match: func(k, _ keys.Key) (int, bool) { return digitKey(k) }},
	{label: "arrows", desc: "focus the pane in that direction", act: actFocusDir,
		match: func(k, p keys.Key) (int, bool) {
			for _, c := range []struct {
				code keys.Code
				d    direction
			}{{keys.KeyLeft, dirLeft}, {keys.KeyRight, dirRight}, {keys.KeyUp, dirUp}, {keys.KeyDown, dirDown}} {
				if arg, ok := codeIs(c.code, int(c.d))(k, p); ok {
					return arg, true
				}
			}
			return 0, false
		}},
	{label: "o", desc: "focus the next pane", act: actFocusNext, match: runeIs('o')},
	{label: "l N", desc: "link the focused pane with pane N, or l NAME@SESSION; l $: budget", act: actLink, match: runeIs('l')},
	{label: "L", desc: "link all panes into one group", act: actLinkAll, match: runeIs('L')},
	{label: "u", desc: "unlink the focused pane", act: actUnlink, match: runeIs('u')},
	{label: "p", desc: "hold / release relays into the focused pane", act: actHold, match: runeIs('p')},
	{label: "a", desc: "addressing on/off: the focused pane's @relay lines reach any pane", act: actAddress, match: runeIs('a')},
	{label: "b", desc: "brief the focused pane again: the panes, how to address them", act: actBrief, match: runeIs('b')},
	{label: "z", desc: "zoom the focused pane / unzoom", act: actZoom, match: runeIs('z')},
	{label: "c", desc: "new pane: type its command line (NAME=COMMAND; ↑ earlier ones)", act: actNewPane, match: runeIs('c')},
	{label: "R", desc: "respawn the focused pane's program (asks y/n if it still runs)", act: actRespawn, match: runeIs('R')},
	{label: ",", desc: "rename the focused pane", act: actRename, match: runeIs(',')},
	{label: "space", desc: "next layout: auto, columns, rows, tiled", act: actLayout, match: runeIs(' ')},
	{label: "{ }", desc: "swap the focused pane with the previous / next one", act: actSwapPrev,
		match: func(k, _ keys.Key) (int, bool) {
			r, ok := plainRune(k)
			if ok && r == '}' {
				return 1, true
			}
			return -1, ok && r == '{'
		}},
	{label: "ctrl+arrows", desc: "focused pane wider/narrower (→ ←), taller/shorter (↓ ↑)", act: actShare,
		match: func(k, _ keys.Key) (int, bool) {
			if k.Mod&^keys.ModShift != keys.ModCtrl {
				return 0, false
			}
			k.Mod = 0
			for _, c := range []struct {
				code keys.Code
				d    direction
			}{{keys.KeyLeft, dirLeft}, {keys.KeyRight, dirRight}, {keys.KeyUp, dirUp}, {keys.KeyDown, dirDown}} {
				if k.Code == c.code {
					return int(c.d), true
				}
			}
			return 0, false
		}},
	{label: "D", desc: "what the focused pane's agent changed in its worktree (scrollable diff)", act: actDiff, match: runeIs('D')},
	{label: "S", desc: "synchronized typing on/off: keys go to every pane", act: actSync, match: runeIs('S')},
	{label: "[", desc: "scroll/copy: arrows PgUp/PgDn g/G, v select, y copy, / search, q leaves", act: actScroll, match: runeIs('[')},
	{label: "r", desc: "relay log: ↑↓ select, Enter opens whole, PgUp/PgDn g/G; q/Esc closes", act: actRelayLog, match: runeIs('r')},
	{label: "?", desc: "this help", act: actHelp, match: runeIs('?')},
	{label: "x", desc: "close the focused pane (asks y/n)", act: actClose, match: runeIs('x')},
	{label: "d", desc: "detach: the session and its agents keep running", act: actDetach, match: runeIs('d')},
	{label: "q", desc: "end the session, every agent (asks: end, detach or cancel)", act: actQuit, match: runeIs('q')},
	{label: "prefix", desc: "send the prefix key itself", act: actSendPrefix,
		match: func(k, p keys.Key) (int, bool) { return 0, p.Matches(k) }},
}

// lookup returns the binding k triggers after the prefix, with its argument.
func lookup(k, prefix keys.Key) (command, int, bool) {
	for _, b := range keymap {
		if arg, ok := b.match(k, prefix); ok {
			return b.act, arg, true
		}
	}
	return actNone, 0, false
}

// prefixLabel is how the status line shows a --prefix spec: "ctrl+a" is "^A", anything
// else as given.
func prefixLabel(spec string) string {
	s := strings.ToLower(strings.TrimSpace(spec))
	if rest, ok := strings.CutPrefix(s, "ctrl+"); ok && len(rest) == 1 {
		return "^" + strings.ToUpper(rest)
	}
	if s == "" {
		return "^A"
	}
	return spec
}
