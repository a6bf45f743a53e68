package model

import (
	"testing"

	"github.com/sliderzero/sliderzero/store"
)

func TestNetFileSchema(t *testing.T) {
	for _, v := range []any{NetFile{}} {
		if u := store.UntaggedFields(v); len(u) > 0 {
			t.Errorf("%T stored without a msgpack tag: %v", v, u)
		}
	}
}
