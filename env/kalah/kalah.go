// Package kalah is Kalah(m, n), the sowing game of the mancala family:
// m pits a side with n seeds each, and a store (a kalah) at each side's
// right; a move sows one of one's own pits counter-clockwise, one seed a
// pit, into one's own store but never the opponent's. A last seed in
// one's own store gives another move; a last seed in an empty pit of
// one's own, opposite a pit with seeds, captures both. The game ends
// when the side to move has no seeds in its pits: the other side puts
// its own into its store, and the larger store wins. docs/kalah.md has
// the rules in full. It was added by following docs/new-game.md alone.
package kalah

import (
	"fmt"
	"math/rand/v2"

	"github.com/sliderzero/sliderzero/env"
)

// The sides: South moves first.
const (
	South env.Side = 0
	North env.Side = 1
)

// The settings' bounds.
const (
	MinPits  = 3
	MaxPits  = 6
	MinSeeds = 1
	MaxSeeds = 6
)

// The defaults: a game the exact solver settles from the start in under
// a second (docs/kalah.md gives the measurements).
const (
	DefaultPits  = 4
	DefaultSeeds = 3
)

// Game is Kalah with m pits a side and n seeds a pit at the start.
type Game struct {
	pits, seeds int
}

var (
	_ env.Game      = (*Game)(nil)
	_ env.Evaluator = (*Game)(nil)
	_ env.Drawn     = (*Game)(nil)
	_ env.Framed    = (*Game)(nil)
	_ env.Explained = (*Game)(nil)
	_ env.InputDoc  = (*Game)(nil)
	_ env.Shaped    = (*State)(nil)
)

// New returns Kalah(pits, seeds); 0 takes the default.
func New(pits, seeds int) (*Game, error) {
	if pits == 0 {
		pits = DefaultPits
	}
	if seeds == 0 {
		seeds = DefaultSeeds
	}
	if pits < MinPits || pits > MaxPits {
		return nil, fmt.Errorf("kalah: %d pits a side: want %d to %d", pits, MinPits, MaxPits)
	}
	if seeds < MinSeeds || seeds > MaxSeeds {
		return nil, fmt.Errorf("kalah: %d seeds a pit: want %d to %d", seeds, MinSeeds, MaxSeeds)
	}
	return &Game{pits: pits, seeds: seeds}, nil
}

// Default is the game at its default settings.
func Default() *Game { g, _ := New(0, 0); return g }

// Pits is the number of pits a side.
func (g *Game) Pits() int { return g.pits }

// Seeds is the number of seeds a pit holds at the start.
func (g *Game) Seeds() int { return g.seeds }

// total is the number of seeds in the game.
func (g *Game) total() int { return 2 * g.pits * g.seeds }

func (g *Game) Name() string          { return "kalah" }
func (g *Game) Describe() string      { return fmt.Sprintf("kalah pits=%d seeds=%d", g.pits, g.seeds) }
func (g *Game) ActionSize() int       { return g.pits }
func (g *Game) InputShape() env.Shape { return env.Shape{C: g.planes(), H: 2, W: g.pits} }

// Start is every pit with its seeds and both stores empty, South to
// move; there is nothing to draw at random.
func (g *Game) Start(*rand.Rand) env.State {
	s := &State{g: g, toMove: South}
	for side := range s.pits {
		for i := 0; i < g.pits; i++ {
			s.pits[side][i] = uint8(g.seeds)
		}
	}
	return s
}

// State is a position: each side's pits, numbered from that side's left
// (pit 1 is index 0; the store is past the last), its store, and the
// side to move.
type State struct {
	g      *Game
	pits   [2][MaxPits]uint8
	store  [2]uint8
	toMove env.Side
	ply    int
}

func (s *State) Game() env.Game   { return s.g }
func (s *State) ToMove() env.Side { return s.toMove }
func (s *State) Ply() int         { return s.ply }

// Outcome: the game is over when the side to move has no seeds in its
// pits (Apply has then swept the other side's into its store); the
// larger store wins.
func (s *State) Outcome() env.Outcome {
	if s.seedsOf(s.toMove) > 0 {
		return env.Outcome{}
	}
	switch {
	case s.store[South] > s.store[North]:
		return env.Outcome{Over: true, Winner: South}
	case s.store[North] > s.store[South]:
		return env.Outcome{Over: true, Winner: North}
	}
	return env.Outcome{Over: true, Winner: env.NoSide}
}

// seedsOf counts the seeds in a side's pits.
func (s *State) seedsOf(side env.Side) int {
	n := 0
	for _, c := range s.pits[side][:s.g.pits] {
		n += int(c)
	}
	return n
}

// LegalActions are the side to move's pits with seeds, from its left.
func (s *State) LegalActions(dst []int) []int {
	for i, c := range s.pits[s.toMove][:s.g.pits] {
		if c > 0 {
			dst = append(dst, i)
		}
	}
	return dst
}

// Apply sows pit a of the side to move (Sow), then, when the side to
// move next has no seeds in its pits, ends the game: the other side's
// seeds go into its store.
func (s *State) Apply(a int) {
	me := s.toMove
	if !Sow(s.g.pits, &s.pits[me], &s.pits[me.Other()], &s.store[me], a) {
		s.toMove = me.Other()
	}
	s.ply++
	if s.seedsOf(s.toMove) == 0 {
		other := s.toMove.Other()
		s.store[other] += uint8(s.seedsOf(other))
		s.pits[other] = [MaxPits]uint8{}
	}
}

// Sow plays pit a (from the mover's left, 0 first) of a board of m pits
// a side: mine are the mover's pits, theirs the opponent's (each from its
// owner's left), store the mover's store. It takes the pit's seeds and
// drops them one a place counter-clockwise: the mover's next pits, its
// store, the opponent's pits, never the opponent's store, and round
// again (the emptied pit included). A last seed in the store gives
// another move (Sow returns true); a last seed in an empty pit of the
// mover's, opposite a pit with seeds, goes into the store with the seeds
// opposite. The exact solver plays its moves with it, so that the rules
// are written once.
func Sow(m int, mine, theirs *[MaxPits]uint8, store *uint8, a int) (again bool) {
	n := int(mine[a])
	mine[a] = 0
	// places around the board from the mover's pit 0: its pits 0..m-1,
	// its store m, the opponent's pits m+1..2m
	ring := 2*m + 1
	at := a
	for ; n > 0; n-- {
		if at++; at == ring {
			at = 0
		}
		switch {
		case at < m:
			mine[at]++
		case at == m:
			*store++
		default:
			theirs[at-m-1]++
		}
	}
	switch {
	case at == m:
		return true
	case at < m && mine[at] == 1 && theirs[m-1-at] > 0:
		*store += 1 + theirs[m-1-at]
		mine[at], theirs[m-1-at] = 0, 0
	}
	return false
}

func (s *State) Clone() env.State       { c := *s; return &c }
func (s *State) CopyFrom(src env.State) { *s = *src.(*State) }

// Hash mixes each side's pits and store (seven bits each: no count
// reaches 128) and the side to move.
func (s *State) Hash() uint64 {
	var h [2]uint64
	for side := range h {
		for i := 0; i < s.g.pits; i++ {
			h[side] = h[side]<<7 | uint64(s.pits[side][i])
		}
		h[side] = h[side]<<7 | uint64(s.store[side])
	}
	return env.Mix64(env.Mix64(h[South]^0x4b414c4148) ^ h[North] ^ uint64(s.toMove)<<63)
}

// SeedsOf is a Kalah position as an exact solver wants it, from the side
// to move's point of view: its pits and the opponent's, each from its
// owner's left, and the two stores; ok is false for a state of another
// game.
func SeedsOf(st env.State) (pits int, mine, theirs [MaxPits]uint8, myStore, theirStore int, ok bool) {
	s, ok := env.Unwrap(st).(*State)
	if !ok {
		return 0, mine, theirs, 0, 0, false
	}
	me := s.toMove
	return s.g.pits, s.pits[me], s.pits[me.Other()], int(s.store[me]), int(s.store[me.Other()]), true
}
