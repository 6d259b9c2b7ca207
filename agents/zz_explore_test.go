//go:build agents

package agents

import (
	"os"
	"testing"
	"time"

	"github.com/agentmux/agentmux/internal/mockmodel"
)

func TestZZExplore(t *testing.T) {
	c := cliNamed(t, os.Getenv("CLI"))
	_, url := startMock(t, c.name, mockmodel.Numbered("Q", 6), answerTime)
	home, project := c.home(t)
	cleanUpAgents(t, home, project)
	env := append(baseEnv(t, home), c.setup(t, home, project, url)...)
	tm := startTerm(t, c.name, c.argv(binDir(t, c.program())), project, env, 100, 30)
	tm.waitFor("ready", 90*time.Second, c.ready)
	time.Sleep(2 * time.Second)
	t.Logf("START\n%s\n%s", tm.dump(), tm.titleLog())
	tm.submit("say hi")
	time.Sleep(1500 * time.Millisecond)
	t.Logf("BUSY\n%s", tm.dump())
	time.Sleep(7 * time.Second)
	t.Logf("DONE\n%s", tm.dump())
	tm.submit("and again")
	time.Sleep(9 * time.Second)
	t.Logf("DONE2\n%s", tm.dump())
}
