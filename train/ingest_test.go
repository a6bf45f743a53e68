package train

import (
	"fmt"
	"testing"
)

// With many producers, a round's limit is shared among them: in key order
// it went to the first producers by name and the others' games waited for
// ever while those kept writing.
func TestFairOrderSharesARoundAmongProducers(t *testing.T) {
	var keys []string
	for _, p := range []string{"a", "b", "c"} {
		n := map[string]int{"a": 40, "b": 3, "c": 1}[p]
		for seq := 1; seq <= n; seq++ {
			keys = append(keys, fmt.Sprintf("shards/%s-%06d.msgpack", p, seq))
		}
	}
	got := fairOrder(keys)
	if len(got) != len(keys) {
		t.Fatalf("%d keys out of %d", len(got), len(keys))
	}
	want := []string{"shards/a-000001.msgpack", "shards/b-000001.msgpack", "shards/c-000001.msgpack",
		"shards/a-000002.msgpack", "shards/b-000002.msgpack", "shards/a-000003.msgpack", "shards/b-000003.msgpack", "shards/a-000004.msgpack"}
	for i, w := range want {
		if got[i] != w {
			t.Fatalf("key %d is %s, want %s (order %v)", i, got[i], w, got[:len(want)])
		}
	}
}
