// Frames being read hold their bytes in one budget shared by every connection: two
// connections each sending all but the last byte of a 1 MiB frame cannot both be held in
// a budget of 1 MiB, so one is told so and closed; once they are gone the budget is whole
// again. The RSS benchmark measures the attack of many such connections.
package hub_test

import (
	"encoding/binary"
	"net"
	"os"
	"runtime"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/agentmux/agentmux/client"
	"github.com/agentmux/agentmux/hub"
	"github.com/agentmux/agentmux/proto"
)

// almostFrame sends on nc the header of a frame of 1 MiB - 1 and all its bytes but the
// last (errors ignored: the hub may close the connection meanwhile).
func almostFrame(nc net.Conn, body []byte) {
	var hdr [4]byte
	binary.BigEndian.PutUint32(hdr[:], uint32(len(body)+1))
	nc.Write(hdr[:])
	nc.Write(body)
}

func TestPartialFramesShareOneBudget(t *testing.T) {
	e := start(t, nil, "", func(c *hub.Config) {
		c.FrameBudget = 1 << 20
		c.Heartbeat = time.Minute // only the budget closes a connection here
	})
	body := make([]byte, 1<<20-2)
	refused := make(chan *proto.Error, 2)
	for range 2 {
		c, err := client.DialRaw(e.path)
		require.NoError(t, err)
		defer c.Raw().Close()
		go almostFrame(c.Raw(), body)
		go func() {
			for {
				e, err := c.Read()
				if err != nil {
					return
				}
				if e.Type == proto.TypeError {
					p, _ := proto.DecodePayload[proto.Error](e)
					refused <- &p
					return
				}
			}
		}()
	}
	select {
	case p := <-refused:
		assert.Equal(t, proto.CodeInternal, p.Code)
		assert.Contains(t, p.Message, "too many large frames at once")
	case <-time.After(10 * time.Second):
		t.Fatal("two frames of 1 MiB held in a budget of 1 MiB")
	}
}

// rssKB is the process's resident set size and its peak, in KiB (/proc/self/status).
func rssKB(b *testing.B) (now, peak int) {
	s, err := os.ReadFile("/proc/self/status")
	if err != nil {
		b.Skip("no /proc/self/status")
	}
	for _, l := range strings.Split(string(s), "\n") {
		f := strings.Fields(l)
		if len(f) < 2 {
			continue
		}
		v, _ := strconv.Atoi(f[1])
		switch f[0] {
		case "VmRSS:":
			now = v
		case "VmHWM:":
			peak = v
		}
	}
	return now, peak
}

// BenchmarkPartialFramesRSS measures the process's memory while 300 connections each
// send all but the last byte of a 1 MiB frame, and after they closed (a GC later): the
// attack of a local process on the session socket. Run it alone (one iteration):
//
//	go test -run '^$' -bench PartialFramesRSS -benchtime 1x ./hub/
func BenchmarkPartialFramesRSS(b *testing.B) {
	for range b.N {
		e := start(b, nil, "", func(c *hub.Config) { c.Heartbeat = time.Minute })
		runtime.GC()
		before, _ := rssKB(b)
		body := make([]byte, 1<<20-2)
		var conns []net.Conn
		for range 300 {
			nc, err := net.Dial("unix", e.path)
			if err != nil {
				b.Fatal(err)
			}
			conns = append(conns, nc)
			almostFrame(nc, body) // returns once the hub read all but the socket's buffer
		}
		during, _ := rssKB(b)
		for _, nc := range conns {
			nc.Close()
		}
		// The hub sees them close; a request after is served once it did.
		c, err := client.Dial(e.path, proto.Hello{Agent: "after"})
		if err != nil {
			b.Fatal(err)
		}
		c.Raw().Close()
		runtime.GC()
		after, peak := rssKB(b)
		b.ReportMetric(float64(before)/1024, "MB-rss-before")
		b.ReportMetric(float64(during)/1024, "MB-rss-during")
		b.ReportMetric(float64(peak)/1024, "MB-rss-peak")
		b.ReportMetric(float64(after)/1024, "MB-rss-after")
	}
}
