package mcts

import (
	"bufio"
	"context"
	"crypto/sha256"
	"flag"
	"fmt"
	"hash/fnv"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/sliderzero/sliderzero/env"
	"github.com/sliderzero/sliderzero/env/catsdogs"
	"github.com/sliderzero/sliderzero/env/connect4"
	"github.com/sliderzero/sliderzero/env/rlgame"
	"github.com/sliderzero/sliderzero/env/slider"
)

var updateSeeded = flag.Bool("update-seeded", false, "rewrite testdata/seeded.digests (after a deliberate change of the one-thread search's results)")

// hashNet is a network made of a hash: its logits, value and plies come
// from a hash of the encoded position, so they differ between positions
// as a trained network's do, and repeat exactly.
type hashNet struct {
	actions int
	plies   bool // estimate the plies to the end (else -1)
	coarse  bool // few distinct logits and values, so that ties happen
}

func (h hashNet) Run(batch int, input, logits, values, plies []float32) {
	size := len(input) / batch
	var word [4]byte
	for b := range batch {
		f := fnv.New64a()
		for _, x := range input[b*size : (b+1)*size] {
			bits := math.Float32bits(x)
			word = [4]byte{byte(bits), byte(bits >> 8), byte(bits >> 16), byte(bits >> 24)}
			f.Write(word[:])
		}
		r := rand.New(rand.NewPCG(f.Sum64(), 7))
		for a := range h.actions {
			if h.coarse {
				logits[b*h.actions+a] = float32(r.IntN(3))
			} else {
				logits[b*h.actions+a] = float32(r.NormFloat64() * 2)
			}
		}
		values[b] = float32(r.Float64()*2 - 1)
		if h.coarse {
			values[b] = float32(r.IntN(3)-1) * 0.5
		}
		if plies != nil {
			plies[b] = -1
			if h.plies {
				plies[b] = float32(r.IntN(40))
			}
		}
	}
}

// A one-thread search with a seed gives the same results on every run
// and after every change that does not mean to change them (the promise
// of docs/protocol.md's threads setting and of seeded self-play): 80
// seeded games of 20 moves, on every game, with and without plies
// estimates, root noise and Gumbel, and with ties in the network's
// output, each digested from every move's choice, value, verdict, policy
// and analysis lines, against digests recorded before. Floating-point
// results are those of amd64 (other architectures fuse multiply-adds),
// so the test runs there.
func TestSeededSearchesRepeat(t *testing.T) {
	if runtime.GOARCH != "amd64" {
		t.Skip("the recorded digests are amd64's floating point")
	}
	got := seededDigests(t)
	file := filepath.Join("testdata", "seeded.digests")
	if *updateSeeded {
		if err := os.WriteFile(file, []byte(strings.Join(got, "\n")+"\n"), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	f, err := os.Open(file)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var want []string
	for sc := bufio.NewScanner(f); sc.Scan(); {
		want = append(want, sc.Text())
	}
	if len(want) != len(got) {
		t.Fatalf("%d digests, want %d", len(got), len(want))
	}
	for i := range got {
		if got[i] != want[i] {
			t.Errorf("changed: %s (was %s)", got[i], want[i])
		}
	}
}

func seededDigests(t *testing.T) []string {
	cd, err := catsdogs.New(0)
	if err != nil {
		t.Fatal(err)
	}
	rl, err := rlgame.New(rlgame.Config{})
	if err != nil {
		t.Fatal(err)
	}
	games := []struct {
		name string
		g    env.Game
	}{
		{"slider5", slider.MustNew(slider.Config{Size: 5})},
		{"slider7", slider.MustNew(slider.Config{Size: 7})},
		{"connect4", connect4.New()},
		{"catsdogs", cd},
		{"rlgame", rl},
	}
	var out []string
	for _, gm := range games {
		pol := make([]float32, gm.g.ActionSize())
		for _, plies := range []bool{false, true} {
			for _, coarse := range []bool{false, true} {
				for _, noise := range []bool{false, true} {
					for _, gumbel := range []bool{false, true} {
						p := Params{Sims: 200, Gumbel: gumbel}
						if noise {
							p.NoiseFrac, p.NoiseAlpha = 0.25, 0.3
						}
						tree, err := NewTree(p, rand.New(rand.NewPCG(3, 4)))
						if err != nil {
							t.Fatal(err)
						}
						ev := hashNet{actions: gm.g.ActionSize(), plies: plies, coarse: coarse}
						s := gm.g.Start(rand.New(rand.NewPCG(5, 6)))
						tree.Reset(s)
						h := sha256.New()
						for ply := 0; ply < 20 && !s.Outcome().Over; ply++ {
							temp := float64(ply % 2) // sampled moves too
							a, err := Search(context.Background(), tree, ev, temp)
							if err != nil {
								t.Fatal(err)
							}
							tree.Policy(pol)
							fmt.Fprintf(h, "%d %v %+v %d %v %+v\n", a, tree.Value(), tree.Verdict(), tree.Sims(), pol, tree.Lines(5, 8))
							s.Apply(a)
							tree.Advance(a)
						}
						out = append(out, fmt.Sprintf("%s plies=%v coarse=%v noise=%v gumbel=%v %x", gm.name, plies, coarse, noise, gumbel, h.Sum(nil)[:12]))
					}
				}
			}
		}
	}
	return out
}
