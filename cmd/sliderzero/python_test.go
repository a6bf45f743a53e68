package main

import (
	"bufio"
	"encoding/json"
	"math"
	"math/rand/v2"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/sliderzero/sliderzero/env/games"
	"github.com/sliderzero/sliderzero/model"
	"github.com/sliderzero/sliderzero/player"
	"github.com/sliderzero/sliderzero/store"
)

// A shipped player leaves Go: exported as safetensors, it is run by
// examples/python/run.py (Python's standard library alone), which encodes
// ten positions from their notation and gives the network's value and
// logits within 1e-5 of the project's own pass. Where no python3 is
// found the test says so and skips.
func TestPlayersLeaveGo(t *testing.T) {
	py, err := exec.LookPath("python3")
	if err != nil {
		t.Skip("no python3 here: the Python example is not tried")
	}
	var files []string
	for _, file := range []string{"slider-5x5.player", "slider-6x6.player", "slider-7x7.player", "connect4.player"} {
		files = append(files, filepath.Join("..", "..", "checkpoints", file))
	}
	// And networks with the three-way value head and the plies head, and
	// with a convolutional trunk, no shipped player having them yet.
	files = append(files, randomPlayer(t, "wdl", func(a *model.Arch) { a.WDL, a.MovesLeft = true, true }),
		randomPlayer(t, "conv", func(a *model.Arch) { a.Kind, a.Width, a.Depth = model.KindConv, 6, 1 }))
	for _, src := range files {
		file := filepath.Base(src)
		pf, err := player.LoadPlayerFile(src)
		if err != nil {
			t.Fatal(err)
		}
		out := filepath.Join(t.TempDir(), "net.safetensors")
		if msg, err := runCmd(t, "", "export", "--checkpoint", src, "--format", "safetensors", "--out", out); err != nil {
			t.Fatalf("%s: %v\n%s", file, err, msg)
		}
		// Ten positions of seeded random games, on random layouts where
		// the game has them (the blocked plane too).
		spec := pf.Game
		if spec.Name == "slider" {
			spec = spec.With("blocked", "random")
		}
		g, err := games.New(spec)
		if err != nil {
			t.Fatal(err)
		}
		rng := rand.New(rand.NewPCG(7, uint64(len(file))))
		args := []string{"../../examples/python/run.py", out}
		var want [][]float32
		var wantPlies []float32
		net, err := model.NewNet(pf.Weights)
		if err != nil {
			t.Fatal(err)
		}
		fwd := net.NewForward()
		input := make([]float32, g.InputShape().Size())
		for len(args) < 12 {
			s := g.Start(rng)
			for k := rng.IntN(12); k > 0 && !s.Outcome().Over; k-- {
				legal := s.LegalActions(nil)
				s.Apply(legal[rng.IntN(len(legal))])
			}
			if s.Outcome().Over {
				continue
			}
			s.Encode(input)
			logits, values, plies := make([]float32, g.ActionSize()), make([]float32, 1), make([]float32, 1)
			fwd.Run(1, input, logits, values, plies)
			args = append(args, s.String())
			want = append(want, append(logits, values[0]))
			wantPlies = append(wantPlies, plies[0])
		}
		cmd := exec.Command(py, args...)
		stdout, err := cmd.Output()
		if err != nil {
			t.Fatalf("%s: python: %v", file, err)
		}
		sc := bufio.NewScanner(strings.NewReader(string(stdout)))
		sc.Buffer(nil, 1<<20)
		i := 0
		worst := 0.0
		for ; sc.Scan(); i++ {
			var got struct {
				Logits []float64 `json:"logits"`
				Value  float64   `json:"value"`
				Plies  *float64  `json:"plies"`
			}
			if err := json.Unmarshal(sc.Bytes(), &got); err != nil || i >= len(want) {
				t.Fatalf("%s: python's line %d %q: %v", file, i+1, sc.Text(), err)
			}
			w := want[i]
			if len(got.Logits) != len(w)-1 {
				t.Fatalf("%s: %d logits, want %d", file, len(got.Logits), len(w)-1)
			}
			for k, x := range append(got.Logits, got.Value) {
				worst = max(worst, math.Abs(x-float64(w[k])))
			}
			if (got.Plies != nil) != pf.Weights.Arch.MovesLeft {
				t.Fatalf("%s: python's plies %v for a network with the plies head: %v", file, got.Plies, pf.Weights.Arch.MovesLeft)
			}
			if got.Plies != nil {
				// Go's plies are never below 0; the example's raw output may be.
				worst = max(worst, math.Abs(max(0, *got.Plies)-float64(wantPlies[i]))/model.PliesScale)
			}
		}
		if i != len(want) {
			t.Fatalf("%s: python answered %d positions of %d", file, i, len(want))
		}
		if worst > 1e-5 {
			t.Errorf("%s: python's outputs differ from Go's by up to %.2g", file, worst)
		}
		t.Logf("%s: %d positions, outputs within %.2g of Go's", file, len(want), worst)
	}
}

// randomPlayer writes the shipped 5x5 player with random weights for its
// network changed by change.
func randomPlayer(t *testing.T, name string, change func(*model.Arch)) string {
	t.Helper()
	pf, err := player.LoadPlayerFile(filepath.Join("..", "..", "checkpoints", "slider-5x5.player"))
	if err != nil {
		t.Fatal(err)
	}
	a := pf.Weights.Arch
	change(&a)
	rng := rand.New(rand.NewPCG(3, 4))
	if pf.Weights, err = model.NewWeights(a, rng); err != nil {
		t.Fatal(err)
	}
	// Heads of real size, so that the value carries signal.
	for _, w := range pf.Weights.Tensors {
		for i := range w.Data {
			w.Data[i] += float32(rng.NormFloat64() * 0.1)
		}
	}
	out := filepath.Join(t.TempDir(), name+".player")
	if err := store.Write(out, player.KindPlayer, player.PlayerFormatVersion, pf); err != nil {
		t.Fatal(err)
	}
	return out
}
