package main

import (
	"runtime"
	"testing"

	"github.com/stretchr/testify/assert"
)

// The session server runs on one processor unless the person's environment says
// otherwise.
func TestServerRunsOnOneProcessor(t *testing.T) {
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(0))

	runtime.GOMAXPROCS(2)
	t.Setenv("GOMAXPROCS", "")
	oneProcessor()
	assert.Equal(t, 1, runtime.GOMAXPROCS(0), "unset: one processor")

	runtime.GOMAXPROCS(2)
	t.Setenv("GOMAXPROCS", "2")
	oneProcessor()
	assert.Equal(t, 2, runtime.GOMAXPROCS(0), "the environment's setting stands")
}
