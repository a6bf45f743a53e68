// Package solve computes the exact value of every position of a small
// Slider board by retrograde analysis, and answers what perfect play is:
// Slider's exact solver, registered for the tools that judge play
// (registry.RegisterSolver; package solver names it).
//
// A table covers one board: its size and its blocked cells. It holds, for
// every placement of the pieces and either side to move, whether the side
// to move wins, loses or draws with perfect play, and in how many plies the
// game ends (shortest win, longest loss). It knows no ply cap: a position
// neither side can force to a win is a draw.
//
// The solver judges play; it never teaches it. Training, search and the
// network (the packages under train, mcts and model) must not import it,
// nor the game's rules (package slider).
package solve

import (
	"bytes"
	"compress/flate"
	"context"
	"fmt"
	"io"
	"math/bits"
	"math/rand/v2"
	"runtime"
	"sync"
	"time"

	"github.com/sliderzero/sliderzero/env"
	"github.com/sliderzero/sliderzero/env/slider"
	"github.com/sliderzero/sliderzero/store"
)

// Result is a position's game-theoretic result for the side to move.
type Result int8

const (
	Loss Result = -1
	Draw Result = 0
	Win  Result = 1
)

func (r Result) String() string {
	switch r {
	case Win:
		return "win"
	case Loss:
		return "loss"
	}
	return "draw"
}

// Value is a position's exact value for the side to move.
type Value struct {
	Result Result
	// Plies is the length of the rest of the game under perfect play: the
	// winner's shortest win, the loser's longest resistance. 0 for draws.
	Plies int
}

func (v Value) String() string {
	if v.Result == Draw {
		return "draw"
	}
	return fmt.Sprintf("%s in %d", v.Result, v.Plies)
}

// Better reports whether v is better than w for the side to move: a win
// beats a draw beats a loss; a shorter win and a longer loss are better.
func (v Value) Better(w Value) bool {
	if v.Result != w.Result {
		return v.Result > w.Result
	}
	switch v.Result {
	case Win:
		return v.Plies < w.Plies
	case Loss:
		return v.Plies > w.Plies
	}
	return false
}

// Negate is the value for the other side one ply earlier: what a move into
// this position is worth to the player who makes it.
func (v Value) Negate() Value {
	if v.Result == Draw {
		return v
	}
	return Value{Result: -v.Result, Plies: v.Plies + 1}
}

func decode(c uint8) Value {
	if c == 0 {
		return Value{}
	}
	d := int(c) - 1
	if d%2 == 0 {
		return Value{Result: Loss, Plies: d}
	}
	return Value{Result: Win, Plies: d}
}

// Table holds the values of every position of one Slider board.
type Table struct {
	ix   *index
	vals []uint8
	// game is the table's board, made once: RandomPosition is called
	// millions of times by the tests that look for rare positions.
	game *slider.Game
	// Sets are named lists of positions in the one-line form, kept with the
	// table so that every measurement against it uses the same positions
	// (see package accuracy).
	Sets map[string][]string
	// Seconds is how long solving took.
	Seconds float64
}

// Solve builds the table of an n x n board with the given blocked cells.
func Solve(ctx context.Context, n int, blocked []slider.Cell, progress Progress) (*Table, error) {
	g, err := slider.New(slider.Config{Size: n, Blocked: blocked})
	if err != nil {
		return nil, err
	}
	ix, err := newIndex(n, g.NewState(nil).Blocked())
	if err != nil {
		return nil, err
	}
	t0 := time.Now()
	vals, err := solve(ctx, ix, progress)
	if err != nil {
		return nil, err
	}
	return &Table{ix: ix, vals: vals, game: g, Sets: map[string][]string{}, Seconds: time.Since(t0).Seconds()}, nil
}

// Size is the board's size.
func (t *Table) Size() int { return t.ix.n }

// Blocked lists the board's blocked cells.
func (t *Table) Blocked() []slider.Cell { return cellsOf(t.ix.blocked) }

// Positions is the number of positions the table holds (placements times
// the two sides to move).
func (t *Table) Positions() int64 { return 2 * t.ix.total }

// Bytes is the table's size in memory.
func (t *Table) Bytes() int64 { return int64(len(t.vals)) }

// Game returns the game the table's positions belong to: its board, H
// first, the default ply cap.
func (t *Table) Game() env.Game { return t.game }

// Describe names the board in one line.
func (t *Table) Describe() string {
	b := "none"
	if cells := t.Blocked(); len(cells) > 0 {
		b = slider.FormatCells(cells)
	}
	return fmt.Sprintf("slider %dx%d, blocked %s", t.ix.n, t.ix.n, b)
}

func cellsOf(bb uint64) []slider.Cell {
	var cells []slider.Cell
	for ; bb != 0; bb &= bb - 1 {
		sq := bits.TrailingZeros64(bb)
		cells = append(cells, slider.Cell{X: sq % 8, Y: sq / 8})
	}
	return cells
}

// Covers reports, as an error that says why not, whether a position is on
// the table's board.
func (t *Table) Covers(s env.State) error {
	st, ok := slider.StateOf(s)
	if !ok {
		return fmt.Errorf("the table is for Slider, not %s", s.Game().Name())
	}
	if n := st.Rules().Size(); n != t.ix.n {
		return fmt.Errorf("the table is for %dx%d boards, not %dx%d", t.ix.n, t.ix.n, n, n)
	}
	if st.Blocked() != t.ix.blocked {
		b := "none"
		if c := cellsOf(st.Blocked()); len(c) > 0 {
			b = slider.FormatCells(c)
		}
		return fmt.Errorf("the table is for %s; the position's blocked cells are %s", t.Describe(), b)
	}
	return nil
}

// Value is the exact value of a position for its side to move, ignoring
// the ply cap. A position after a pass whose side to move must pass too is
// a draw (two passes end the game).
func (t *Table) Value(s env.State) (Value, error) {
	if err := t.Covers(s); err != nil {
		return Value{}, err
	}
	st, _ := slider.StateOf(s)
	return t.lookup(st.Pieces(slider.H), st.Pieces(slider.V), st.ToMove(), st.Passed()), nil
}

func (t *Table) lookup(hb, vb uint64, toMove env.Side, passed bool) Value {
	if hb == 0 || vb == 0 {
		return Value{Result: Loss} // the side that just moved has won
	}
	if passed {
		own := hb
		if toMove == sideV {
			own = vb
		}
		if !t.ix.hasMove(toMove, own, t.ix.board&^(hb|vb|t.ix.blocked)) {
			return Value{} // a second pass ends the game in a tie
		}
	}
	return decode(t.vals[2*t.ix.placement(hb, vb)+int64(toMove)])
}

// Moves returns the value of each legal move of a position, for the side to
// move: the value of the position it leads to, seen from the mover.
func (t *Table) Moves(s env.State) (actions []int, values []Value, err error) {
	if err := t.Covers(s); err != nil {
		return nil, nil, err
	}
	actions = s.LegalActions(nil)
	base := env.Unwrap(s)
	child, _ := slider.StateOf(base.Clone())
	for _, a := range actions {
		child.CopyFrom(base)
		child.Apply(a)
		v := t.lookup(child.Pieces(slider.H), child.Pieces(slider.V), child.ToMove(), child.Passed())
		values = append(values, v.Negate())
	}
	return actions, values, nil
}

// File kind and format version of table files.
const (
	Kind          = "solver-table"
	FormatVersion = 1
)

// file is a table file's body. The values are DEFLATE-compressed: most of
// a table is long runs of few distinct bytes.
type file struct {
	Size      int                    `msgpack:"size"`
	Blocked   string                 `msgpack:"blocked"` // cells as "c3,d4", "" for none
	Positions int64                  `msgpack:"positions"`
	Values    []byte                 `msgpack:"values"`
	Sets      store.Sorted[[]string] `msgpack:"sets"`
	Seconds   float64                `msgpack:"solve_seconds"`
	Saved     time.Time              `msgpack:"saved"`
}

// Write saves the table atomically.
func (t *Table) Write(path string) error {
	var buf bytes.Buffer
	zw, err := flate.NewWriter(&buf, flate.BestSpeed)
	if err != nil {
		return err
	}
	if _, err := zw.Write(t.vals); err != nil {
		return err
	}
	if err := zw.Close(); err != nil {
		return err
	}
	f := file{Size: t.ix.n, Blocked: slider.FormatCells(t.Blocked()), Positions: t.Positions(),
		Values: buf.Bytes(), Sets: t.Sets, Seconds: t.Seconds, Saved: time.Now().UTC()}
	return store.Write(path, Kind, FormatVersion, &f)
}

// Read loads a table file, refusing with a one-line error a file that is
// not a table, is corrupt, or does not hold what its header says.
func Read(path string) (*Table, error) {
	var f file
	if _, err := store.Read(path, Kind, FormatVersion, &f); err != nil {
		return nil, err
	}
	blocked, random, err := slider.ParseBlocked(f.Blocked)
	if err != nil || random {
		return nil, fmt.Errorf("%s: bad blocked cells %q", path, f.Blocked)
	}
	g, err := slider.New(slider.Config{Size: f.Size, Blocked: blocked})
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	ix, err := newIndex(f.Size, g.NewState(nil).Blocked())
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	if 2*ix.total != f.Positions {
		return nil, fmt.Errorf("%s: the header says %d positions, a %s board has %d", path, f.Positions, g.Describe(), 2*ix.total)
	}
	vals := make([]uint8, 2*ix.total)
	zr := flate.NewReader(bytes.NewReader(f.Values))
	if _, err := io.ReadFull(zr, vals); err != nil {
		return nil, fmt.Errorf("%s: the values are cut short or corrupt: %v", path, err)
	}
	if n, _ := zr.Read(make([]byte, 1)); n != 0 {
		return nil, fmt.Errorf("%s: more values than positions", path)
	}
	if f.Sets == nil {
		f.Sets = map[string][]string{}
	}
	return &Table{ix: ix, vals: vals, game: g, Sets: f.Sets, Seconds: f.Seconds}, nil
}

// Verify checks every entry of the table against the values of its moves:
// a win in d has a move into a loss in d-1 and none into a shorter loss; a
// loss in d has only moves into wins, the longest in d-1; a draw has no
// move into a loss and a move into a draw. A table that passes is exact (by
// induction on the distance), whatever code produced it. It returns the
// number of positions checked.
func (t *Table) Verify(ctx context.Context) (int64, error) {
	ix := t.ix
	workers := runtime.GOMAXPROCS(0)
	per := (ix.total + int64(workers) - 1) / int64(workers)
	errs := make([]error, workers)
	var wg sync.WaitGroup
	for w := 0; w < workers; w++ {
		lo, hi := int64(w)*per, min(int64(w+1)*per, ix.total)
		wg.Add(1)
		go func(w int) {
			defer wg.Done()
			errs[w] = t.verifyRange(ctx, lo, hi)
		}(w)
	}
	wg.Wait()
	for _, err := range errs {
		if err != nil {
			return 0, err
		}
	}
	return 2 * ix.total, nil
}

func (t *Table) verifyRange(ctx context.Context, lo, hi int64) error {
	ix := t.ix
	var l moveList
	var c *class
	for p := lo; p < hi; p++ {
		if (p-lo)%(1<<16) == 0 && ctx.Err() != nil {
			return ctx.Err()
		}
		if c == nil || p >= c.offset+c.size {
			c = ix.classAt(p)
		}
		hb, vb := ix.pieces(c, p)
		for s := sideH; s <= sideV; s++ {
			got := decode(t.vals[2*p+int64(s)])
			if hb == 0 || vb == 0 {
				// The game is over: the side to move has lost, unless it is
				// the side with no pieces (which never moves again).
				want := Value{Result: Loss}
				if (s == sideH && hb == 0) || (s == sideV && vb == 0) || (hb == 0 && vb == 0) {
					want = Value{}
				}
				if got != want {
					return t.mismatch(hb, vb, s, got, want)
				}
				continue
			}
			empty := ix.board &^ (hb | vb | ix.blocked)
			own := hb
			if s == sideV {
				own = vb
			}
			ix.moves(s, own, empty, &l)
			var want Value
			if l.n == 0 {
				want = t.lookup(hb, vb, s.Other(), true).Negate()
			} else {
				for i := 0; i < l.n; i++ {
					h, v := l.own[i], vb
					if s == sideV {
						h, v = hb, l.own[i]
					}
					mv := decode(t.vals[2*ix.placement(h, v)+int64(s.Other())]).Negate()
					if i == 0 || mv.Better(want) {
						want = mv
					}
				}
			}
			if got != want {
				return t.mismatch(hb, vb, s, got, want)
			}
		}
	}
	return nil
}

func (t *Table) mismatch(hb, vb uint64, s env.Side, got, want Value) error {
	st, err := t.game.Position(hb, vb, s)
	pos := fmt.Sprintf("H=%#x V=%#x", hb, vb)
	if err == nil {
		pos = st.String()
	}
	return fmt.Errorf("table entry of %s is %v, but its moves make it %v", pos, got, want)
}

// RandomPosition draws a position uniformly from the table's positions in
// which both sides still have pieces, either side to move; its ply count
// is 0.
func (t *Table) RandomPosition(rng *rand.Rand) *slider.State {
	g := t.game
	for {
		p := rng.Int64N(t.ix.total)
		c := t.ix.classAt(p)
		if c.h == 0 || c.v == 0 {
			continue
		}
		hb, vb := t.ix.pieces(c, p)
		s, err := g.Position(hb, vb, env.Side(rng.IntN(2)))
		if err != nil {
			panic(err) // the index made a placement the board refuses: a bug
		}
		return s
	}
}

// Stats sums up a table over the positions where both sides have pieces.
type Stats struct {
	Wins, Draws, Losses int64
	// Longest is the longest distance to the end under perfect play.
	Longest int
}

// Stats counts the table's results.
func (t *Table) Stats() Stats {
	var st Stats
	for ci := range t.ix.order {
		c := &t.ix.order[ci]
		if c.h == 0 || c.v == 0 {
			continue
		}
		for _, b := range t.vals[2*c.offset : 2*(c.offset+c.size)] {
			v := decode(b)
			switch v.Result {
			case Win:
				st.Wins++
			case Loss:
				st.Losses++
			default:
				st.Draws++
			}
			st.Longest = max(st.Longest, v.Plies)
		}
	}
	return st
}
