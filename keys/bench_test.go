package keys

// Benchmarks for the per-keystroke path: decoding what the outer terminal sends (one
// key per read, as when a person types) and encoding it for a pane, plus a large paste.

import (
	"strings"
	"testing"
)

func BenchmarkDecodeTypedKey(b *testing.B) {
	var d Decoder
	in := []byte("a")
	b.ReportAllocs()
	for b.Loop() {
		_ = d.Feed(in)
	}
}

func BenchmarkDecodeKittyKey(b *testing.B) {
	var d Decoder
	in := []byte("\x1b[97:65;6u")
	b.ReportAllocs()
	for b.Loop() {
		_ = d.Feed(in)
	}
}

func BenchmarkEncodeLegacy(b *testing.B) {
	k := key(KeyUp, ModCtrl)
	b.ReportAllocs()
	for b.Loop() {
		_ = Encode(k, normal)
	}
}

func BenchmarkEncodeKitty(b *testing.B) {
	k := ch('A', ModCtrl|ModShift)
	m := kitty(KittyDisambiguate | KittyReportEvents | KittyReportAltKeys)
	b.ReportAllocs()
	for b.Loop() {
		_ = Encode(k, m)
	}
}

func BenchmarkDecodePaste1MiB(b *testing.B) {
	in := []byte("\x1b[200~" + strings.Repeat("pasted text\n", 1<<20/12) + "\x1b[201~")
	b.SetBytes(int64(len(in)))
	b.ReportAllocs()
	for b.Loop() {
		var d Decoder
		for i := 0; i < len(in); i += 4096 {
			_ = d.Feed(in[i:min(i+4096, len(in))])
		}
	}
}
