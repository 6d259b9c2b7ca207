package web

// The key browser tests run in Firefox too, driven over WebDriver BiDi (bidi_test.go):
// one headless Firefox for the package, a tab per test. Without Firefox those tests
// skip with one line saying how to run them; AGENTMUX_REQUIRE_FIREFOX=1 (set in CI)
// turns that into a failure.

import (
	"context"
	"fmt"
	"os"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

// The Firefox the package's tests share (nil without one).
var (
	firefox     *bidi
	firefoxWhy  string // why there is none
	firefoxOnce sync.Once
)

// needFirefox returns the shared Firefox, starting it on first use; without one the
// test skips, or fails where AGENTMUX_REQUIRE_FIREFOX=1.
func needFirefox(t testing.TB) *bidi {
	t.Helper()
	firefoxOnce.Do(func() {
		path := firefoxPath()
		if path == "" {
			firefoxWhy = "no firefox found"
			return
		}
		dir, err := os.MkdirTemp(os.Getenv("TMPDIR"), "agentmux-web-firefox-") // a test's own folder
		if err != nil {
			firefoxWhy = err.Error()
			return
		}
		b, err := startFirefox(path, dir)
		if err != nil {
			os.RemoveAll(dir)
			firefoxWhy = fmt.Sprintf("firefox at %s did not start: %v", path, err)
			return
		}
		firefox = b
	})
	if firefox == nil {
		if os.Getenv("AGENTMUX_REQUIRE_FIREFOX") == "1" {
			t.Fatalf("firefox tests required (AGENTMUX_REQUIRE_FIREFOX=1) but %s", firefoxWhy)
		}
		t.Skipf("web view firefox tests did not run: %s (apt-get install firefox-esr, or set AGENTMUX_FIREFOX)", firefoxWhy)
	}
	return firefox
}

// firefoxPage is a Firefox tab.
type firefoxPage struct {
	b   *bidi
	tab string
	ctx context.Context
}

func (p firefoxPage) eval(expr string, out any) error {
	return p.b.evaluate(p.ctx, p.tab, expr, out)
}

func (firefoxPage) navigated(err error) bool {
	// The realm the expression ran in went away with its document: Firefox answers
	// "no such frame: DiscardedBrowsingContextError: Actor ... destroyed".
	return strings.Contains(err.Error(), "no such frame")
}

// firefoxTab opens url in a new Firefox tab; it closes with the test.
func firefoxTab(r *rig, url string) tab {
	r.t.Helper()
	b := needFirefox(r.t)
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	r.t.Cleanup(cancel)
	tab, err := b.newTab(ctx)
	require.NoError(r.t, err)
	r.t.Cleanup(func() {
		cctx, ccancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer ccancel()
		b.closeTab(cctx, tab)
	})
	require.NoError(r.t, b.navigate(ctx, tab, url))
	return firefoxPage{b: b, tab: tab, ctx: ctx}
}

func TestFirefoxShowsPanesLive(t *testing.T)      { checkPanesLive(t, firefoxTab) }
func TestFirefoxConversation(t *testing.T)        { checkConversation(t, firefoxTab) }
func TestFirefoxWithoutTokenRefused(t *testing.T) { checkWithoutTokenRefused(t, firefoxTab) }
