package keys

// Helpers only tests use, kept out of the package's code.

// held returns how many input bytes the Decoder holds (for the conservation tests).
func (d *Decoder) held() int {
	n := len(d.buf)
	if d.paste != nil {
		n += len(d.paste.raw)
	}
	return n
}
