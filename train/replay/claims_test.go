package replay

import (
	"encoding/binary"
	"runtime"
	"strings"
	"testing"

	"github.com/sliderzero/sliderzero/env/games"
	"github.com/sliderzero/sliderzero/store"
)

// emptySamples is a checksummed shard whose data expands to n empty
// samples (each one byte, an empty map) and that claims the given counts.
func emptySamples(t testing.TB, n int, f shardFile) []byte {
	t.Helper()
	raw := make([]byte, 5, 5+n)
	raw[0] = 0xdd // array 32
	binary.BigEndian.PutUint32(raw[1:], uint32(n))
	for i := 0; i < n; i++ {
		raw = append(raw, 0x80)
	}
	f.Game = games.DefaultTraining()
	f.Data = encoder().EncodeAll(raw, nil)
	data, err := store.Encode(KindShard, ShardVersion, &f)
	if err != nil {
		t.Fatal(err)
	}
	return data
}

// A shard's counts are checked against what it holds before they size an
// allocation (issue 65: a 1,142-byte shard whose data expanded to 12
// million empty samples took 2.5 GB before it was set aside). Whatever it
// claims, decoding it allocates a small multiple of what it expands to.
func TestShardClaimsAreCheckedBeforeAllocating(t *testing.T) {
	const n = 12_000_000
	for _, c := range []struct {
		name  string
		f     shardFile
		want  string
		bytes uint64
	}{
		{"claims them all", shardFile{Games: 1, Plies: n, Positions: n}, "a shard decodes to at most", 64 << 20},
		{"claims 879", shardFile{Games: 1, Plies: 879, Positions: 879}, "expand past", 64 << 20},
		{"claims 200,000", shardFile{Games: 1, Plies: 200_000, Positions: 200_000}, "and says 200000", 64 << 20},
	} {
		data := emptySamples(t, n, c.f)
		if len(data) > 2000 {
			t.Fatalf("%s: the shard takes %d bytes", c.name, len(data))
		}
		var before, after runtime.MemStats
		runtime.ReadMemStats(&before)
		_, _, err := Decode(data, "bomb.shard", false)
		runtime.ReadMemStats(&after)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: %v, want an error with %q", c.name, err, c.want)
		}
		if grew := after.TotalAlloc - before.TotalAlloc; grew > c.bytes {
			t.Errorf("%s: decoding %d bytes allocated %d MB", c.name, len(data), grew>>20)
		}
	}
	// As many empty samples as claimed: too few bytes to hold them.
	data := emptySamples(t, 200_000, shardFile{Games: 1, Plies: 200_000, Positions: 200_000})
	if _, _, err := Decode(data, "empty.shard", false); err == nil || !strings.Contains(err.Error(), "too few to hold them") {
		t.Errorf("200,000 empty samples: %v", err)
	}
}

// A shard's counts are non-negative and bounded, its games and positions
// within its plies, its capped games and wins within its games (issue 65:
// a shard claiming 2^62 games beside 879 positions was taken, and two of
// them made the run's total of games negative). Read for counts only
// (while resuming) as when read whole.
func TestShardCountsAreChecked(t *testing.T) {
	for _, c := range []struct {
		f    shardFile
		want string
	}{
		{shardFile{Games: 1 << 62, Plies: 879, Positions: 879}, "games and 879 positions in 879 plies"},
		{shardFile{Games: -1, Plies: 10, Positions: 10}, "negative count"},
		{shardFile{Games: 1, Plies: 1 << 40, Positions: 10}, "plies: at most"},
		{shardFile{Games: 1, Plies: 5, Positions: 10}, "10 positions in 5 plies"},
		{shardFile{Games: 2, Plies: 10, Positions: 10, Capped: 3}, "3 capped games"},
		{shardFile{Games: 2, Plies: 10, Positions: 10, Wins: store.Sorted[int]{"H": 2, "V": 1}}, "3 wins in 2 games"},
		{shardFile{Games: 2, Plies: 10, Positions: 10, Sims: -5}, "simulations"},
	} {
		data := emptySamples(t, 0, c.f)
		for _, countsOnly := range []bool{true, false} {
			if _, _, err := Decode(data, "bad.shard", countsOnly); err == nil || !strings.Contains(err.Error(), c.want) {
				t.Errorf("%+v (counts only %v): %v, want an error with %q", c.f, countsOnly, err, c.want)
			}
		}
	}
}
