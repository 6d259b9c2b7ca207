package proto

import (
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
)

// A stored message's meta reads back as the hub stored it, nothing for none or for what
// does not read; its expiry is its TTL after it was queued, none without a TTL.
func TestStoredSendMetaAndExpiry(t *testing.T) {
	queued := time.UnixMilli(1_000_000)
	m := StoredSendMeta(`{"ttl_ms":1500,"x_remind_ms":60000,"mode":"urgent"}`)
	assert.Equal(t, SendMeta{TTLMs: 1500, XRemindMs: 60000, Mode: ModeUrgent}, m)
	assert.Equal(t, queued.Add(1500*time.Millisecond), m.Expiry(queued))

	assert.Equal(t, SendMeta{}, StoredSendMeta(""))
	assert.Equal(t, SendMeta{}, StoredSendMeta("{not json"))
	assert.True(t, SendMeta{}.Expiry(queued).IsZero(), "no TTL, no expiry")
	assert.True(t, SendMeta{TTLMs: -5}.Expiry(queued).IsZero())
}
