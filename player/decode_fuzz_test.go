package player_test

import (
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/vmihailenco/msgpack/v5"

	"github.com/sliderzero/sliderzero/env/games"
	"github.com/sliderzero/sliderzero/env/registry"
	"github.com/sliderzero/sliderzero/mcts"
	"github.com/sliderzero/sliderzero/model"
	"github.com/sliderzero/sliderzero/player"
	"github.com/sliderzero/sliderzero/store"
)

// tinyPlayerFile is a valid player file of a 4x4 Slider network of width
// 4: small enough for the fuzzer to mutate quickly.
func tinyPlayerFile(t testing.TB) []byte {
	t.Helper()
	spec := registry.Spec{Name: "slider"}.With("size", "4")
	g, err := games.New(spec)
	if err != nil {
		t.Fatal(err)
	}
	w, err := model.NewWeights(model.NewArch("mlp", 4, 1, g), rand.New(rand.NewPCG(1, 2)))
	if err != nil {
		t.Fatal(err)
	}
	data, err := store.Encode(player.KindPlayer, player.PlayerFormatVersion,
		&player.PlayerFile{Game: spec, Weights: w, Search: mcts.Params{Sims: 10}.WithDefaults()})
	if err != nil {
		t.Fatal(err)
	}
	return data
}

// withField re-encodes a player file with one field of its body replaced,
// keeping the envelope (and so the checksum) valid.
func withField(t testing.TB, data []byte, key string, value any) []byte {
	t.Helper()
	var env map[string]any
	if err := msgpack.Unmarshal(data, &env); err != nil {
		t.Fatal(err)
	}
	var body map[string]any
	if err := msgpack.Unmarshal(env["body"].([]byte), &body); err != nil {
		t.Fatal(err)
	}
	body[key] = value
	raw, err := msgpack.Marshal(body)
	if err != nil {
		t.Fatal(err)
	}
	out, err := store.Encode(player.KindPlayer, player.PlayerFormatVersion, msgpack.RawMessage(raw))
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// A checksummed player file whose metadata holds a nil time once panicked
// the decoder (the msgpack library panics on it), and with it every
// /api/info of the web app.
func TestPlayerFileNilTimeIsRefused(t *testing.T) {
	data := tinyPlayerFile(t)
	if _, err := player.DecodePlayerFile(data, "tiny.player"); err != nil {
		t.Fatalf("the valid file: %v", err)
	}
	for key, value := range map[string]any{"exported": nil, "search": "fast", "weights": []int{1, 2}, "game": 7} {
		_, err := player.DecodePlayerFile(withField(t, data, key, value), "bad.player")
		if err == nil || !strings.HasPrefix(err.Error(), "bad.player: ") {
			t.Errorf("%s = %v: %v, want an error naming bad.player", key, value, err)
		}
	}
}

// FuzzDecodePlayerFile: no bytes panic the decoder; whatever it accepts
// is a player whose network fits its game.
func FuzzDecodePlayerFile(f *testing.F) {
	data := tinyPlayerFile(f)
	f.Add(data)
	f.Add(withField(f, data, "exported", nil))
	f.Add(data[:len(data)/2])
	f.Add([]byte("sliderzero"))
	f.Fuzz(func(t *testing.T, b []byte) {
		pf, err := player.DecodePlayerFile(b, "fuzz.player")
		if err != nil {
			return
		}
		g, err := games.New(pf.Game)
		if err != nil {
			t.Fatalf("accepted a file of an unknown game: %v", err)
		}
		if _, err := model.NewNet(pf.Weights); err != nil {
			t.Fatalf("accepted a network that does not load: %v", err)
		}
		if err := pf.Weights.Arch.CheckGame(g); err != nil {
			t.Fatalf("accepted a network that does not fit: %v", err)
		}
	})
}
