package attach

// Strategy: round-trip every frame kind through its encoder and Decode, and feed Decode
// the bad frames a client could send (empty, unknown kind, resizes of the wrong length
// or size 0): each is an ErrBadFrame, never a panic or a wrong frame.

import (
	"errors"
	"testing"
)

func TestFramesRoundTrip(t *testing.T) {
	f, err := Decode(Input([]byte("\x1b[13;2u")))
	if err != nil || f.Kind != KindInput || string(f.Data) != "\x1b[13;2u" {
		t.Errorf("input: %+v %v", f, err)
	}
	f, err = Decode(Resize(300, 70))
	if err != nil || f.Kind != KindResize || f.Cols != 300 || f.Rows != 70 {
		t.Errorf("resize: %+v %v", f, err)
	}
	f, err = Decode(End(ReasonDetached, "bye now"))
	if err != nil || f.Kind != KindEnd || f.Reason != ReasonDetached || string(f.Data) != "bye now" {
		t.Errorf("end: %+v %v", f, err)
	}
	if f, err = Decode(Detach()); err != nil || f.Kind != KindDetach {
		t.Errorf("detach: %+v %v", f, err)
	}
	if f, err = Decode(Ack(MaxFrame - 1)); err != nil || f.Kind != KindAck || f.Acked != MaxFrame-1 {
		t.Errorf("ack: %+v %v", f, err)
	}
}

func TestBadFrames(t *testing.T) {
	for _, body := range [][]byte{nil, {'x'}, {KindResize, 0, 80}, {KindResize, 0, 0, 0, 24}, {KindDetach, 1},
		{KindAck, 0, 0, 1}, {KindAck, 0, 0, 0, 0}, {KindAck, 0, 1, 0, 1}} {
		if _, err := Decode(body); !errors.Is(err, ErrBadFrame) {
			t.Errorf("Decode(%q) = %v, want ErrBadFrame", body, err)
		}
	}
}

func TestRequestValidate(t *testing.T) {
	ok := Request{Version: Version, Cols: 80, Rows: 24}
	if err := ok.Validate(); err != nil {
		t.Errorf("%+v: %v", ok, err)
	}
	for _, r := range []Request{{Version: 2, Cols: 80, Rows: 24}, {Version: Version, Cols: 0, Rows: 24}, {Version: Version, Cols: 80, Rows: 100000}} {
		if err := r.Validate(); err == nil {
			t.Errorf("%+v accepted", r)
		}
	}
}

// FuzzDecode: any body decodes to a frame or ErrBadFrame, never a panic; a resize is
// never of size 0; an ack counts 1..MaxFrame bytes and re-encodes as it came; input and
// output frames carry their bytes unchanged.
func FuzzDecode(f *testing.F) {
	for _, seed := range [][]byte{Input([]byte("ab")), Resize(80, 24), Detach(), End(ReasonEnded, "x"), Ack(5), {'r', 0}, {}} {
		f.Add(seed)
	}
	f.Fuzz(func(t *testing.T, body []byte) {
		fr, err := Decode(body)
		if err != nil {
			if !errors.Is(err, ErrBadFrame) {
				t.Fatalf("Decode(%q): %v is not ErrBadFrame", body, err)
			}
			return
		}
		switch fr.Kind {
		case KindResize:
			if fr.Cols < 1 || fr.Rows < 1 || fr.Cols > MaxCols || fr.Rows > MaxRows {
				t.Fatalf("Decode(%q): size %dx%d", body, fr.Cols, fr.Rows)
			}
			// A size within the bounds re-encodes as it came; one past them, clamped.
			cols, rows := int(body[1])<<8|int(body[2]), int(body[3])<<8|int(body[4])
			if fr.Cols != min(cols, MaxCols) || fr.Rows != min(rows, MaxRows) {
				t.Fatalf("Decode(%q): size %dx%d", body, fr.Cols, fr.Rows)
			}
			if got := Resize(fr.Cols, fr.Rows); cols <= MaxCols && rows <= MaxRows && string(got) != string(body) {
				t.Fatalf("resize %q re-encodes as %q", body, got)
			}
		case KindAck:
			if fr.Acked < 1 || fr.Acked > MaxFrame || string(Ack(fr.Acked)) != string(body) {
				t.Fatalf("Decode(%q): ack of %d", body, fr.Acked)
			}
		case KindInput, KindOutput:
			if string(fr.Data) != string(body[1:]) {
				t.Fatalf("Decode(%q): data %q", body, fr.Data)
			}
		}
	})
}

// A size larger than any terminal's (a client's bug, a script's) is drawn at the
// largest the session draws: what it allocates for a terminal's pictures grows with it
// (65535×65535 grew a server by 100 MB a second, for good).
func TestSizesAreBounded(t *testing.T) {
	f, err := Decode(Resize(65535, 65535))
	if err != nil || f.Cols != MaxCols || f.Rows != MaxRows {
		t.Errorf("resize 65535×65535: %+v %v", f, err)
	}
	r := Request{Version: Version, Cols: 9000, Rows: 120}
	if err := r.Validate(); err != nil || r.Cols != MaxCols || r.Rows != 120 {
		t.Errorf("attach at 9000×120: %+v %v", r, err)
	}
}
