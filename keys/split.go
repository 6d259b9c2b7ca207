package keys

// SplitEscape undoes the Alt a legacy encoding gave k: when k is an Alt key that arrived
// as ESC followed by the key's own bytes (xterm's metaSendsEscape, e.g. ESC 0x01 for
// alt+ctrl+a), it returns an Escape key and the key without Alt, each with its part of
// Raw, and true. Those bytes are also exactly what Escape pressed just before the key
// sends when both arrive in one read, so a caller that knows the second key cannot mean
// Alt+key (agentmux's prefix) splits it back into two presses. Keys whose Alt came in a
// CSI sequence (ESC [1;3A, kitty's CSI u) are one key and are not split.
func SplitEscape(k Key) (esc, key Key, ok bool) {
	r := k.Raw
	if k.Mod&ModAlt == 0 || len(r) < 2 || r[0] != 0x1b {
		return Key{}, Key{}, false
	}
	if len(r) > 2 && (r[1] == '[' || r[1] == 'O') {
		return Key{}, Key{}, false // a CSI or SS3 sequence that carries Alt itself
	}
	key = k
	key.Mod &^= ModAlt
	key.Raw = clone(r[1:])
	return Key{Code: KeyEscape, Raw: clone(r[:1])}, key, true
}
