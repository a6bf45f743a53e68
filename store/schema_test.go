package store

import (
	"reflect"
	"testing"
	"time"
)

type inner struct {
	Tagged   int `msgpack:"tagged"`
	Untagged int
}

type outer struct {
	A     int              `msgpack:"a"`
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
