package learn

import (
	"testing"

	"github.com/sliderzero/sliderzero/store"
)

// The optimiser's state is stored in checkpoints: every field has its
// msgpack name.
func TestAdamSchema(t *testing.T) {
	if u := store.UntaggedFields(Adam{}); len(u) > 0 {
		t.Errorf("Adam stored without a msgpack tag: %v", u)
	}
}
