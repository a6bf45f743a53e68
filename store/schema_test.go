package store

import (
	"reflect"
	"testing"
	"time"

	"github.com/vmihailenco/msgpack/v5"
)

type inner struct {
	Tagged   int `msgpack:"tagged"`
	Untagged int
}

// custom writes itself: its fields are not its format.
type custom struct{ Untagged int }

func (custom) EncodeMsgpack(*msgpack.Encoder) error { return nil }

type outer struct {
	A     int              `msgpack:"a"`
	Own   custom           `msgpack:"own"`
	In    []*inner         `msgpack:"in"`
	ByKey map[string]inner `msgpack:"by_key"`
	When  time.Time        `msgpack:"when"`
	Bare  float64
	hide  int
}

func TestUntaggedFields(t *testing.T) {
	got := UntaggedFields(outer{hide: 1})
	want := []string{"store.inner.Untagged", "store.outer.Bare"}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("got %v, want %v", got, want)
	}
}
