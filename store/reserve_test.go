package store

// The reserve: written in full when made (its blocks allocated, so later writes only
// overwrite), records read back by the next open, emptied by Clear, and a full reserve
// refuses a record rather than growing.

import (
	"os"
	"path/filepath"
	"syscall"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestReserveKeepsRecordsAcrossOpensInPlace(t *testing.T) {
	path := filepath.Join(t.TempDir(), "agentmux.db")
	s, err := Open(path)
	require.NoError(t, err)
	defer s.Close()
	r, held, err := s.OpenReserve("proj")
	require.NoError(t, err)
	assert.Empty(t, held)
	var st syscall.Stat_t
	require.NoError(t, syscall.Stat(path+".proj.reserve", &st))
	assert.Equal(t, int64(reserveSlot*reserveSlots), st.Size)
	assert.GreaterOrEqual(t, st.Blocks*512, st.Size, "its space is allocated, not sparse")
	info, err := os.Stat(path + ".proj.reserve")
	require.NoError(t, err)
	assert.Equal(t, os.FileMode(0o600), info.Mode().Perm())

	require.NoError(t, r.Add("m1", "bob"))
	require.NoError(t, r.Add("m2", "carol"))
	require.NoError(t, r.Close())
	r, held, err = s.OpenReserve("proj")
	require.NoError(t, err)
	assert.Equal(t, []Reserved{{"m1", "bob"}, {"m2", "carol"}}, held)
	require.NoError(t, r.Add("m3", "bob"), "appended after what is held")
	require.NoError(t, r.Close())
	r, held, err = s.OpenReserve("proj")
	require.NoError(t, err)
	assert.Len(t, held, 3)

	require.NoError(t, r.Clear())
	for i := range reserveSlots {
		require.NoError(t, r.Add("m", "x"), "slot %d", i)
	}
	assert.ErrorIs(t, r.Add("m", "x"), ErrReserveFull)
	require.NoError(t, r.Clear())
	require.NoError(t, r.Close())
	r, held, err = s.OpenReserve("proj")
	require.NoError(t, err)
	defer r.Close()
	assert.Empty(t, held)
	require.NoError(t, syscall.Stat(path+".proj.reserve", &st))
	assert.Equal(t, int64(reserveSlot*reserveSlots), st.Size, "never grows")
}
