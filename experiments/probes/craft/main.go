// Command craft makes the files issue 65's probes feed the program: valid,
// checksummed files that claim what a careless or hostile writer could
// make them claim (experiments/probes/run.sh).
//
//	craft shard-count IN OUT FIELD VALUE  a shard with one count replaced (games=4611686018427387904)
//	craft shard-bomb IN OUT N CLAIM       a shard whose data expands to N empty samples, claiming CLAIM positions and plies
//	craft player-nan IN OUT               a player file with a NaN weight
//	craft player-nodes IN OUT             a player file whose search claims 2^40 tree nodes
package main

import (
	"encoding/binary"
	"fmt"
	"math"
	"os"
	"strconv"

	"github.com/klauspost/compress/zstd"

	"github.com/sliderzero/sliderzero/player"
	"github.com/sliderzero/sliderzero/store"
	"github.com/sliderzero/sliderzero/train/replay"
)

func main() {
	if len(os.Args) < 4 {
		fmt.Fprintln(os.Stderr, "usage: craft shard-count|shard-bomb|player-nan|player-nodes IN OUT [ARGS]")
		os.Exit(2)
	}
	in, out := os.Args[2], os.Args[3]
	data, err := os.ReadFile(in)
	if err == nil {
		data, err = craft(os.Args[1], in, data, os.Args[4:])
	}
	if err == nil {
		err = os.WriteFile(out, data, 0o644)
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "craft:", err)
		os.Exit(1)
	}
}

// craft is the file of the kind asked, made from a valid one.
func craft(kind, in string, data []byte, args []string) ([]byte, error) {
	switch kind {
	case "shard-count", "shard-bomb":
		if len(args) != 2 {
			return nil, fmt.Errorf("%s takes two arguments", kind)
		}
		a, err1 := strconv.ParseInt(args[0], 10, 64)
		b, err2 := strconv.ParseInt(args[1], 10, 64)
		var m map[string]any
		_, err := store.Decode(data, in, replay.KindShard, replay.ShardVersion, &m)
		switch {
		case err != nil:
			return nil, err
		case kind == "shard-count" && err2 != nil:
			return nil, err2
		case kind == "shard-count":
			m[args[0]] = b
		case err1 != nil || err2 != nil || a < 0 || a > 1<<30:
			return nil, fmt.Errorf("shard-bomb: bad counts %q", args)
		default:
			m["data"] = emptySamples(int(a))
			m["positions"], m["plies"], m["games"] = b, b, int64(1)
			delete(m, "samples")
		}
		return store.Encode(replay.KindShard, replay.ShardVersion, m)
	case "player-nan", "player-nodes":
		pf, err := player.DecodePlayerFile(data, in)
		if err != nil {
			return nil, err
		}
		if kind == "player-nan" {
			pf.Weights.Tensors[0].Data[3] = float32(math.NaN())
		} else {
			pf.Search.MaxNodes = 1 << 40
		}
		return store.Encode(player.KindPlayer, player.PlayerFormatVersion, pf)
	}
	return nil, fmt.Errorf("unknown kind %q", kind)
}

// emptySamples is zstd-compressed msgpack holding an array of n empty
// maps: a byte a sample, a few hundred bytes compressed.
func emptySamples(n int) []byte {
	raw := make([]byte, 5, 5+n)
	raw[0] = 0xdd // array 32
	binary.BigEndian.PutUint32(raw[1:], uint32(n))
	for range n {
		raw = append(raw, 0x80)
	}
	enc, _ := zstd.NewWriter(nil)
	return enc.EncodeAll(raw, nil)
}
