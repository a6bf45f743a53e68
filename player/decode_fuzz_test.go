package player_test

import (
	"math"
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
	for _, m := range countMutations {
		f.Add(mutatedPlayerFile(f, m.edit))
	}
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
		for _, w := range pf.Weights.Tensors {
			for _, x := range w.Data {
				if x != x || math.IsInf(float64(x), 0) {
					t.Fatalf("accepted a weight %v", x)
				}
			}
		}
		if pf.Steps < 0 || pf.Games < 0 {
			t.Fatalf("accepted %d steps and %d games", pf.Steps, pf.Games)
		}
	})
}

// countMutations are a valid player file's counts and values made what a
// careless or hostile writer could make them (issue 65: a file with NaN
// weights loaded, and its player answered nothing).
var countMutations = []struct {
	name, want string
	edit       func(pf *player.PlayerFile)
}{
	{"a NaN weight", "holds NaN", func(pf *player.PlayerFile) { pf.Weights.Tensors[0].Data[3] = float32(math.NaN()) }},
	{"an infinite weight", "holds +Inf", func(pf *player.PlayerFile) { pf.Weights.Tensors[1].Data[0] = float32(math.Inf(1)) }},
	{"a wider network than its weights", "want", func(pf *player.PlayerFile) { pf.Weights.Arch.Width = 1 << 20 }},
	{"a deeper network than its weights", "tensors", func(pf *player.PlayerFile) { pf.Weights.Arch.Depth = 63 }},
	{"a tensor's shape past its values", "values", func(pf *player.PlayerFile) { pf.Weights.Tensors[0].Shape = []int{1 << 30, 1 << 30} }},
	{"simulations past the bound", "sims", func(pf *player.PlayerFile) { pf.Search.Sims = 1 << 40 }},
	{"a node cap past the bound", "max_nodes", func(pf *player.PlayerFile) { pf.Search.MaxNodes = 1 << 40 }},
	{"negative games", "games", func(pf *player.PlayerFile) { pf.Games = -1 }},
	{"negative steps", "steps", func(pf *player.PlayerFile) { pf.Steps = -5 }},
}

// mutatedPlayerFile is tinyPlayerFile with edit applied, checksum and all.
func mutatedPlayerFile(t testing.TB, edit func(pf *player.PlayerFile)) []byte {
	t.Helper()
	pf, err := player.DecodePlayerFile(tinyPlayerFile(t), "tiny.player")
	if err != nil {
		t.Fatal(err)
	}
	edit(pf)
	data, err := store.Encode(player.KindPlayer, player.PlayerFormatVersion, pf)
	if err != nil {
		t.Fatal(err)
	}
	return data
}

// A player file whose counts or values are out of their bounds is refused
// when it is read, with one line naming the file and what is wrong.
func TestPlayerFileCountsAndValuesAreChecked(t *testing.T) {
	for _, m := range countMutations {
		_, err := player.DecodePlayerFile(mutatedPlayerFile(t, m.edit), "bad.player")
		if err == nil || !strings.HasPrefix(err.Error(), "bad.player") || !strings.Contains(err.Error(), m.want) || strings.Contains(err.Error(), "\n") {
			t.Errorf("%s: %v, want one line naming bad.player and %q", m.name, err, m.want)
		}
	}
}
