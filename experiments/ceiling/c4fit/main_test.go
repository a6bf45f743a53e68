package main

import (
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/sliderzero/sliderzero/env/connect4"
	"github.com/sliderzero/sliderzero/experiments/ceiling/fitspec"
)

func TestMirror(t *testing.T) {
	in := "......./......./..X.O../..O.O../..X.O.O/X.O.XXX X"
	want := "......./......./..O.X../..O.O../O.O.X../XXX.O.X X"
	if got := mirror(in); got != want {
		t.Fatalf("mirror(%q) = %q, want %q", in, got, want)
	}
	if got := mirror(mirror(in)); got != in {
		t.Fatalf("mirroring twice gave %q", got)
	}
}

// X to move wins at once in column d; every other move loses.
const wonLine = "......./......./..X.O../..O.O../..X.O.O/X.O.XXX X\t-1 -1 -1 +1 -1 -1 -1\n"

func TestReadDataAndTargets(t *testing.T) {
	g := connect4.New()
	dir := t.TempDir()
	path := filepath.Join(dir, "data.txt")
	held := "......./......./......./......./......./...X... O\t0 0 0 0 0 0 0\n"
	if err := os.WriteFile(path, []byte(wonLine+held), 0o644); err != nil {
		t.Fatal(err)
	}
	heldOut := map[string]bool{mirror("......./......./......./......./......./...X... O"): true}
	samples, positions, err := readData(path, g, heldOut, true)
	if err != nil {
		t.Fatal(err)
	}
	if positions != 1 {
		t.Fatalf("%d scored positions, want 1 (the other is a held-out position's mirror image)", positions)
	}
	// Column d ends the game, so only the six other moves give children.
	if len(samples) != 7 {
		t.Fatalf("%d samples, want the position and its 6 unfinished children", len(samples))
	}
	if samples[0].value != 1 {
		t.Fatalf("the position's value is %d, want +1", samples[0].value)
	}
	for _, c := range samples[1:] {
		if c.value != 1 || c.scored {
			t.Fatalf("a child of a losing move: value %d scored %v, want +1 for its side to move, unscored", c.value, c.scored)
		}
	}
	b := fitspec.NewBatch(64, g.InputShape().Size(), g.ActionSize())
	enc, legal := make([]float32, g.InputShape().Size()), make([]int, 0, 7)
	fill(b, g, samples[:1], rand.New(rand.NewPCG(1, 2)), enc, legal)
	for i := 0; i < b.Size; i++ {
		pol := b.Policy[i*7 : (i+1)*7]
		// Mirrored or not, the one winning column is d, the middle one.
		if pol[3] != 1 || b.Value[i] != 1 {
			t.Fatalf("row %d: policy %v value %v, want all on d and +1", i, pol, b.Value[i])
		}
	}
	fill(b, g, samples[1:2], rand.New(rand.NewPCG(1, 2)), enc, legal)
	for i := 0; i < b.Size; i++ {
		for _, p := range b.Policy[i*7 : (i+1)*7] {
			if p != 0 {
				t.Fatalf("a child position taught a policy: %v", b.Policy[i*7:(i+1)*7])
			}
		}
	}
}

// X to move wins at once in column a or e: mirrored, those are g and c.
const twoWins = "......./......./......./......./.OOO.../.XXX... X\t+1 -1 -1 -1 +1 -1 -1\n"

func TestFillMirrorsInputAndPolicyTogether(t *testing.T) {
	g := connect4.New()
	path := filepath.Join(t.TempDir(), "data.txt")
	if err := os.WriteFile(path, []byte(twoWins), 0o644); err != nil {
		t.Fatal(err)
	}
	samples, _, err := readData(path, g, nil, false)
	if err != nil {
		t.Fatal(err)
	}
	in := g.InputShape().Size()
	plain := make([]float32, in)
	samples[0].s.Encode(plain)
	mirrored := make([]float32, in)
	g.TransformInput(1, plain, mirrored)
	b := fitspec.NewBatch(64, in, g.ActionSize())
	fill(b, g, samples, rand.New(rand.NewPCG(1, 2)), make([]float32, in), make([]int, 0, 7))
	seen := [2]int{}
	for i := 0; i < b.Size; i++ {
		pol, x := b.Policy[i*7:(i+1)*7], b.Input[i*in:(i+1)*in]
		switch {
		case slices.Equal(x, plain) && pol[0] == 0.5 && pol[4] == 0.5:
			seen[0]++
		case slices.Equal(x, mirrored) && pol[6] == 0.5 && pol[2] == 0.5:
			seen[1]++
		default:
			t.Fatalf("row %d: policy %v does not go with its input", i, pol)
		}
		if b.Value[i] != 1 {
			t.Fatalf("row %d: value %v, want +1", i, b.Value[i])
		}
	}
	if seen[0] == 0 || seen[1] == 0 {
		t.Fatalf("plain and mirrored rows %v: want both", seen)
	}
}

func TestReadDataRefusesBadLines(t *testing.T) {
	g := connect4.New()
	for _, line := range []string{
		"......./......./......./......./......./....... X\t0 0 0\n",
		"......./......./......./......./......./....... X\t0 0 0 0 0 0 2\n",
		"......./......./......./......./......./....... X\t0 0 0 0 0 0 x\n", // g is legal
		"not a position\t0 0 0 0 0 0 0\n",
	} {
		path := filepath.Join(t.TempDir(), "bad.txt")
		if err := os.WriteFile(path, []byte(line), 0o644); err != nil {
			t.Fatal(err)
		}
		if _, _, err := readData(path, g, nil, true); err == nil {
			t.Errorf("accepted %q", line)
		}
	}
}
