package train

import (
	"testing"

	"github.com/sliderzero/sliderzero/store"
)

// A checkpoint stores its configuration, search settings and all, under
// names its msgpack tags fix: renaming a Go field cannot change the format.
func TestCheckpointSchema(t *testing.T) {
	if u := store.UntaggedFields(Checkpoint{}); len(u) > 0 {
		t.Errorf("stored without a msgpack tag: %v", u)
	}
}
