package main

// agentmux --version names a version however the binary was built: a release archive
// (set through -ldflags -X main.version), go install …@vX (the module's version in the
// build info), a build in a git clone (the pseudo-version Go derives from the commit, or
// devel and the revision), and never an empty string, whatever the build info holds.

import (
	"runtime/debug"
	"testing"

	"github.com/stretchr/testify/assert"
)

func TestVersionOfEachWayOfBuilding(t *testing.T) {
	cases := []struct {
		how  string
		set  string
		bi   *debug.BuildInfo
		want string
	}{
		{"a release archive (.goreleaser.yaml's ldflags)", "v0.0.1-snapshot+3dc3fed", &debug.BuildInfo{Main: debug.Module{Version: "(devel)"}}, "v0.0.1-snapshot+3dc3fed"},
		{"go install …@v1.2.3", "", &debug.BuildInfo{Main: debug.Module{Path: "github.com/agentmux/agentmux", Version: "v1.2.3"}}, "v1.2.3"},
		{"make build in a git clone", "", &debug.BuildInfo{Main: debug.Module{Version: "v0.0.0-20261129011500-3dc3fed1a2b4+dirty"}}, "v0.0.0-20261129011500-3dc3fed1a2b4+dirty"},
		{"a source tree without git", "", &debug.BuildInfo{Main: debug.Module{Version: "(devel)"}}, "devel"},
	}
	for _, c := range cases {
		assert.Equal(t, c.want, versionOf(c.set, c.bi), c.how)
	}
}

func TestVersionIsNeverEmpty(t *testing.T) {
	for _, set := range []string{"", "v1.0.0"} {
		for _, mv := range []string{"", "(devel)", "v1.0.0"} {
			for _, settings := range [][]debug.BuildSetting{nil, {{Key: "vcs.revision", Value: ""}}, {{Key: "vcs.revision", Value: "abc"}}} {
				bi := &debug.BuildInfo{Main: debug.Module{Version: mv}, Settings: settings}
				assert.NotEmpty(t, versionOf(set, bi), "set %q, module version %q, %v", set, mv, settings)
			}
			assert.NotEmpty(t, versionOf(set, nil))
		}
	}
	assert.NotEmpty(t, versionString())
}
