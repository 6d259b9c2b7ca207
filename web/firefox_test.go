package web

// The key browser tests run in Firefox too, driven over WebDriver BiDi (bidi_test.go):
// one headless Firefox for the package, a tab per test. Without Firefox those tests
// skip with one line saying how to run them; AGENTMUX_REQUIRE_FIREFOX=1 (set in CI)
// turns that into a failure.

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"strconv"
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

func (p firefoxPage) keys(text string) error { return p.b.typeText(p.ctx, p.tab, text) }

// click clicks the middle of the first element css selects, with the mouse.
func (p firefoxPage) click(css string) error {
	var js string
	err := p.eval(`(e => { e.scrollIntoView({block: 'nearest'}); const r = e.getBoundingClientRect();
		return JSON.stringify([Math.round(r.x + r.width / 2), Math.round(r.y + r.height / 2)]); })(document.querySelector(`+strconv.Quote(css)+`))`, &js)
	if err != nil {
		return fmt.Errorf("find %s: %w", css, err)
	}
	var at []int
	if err := json.Unmarshal([]byte(js), &at); err != nil || len(at) != 2 {
		return fmt.Errorf("find %s: %q", css, js)
	}
	return p.b.clickAt(p.ctx, p.tab, at[0], at[1])
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

func TestFirefoxZoom(t *testing.T)                 { checkZoom(t, firefoxTab) }
func TestFirefoxControlSendsAndTypes(t *testing.T) { checkControlSendsAndTypes(t, firefoxTab) }
func TestFirefoxShowsPanesLive(t *testing.T)       { checkPanesLive(t, firefoxTab) }
func TestFirefoxConversation(t *testing.T)         { checkConversation(t, firefoxTab) }
func TestFirefoxWithoutTokenRefused(t *testing.T)  { checkWithoutTokenRefused(t, firefoxTab) }
