package session

// The walk from a client process to its parents is the same on every system; only how
// one parent is read is the system's. These tests run that walk against a made-up
// process table, and read FreeBSD's kinfo_proc records built here, so the parts the
// macOS and FreeBSD builds share with Linux are tested on Linux too.

import (
	"encoding/binary"
	"testing"

	"github.com/stretchr/testify/assert"
)

func TestWalkLineageFollowsParentsToInit(t *testing.T) {
	parents := map[int]int{50: 40, 40: 30, 30: 1}
	sessions := map[int]int{50: 35}
	got := walkLineage(50, func(p int) int { return sessions[p] }, func(p int) int { return parents[p] })
	assert.Equal(t, []int{50, 35, 40, 30}, got)

	// No session leader known, no parent known: the client alone.
	assert.Equal(t, []int{7}, walkLineage(7, func(int) int { return 0 }, func(int) int { return 0 }))
	// A session led by init is not a pane's.
	assert.Equal(t, []int{7}, walkLineage(7, func(int) int { return 1 }, func(int) int { return 0 }))
}

// A parent table read while pids are reused can hold a cycle: the walk still ends.
func TestWalkLineageEndsOnACycle(t *testing.T) {
	parents := map[int]int{10: 20, 20: 10}
	got := walkLineage(10, func(int) int { return 0 }, func(p int) int { return parents[p] })
	assert.Len(t, got, 1+maxLineage)
}

// kinfoRecord is a FreeBSD struct kinfo_proc of size bytes for pid and ppid, on a system
// whose pointers are ptrSize bytes.
func kinfoRecord(size, ptrSize, pid, ppid int) []byte {
	b := make([]byte, size)
	binary.NativeEndian.PutUint32(b, uint32(size))
	off := 8 + 8*ptrSize
	binary.NativeEndian.PutUint32(b[off:], uint32(pid))
	binary.NativeEndian.PutUint32(b[off+4:], uint32(ppid))
	binary.NativeEndian.PutUint32(b[off+8:], 999) // ki_pgid, not the parent
	return b
}

func TestKinfoParentReadsFreeBSDRecords(t *testing.T) {
	// KINFO_PROC_SIZE is 1088 on 64-bit FreeBSD and 768 on i386.
	assert.Equal(t, 4321, kinfoParent(kinfoRecord(1088, 8, 1234, 4321), 1234, 8))
	assert.Equal(t, 4321, kinfoParent(kinfoRecord(768, 4, 1234, 4321), 1234, 4))

	good := kinfoRecord(1088, 8, 1234, 4321)
	assert.Zero(t, kinfoParent(good, 1235, 8), "a record of another process")
	assert.Zero(t, kinfoParent(good[:1000], 1234, 8), "a record cut short")
	assert.Zero(t, kinfoParent(good[:70], 1234, 8), "shorter than its pid")
	assert.Zero(t, kinfoParent(nil, 1234, 8), "nothing")
	assert.Zero(t, kinfoParent(kinfoRecord(1088, 8, 1234, 4321), 1234, 4), "read with the wrong pointer size")
}
