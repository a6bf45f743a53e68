package main

import (
	"fmt"
	"math"
	"math/rand/v2"
	"path/filepath"
	"strings"

	"github.com/sliderzero/sliderzero/env"
	"github.com/sliderzero/sliderzero/env/slider"
	solver "github.com/sliderzero/sliderzero/env/slider/solve"
	"github.com/sliderzero/sliderzero/model/learn"
	"github.com/sliderzero/sliderzero/train/replay"
	"os"
	"sort"
)

// Value targets.
const (
	// ValueExact is the exact result for the side to move: +1, 0 or -1.
	ValueExact = "exact"
	// ValueDiscounted is the scale self-play's targets have
	// (train/selfplay valueTargets): a win d plies from the end is worth
	// Discount^(d-1), a loss -Discount^(d-1), a draw 0; d is the table's
	// distance under perfect play (shortest win, longest loss).
	ValueDiscounted = "discounted"
)

// Policy targets.
const (
	// PolicyKeep is uniform over the moves that keep the position's
	// result (win, draw or loss): the moves accuracy counts as right.
	PolicyKeep = "keep"
	// PolicyBest is uniform over the moves of the exact best value: the
	// shortest wins, the draws, the longest losses.
	PolicyBest = "best"
)

// targets says what a sampled position teaches.
type targets struct {
	Value    string  `json:"value"`
	Discount float64 `json:"discount,omitempty"`
	Policy   string  `json:"policy"`
}

func (t targets) check() error {
	switch {
	case t.Value != ValueExact && t.Value != ValueDiscounted:
		return fmt.Errorf("--value %q: want %s or %s", t.Value, ValueExact, ValueDiscounted)
	case t.Policy != PolicyKeep && t.Policy != PolicyBest:
		return fmt.Errorf("--policy %q: want %s or %s", t.Policy, PolicyKeep, PolicyBest)
	case t.Value == ValueDiscounted && (t.Discount <= 0 || t.Discount >= 1):
		return fmt.Errorf("--discount %v: want a number in (0, 1)", t.Discount)
	}
	return nil
}

// valueTarget is a position's value target for its side to move.
func (t targets) valueTarget(v solver.Value) float32 {
	z := float64(v.Result)
	if t.Value == ValueDiscounted && v.Result != solver.Draw {
		z *= math.Pow(t.Discount, float64(v.Plies-1))
	}
	return float32(z)
}

// policyMoves marks in keep the moves the policy target spreads over,
// and returns how many. values are the table's values of the moves, v the
// position's own.
func (t targets) policyMoves(v solver.Value, values []solver.Value, keep []bool) int {
	n := 0
	for i, mv := range values {
		k := mv.Result == v.Result
		if t.Policy == PolicyBest {
			k = mv == v
		}
		keep[i] = k
		if k {
			n++
		}
	}
	return n
}

// heldOut is the set of positions training must never see: the table's
// critical sets, each with its transposition (the board mirrored in the
// diagonal, colours swapped), which Slider's encoding from the side to
// move makes the very same network input.
type heldOut map[string]bool

func newHeldOut(t *solver.Table) (heldOut, error) {
	g := t.Game()
	h := heldOut{}
	for _, name := range setNames {
		for _, p := range t.Sets[name] {
			s, err := g.ParseState(p)
			if err != nil {
				return nil, fmt.Errorf("set %s, position %q: %w", name, p, err)
			}
			h[s.String()] = true
			h[env.Unwrap(s).(*slider.State).Transposed().String()] = true
		}
	}
	return h, nil
}

// Layouts trained on.
const (
	// LayoutsOpen trains on the open board only: the held-out sets' board.
	LayoutsOpen = "open"
	// LayoutsReferee draws each position's board as self-play draws its
	// games' (the course referee's scheme, slider.RandomBlockedCells: the
	// open board a third of the time, else one or two blocked interior
	// cells), so that the network shares its capacity between the 16
	// layouts as the shipped player's does.
	LayoutsReferee = "referee"
)

// refereeLayouts lists every set of blocked cells the referee's scheme
// draws on an n x n board, the open board first.
func refereeLayouts(n int) [][]slider.Cell {
	out := [][]slider.Cell{nil}
	seen := map[string]bool{"": true}
	add := func(cells ...slider.Cell) {
		if k := slider.FormatCells(cells); !seen[k] {
			seen[k] = true
			out = append(out, cells)
		}
	}
	for i := 1; i <= n-2; i++ {
		for j := 1; j <= n-2; j++ {
			add(slider.Cell{X: i, Y: j})
		}
	}
	for i := 1; i <= n-2; i++ {
		for j := 1; j <= n-2; j++ {
			if i != j {
				add(slider.Cell{X: i, Y: i}, slider.Cell{X: j, Y: j})
				add(slider.Cell{X: i, Y: j}, slider.Cell{X: j, Y: i})
			}
		}
	}
	return out
}

// layoutFile is the table file of a layout in dir.
func layoutFile(dir string, n int, cells []slider.Cell) string {
	name := fmt.Sprintf("slider-%dx%d", n, n)
	if len(cells) > 0 {
		name += "-" + strings.ReplaceAll(slider.FormatCells(cells), ",", "-")
	}
	return filepath.Join(dir, name+".table")
}

func blockedKey(cells []slider.Cell) uint64 {
	var b uint64
	for _, c := range cells {
		b |= 1 << (c.Y*8 + c.X)
	}
	return b
}

// sampler draws training positions uniformly from the table (or, with
// layouts, from a layout drawn by the referee's scheme, then uniformly
// from its table), never a held-out one, and writes their encodings and
// targets into batches.
type sampler struct {
	t *solver.Table
	// layouts, when set, holds a table for every layout the referee draws,
	// by blocked cells.
	layouts map[uint64]*solver.Table
	held    heldOut
	tg      targets
	last    *poolSample
	rng     *rand.Rand
	in, act int
	keep    []bool
	// pool, when set, replaces the uniform draw: self-play's open-board
	// positions (loadPool), with their self-play targets for labels
	// "selfplay".
	pool   []poolSample
	labels string
	// Drawn counts the positions drawn, Skipped the held-out ones among
	// them (drawn again).
	Drawn, Skipped int64
}

// poolSample is one self-play position with what self-play taught.
type poolSample struct {
	state   *slider.State
	z       float32
	actions []int32
	policy  []float32
}

// Labels of a pool's positions.
const (
	LabelsExact    = "exact"
	LabelsSelfplay = "selfplay"
	// One of the two from self-play, the other exact.
	LabelsSelfplayPolicy = "selfplay-policy"
	LabelsSelfplayValue  = "selfplay-value"
)

// loadPool reads the open-board positions of a run's self-play shards
// (the last n shards, 0: all), skipping held-out ones.
func loadPool(t *solver.Table, held heldOut, runDir string, n int) ([]poolSample, error) {
	names, _ := filepath.Glob(filepath.Join(runDir, "shards", "*"))
	sort.Strings(names)
	if n > 0 && len(names) > n {
		names = names[len(names)-n:]
	}
	if len(names) == 0 {
		return nil, fmt.Errorf("no shards in %s", filepath.Join(runDir, "shards"))
	}
	sg, err := slider.New(slider.Config{Size: t.Size(), RandomBlocked: true})
	if err != nil {
		return nil, err
	}
	var pool []poolSample
	for _, name := range names {
		data, err := os.ReadFile(name)
		if err != nil {
			return nil, err
		}
		sh, _, err := replay.Decode(data, name, false)
		if err != nil {
			return nil, err
		}
		for _, smp := range sh.Samples {
			st, err := sg.ParseState(smp.State)
			if err != nil {
				return nil, fmt.Errorf("%s: %w", name, err)
			}
			if t.Covers(st) != nil || held[st.String()] {
				continue
			}
			// The table's own board and ply cap, for Encode and Moves.
			p, err := t.Game().ParseState(st.String())
			if err != nil {
				return nil, err
			}
			pool = append(pool, poolSample{state: p.(*slider.State), z: smp.Value, actions: smp.Actions, policy: smp.Policy})
		}
	}
	if len(pool) == 0 {
		return nil, fmt.Errorf("%s: no open-board positions in its shards", runDir)
	}
	return pool, nil
}

func newSampler(t *solver.Table, held heldOut, tg targets, seed uint64) *sampler {
	g := t.Game()
	return &sampler{t: t, held: held, tg: tg, rng: rand.New(rand.NewPCG(seed, 0xce11)),
		in: g.InputShape().Size(), act: g.ActionSize()}
}

// next draws one position that is not held out, with its value and its
// moves' values.
func (s *sampler) next() (*slider.State, solver.Value, []int, []solver.Value, error) {
	if s.pool != nil {
		s.last = &s.pool[s.rng.IntN(len(s.pool))]
		s.Drawn++
		v, err := s.t.Value(s.last.state)
		if err != nil {
			return nil, v, nil, nil, err
		}
		acts, vals, err := s.t.Moves(s.last.state)
		return s.last.state, v, acts, vals, err
	}
	for {
		t := s.t
		if s.layouts != nil {
			cells := slider.RandomBlockedCells(s.t.Size(), s.rng)
			if t = s.layouts[blockedKey(cells)]; t == nil {
				return nil, solver.Value{}, nil, nil, fmt.Errorf("no table for the layout %q", slider.FormatCells(cells))
			}
		}
		p := t.RandomPosition(s.rng)
		s.Drawn++
		if s.held[p.String()] {
			s.Skipped++
			continue
		}
		v, err := t.Value(p)
		if err != nil {
			return nil, v, nil, nil, err
		}
		acts, vals, err := t.Moves(p)
		if err != nil {
			return nil, v, nil, nil, err
		}
		return p, v, acts, vals, nil
	}
}

// fill writes b.Size fresh positions into b.
func (s *sampler) fill(b *learn.Batch) error {
	clear(b.Policy)
	clear(b.Legal)
	for i := 0; i < b.Size; i++ {
		p, v, acts, vals, err := s.next()
		if err != nil {
			return err
		}
		p.Encode(b.Input[i*s.in : (i+1)*s.in])
		if cap(s.keep) < len(vals) {
			s.keep = make([]bool, len(vals))
		}
		keep := s.keep[:len(vals)]
		n := s.tg.policyMoves(v, vals, keep)
		if n == 0 {
			return fmt.Errorf("no move keeps the value of %s (%v): the table is inconsistent", p, v)
		}
		row := i * s.act
		for j, a := range acts {
			b.Legal[row+a] = 1
			if keep[j] {
				b.Policy[row+a] = 1 / float32(n)
			}
		}
		b.Value[i] = s.tg.valueTarget(v)
		if s.labels == LabelsSelfplay || s.labels == LabelsSelfplayPolicy {
			// What self-play's search taught this position instead.
			for _, a := range acts {
				b.Policy[row+a] = 0
			}
			for j, a := range s.last.actions {
				b.Policy[row+int(a)] = s.last.policy[j]
			}
		}
		if s.labels == LabelsSelfplay || s.labels == LabelsSelfplayValue {
			b.Value[i] = s.last.z
		}
		b.Plies[i], b.Known[i] = 0, 0
	}
	return nil
}
