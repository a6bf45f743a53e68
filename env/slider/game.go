// Package slider implements Slider, the game of COMP30024 (University of
// Melbourne, 2017), as rules.md section 1 settles it.
//
// Boards are bitboards with a row stride of 8 whatever the size (square
// y*8+x), so a move is a shift and the transpose symmetry is the usual 8x8
// transpose. Actions are numbered from the side to move's point of view: V's
// moves are numbered as the H moves of the transposed board, so a network
// sees every position as H would and one policy index means the same move
// for both sides.
package slider

import (
	"fmt"
	"math/bits"
	"math/rand/v2"
	"strings"

	"github.com/sliderzero/sliderzero/env"
)

// The two sides. H is side 0, the game's first side.
const (
	H env.Side = 0
	V env.Side = 1
)

// Sizes the package supports.
const (
	MinSize = 3
	MaxSize = 8
)

// Planes of the network input, each Size x Size, from the side to move's
// point of view (transposed when V is to move). The ply count is not among
// them: the cap is the referee's device to end endless games, not part of
// the game, and a network that saw it would learn that late positions are
// ties instead of who wins them.
const (
	PlaneOwn     = iota // the side to move's pieces
	PlaneOpp            // the opponent's pieces
	PlaneBlocked        // blocked cells
	numPlanes
)

// DefaultPlyCap is the ply cap used when a configuration gives none: four
// times the number of cells. A race between two players who never block
// takes about 2N(N-1) plies, so this leaves room for a long fight while
// ending the endless shuffles the course saw.
func DefaultPlyCap(size int) int { return 4 * size * size }

// Config is a game configuration.
type Config struct {
	Size int
	// Blocked lists cells blocked in every game. Ignored when RandomBlocked.
	Blocked []Cell
	// RandomBlocked draws the blocked cells of each game with the course
	// referee's scheme (see RandomBlockedCells).
	RandomBlocked bool
	// First is the side that moves first (H by default, as in the course).
	First env.Side
	// RandomFirst draws the first side of each game from Start's rng, so
	// that self-play sees both (First is then ignored).
	RandomFirst bool
	// PlyCap ends a game as a tie after this many plies, passes included;
	// 0 means DefaultPlyCap(Size).
	PlyCap int
}

// Game is a Slider configuration; it implements env.Game.
type Game struct {
	cfg      Config
	n        int
	plyCap   int
	pass     int
	board    uint64 // every cell of the board
	fixed    uint64 // blocked cells when not random
	firstCol uint64
	lastCol  uint64
	topRow   uint64
	// exitEdge[side] holds the cells from which the side's forward move
	// takes a piece off the board.
	exitEdge [2]uint64
	// sqOf[side][cell] is the square of canonical cell index cell (cy*n+cx)
	// as seen by side; base[side][sq] is 3 times the canonical cell index.
	sqOf [2][MaxSize * MaxSize]int8
	base [2][64]int16
	// cellOf[side][sq] is base[side][sq]/3, the input planes' index,
	// looked up: Encode runs at every leaf of every search.
	cellOf [2][64]int8
	// step[side][action] is the move's square and where it lands (none
	// when it leaves the board), looked up by Apply, which the search
	// calls at every node of every descent.
	step [2][3 * MaxSize * MaxSize]move
}

// move is a piece's step as two bitboards.
type move struct{ from, to uint64 }

// New checks a configuration and returns its game.
func New(cfg Config) (*Game, error) {
	n := cfg.Size
	if n < MinSize || n > MaxSize {
		return nil, fmt.Errorf("board size %d is out of range: Slider supports %d to %d", n, MinSize, MaxSize)
	}
	if cfg.First != H && cfg.First != V {
		return nil, fmt.Errorf("first player must be H or V")
	}
	if cfg.PlyCap < 0 {
		return nil, fmt.Errorf("ply cap %d is negative", cfg.PlyCap)
	}
	g := &Game{cfg: cfg, n: n, plyCap: cfg.PlyCap, pass: 3 * n * n}
	if g.plyCap == 0 {
		g.plyCap = DefaultPlyCap(n)
	}
	for y := 0; y < n; y++ {
		for x := 0; x < n; x++ {
			sq := y*8 + x
			g.board |= 1 << sq
			if x == 0 {
				g.firstCol |= 1 << sq
			}
			if x == n-1 {
				g.lastCol |= 1 << sq
			}
			if y == n-1 {
				g.topRow |= 1 << sq
			}
			// H sees (x, y) as itself; V sees it transposed.
			g.base[H][sq] = int16(3 * (y*n + x))
			g.base[V][sq] = int16(3 * (x*n + y))
			g.cellOf[H][sq], g.cellOf[V][sq] = int8(y*n+x), int8(x*n+y)
			g.sqOf[H][y*n+x] = int8(sq)
			g.sqOf[V][x*n+y] = int8(sq)
		}
	}
	g.exitEdge = [2]uint64{g.lastCol, g.topRow}
	for side := H; side <= V; side++ {
		for a := 0; a < g.pass; a++ {
			from := int(g.sqOf[side][a/numDirs])
			m := move{from: 1 << from}
			to := from + delta[side][a%numDirs]
			if (a%numDirs != 0 || m.from&g.exitEdge[side] == 0) && to >= 0 && to < 64 {
				// (Off the board only for moves no position allows.)
				m.to = 1 << to
			}
			g.step[side][a] = m
		}
	}
	start := g.startPieces()
	for _, c := range cfg.Blocked {
		if c.X < 0 || c.X >= n || c.Y < 0 || c.Y >= n {
			return nil, fmt.Errorf("blocked cell %s is off the %dx%d board", c, n, n)
		}
		if bit := uint64(1) << c.square(); (start[H]|start[V])&bit != 0 {
			return nil, fmt.Errorf("blocked cell %s holds a starting piece", c)
		}
		g.fixed |= 1 << c.square()
	}
	return g, nil
}

// CheckLayout refuses a layout the rules do not allow: a blocked cell on
// the edge. (Positions given whole may have one, to set up what the rules
// never reach, such as two passes in a row; a game's layout may not.)
func CheckLayout(cells []Cell, n int) error {
	for _, c := range cells {
		if c.X == 0 || c.Y == 0 || c.X == n-1 || c.Y == n-1 {
			return fmt.Errorf("blocked cell %s is on the edge: the rules block interior cells only", c)
		}
	}
	return nil
}

// MustNew is New for configurations known to be valid, such as constants
// in tests and defaults.
func MustNew(cfg Config) *Game {
	g, err := New(cfg)
	if err != nil {
		panic(err)
	}
	return g
}

// Config returns the configuration the game was made from, with the ply
// cap filled in.
func (g *Game) Config() Config {
	c := g.cfg
	c.PlyCap = g.plyCap
	return c
}

// Size is the board's width and height.
func (g *Game) Size() int { return g.n }

// PlyCap is the number of plies after which a game is a tie.
func (g *Game) PlyCap() int { return g.plyCap }

// PassAction is the action number of a pass.
func (g *Game) PassAction() int { return g.pass }

func (g *Game) Name() string { return "slider" }

func (g *Game) Describe() string {
	blocked := "none"
	switch {
	case g.cfg.RandomBlocked:
		blocked = "random"
	case len(g.cfg.Blocked) > 0:
		blocked = FormatCells(g.cfg.Blocked)
	}
	first := g.SideName(g.cfg.First)
	if g.cfg.RandomFirst {
		first = "random"
	}
	return fmt.Sprintf("slider size=%d blocked=%s first=%s plycap=%d", g.n, blocked, first, g.plyCap)
}

func (g *Game) ActionSize() int { return g.pass + 1 }

func (g *Game) InputShape() env.Shape { return env.Shape{C: numPlanes, H: g.n, W: g.n} }

func (g *Game) SideName(s env.Side) string {
	switch s {
	case H:
		return "H"
	case V:
		return "V"
	}
	return "none"
}

func (g *Game) ParseSide(s string) (env.Side, error) {
	switch strings.ToUpper(strings.TrimSpace(s)) {
	case "H":
		return H, nil
	case "V":
		return V, nil
	}
	return env.NoSide, fmt.Errorf("unknown side %s: want H or V", env.Quote(s))
}

func (g *Game) startPieces() [2]uint64 {
	var p [2]uint64
	for i := 1; i < g.n; i++ {
		p[H] |= 1 << (i * 8) // (0, i)
		p[V] |= 1 << i       // (i, 0)
	}
	return p
}

// Start returns the initial position; with random blocking, rng draws the
// blocked cells.
func (g *Game) Start(rng *rand.Rand) env.State { return g.NewState(rng) }

// NewState is Start with the concrete type.
func (g *Game) NewState(rng *rand.Rand) *State {
	s := &State{g: g, pieces: g.startPieces(), toMove: g.cfg.First}
	if g.cfg.RandomFirst && rng != nil {
		s.toMove = env.Side(rng.IntN(2))
	}
	s.blocked = g.fixed
	if g.cfg.RandomBlocked {
		s.blocked = 0
		for _, c := range RandomBlockedCells(g.n, rng) {
			s.blocked |= 1 << c.square()
		}
	}
	return s
}

// RandomStart implements env.RandomStarter: on a layout drawn as Start
// draws it, a uniformly random placement of 1 to N-1 pieces a side on the
// free cells (each placement equally likely, so that crowded boards, of
// which there are more, come up more often), and a side to move drawn
// fairly.
func (g *Game) RandomStart(rng *rand.Rand) env.State {
	s := g.NewState(rng)
	var free []int
	for sq := uint64(g.board &^ s.blocked); sq != 0; sq &= sq - 1 {
		free = append(free, bits.TrailingZeros64(sq))
	}
	// Draw the piece counts in proportion to their placements.
	f := len(free)
	var counts [][2]int
	var weights []float64
	total := 0.0
	for h := 1; h < g.n && h < f; h++ {
		for v := 1; v < g.n && h+v <= f; v++ {
			w := binomial(f, h) * binomial(f-h, v)
			counts, weights = append(counts, [2]int{h, v}), append(weights, w)
			total += w
		}
	}
	x := rng.Float64() * total
	k := 0
	for ; k < len(weights)-1 && x >= weights[k]; k++ {
		x -= weights[k]
	}
	h, v := counts[k][0], counts[k][1]
	// The first h+v cells of a random shuffle: H's, then V's.
	for i := 0; i < h+v; i++ {
		j := i + rng.IntN(f-i)
		free[i], free[j] = free[j], free[i]
	}
	var hb, vb uint64
	for i := 0; i < h; i++ {
		hb |= 1 << free[i]
	}
	for i := h; i < h+v; i++ {
		vb |= 1 << free[i]
	}
	s.pieces = [2]uint64{hb, vb}
	s.toMove = env.Side(rng.IntN(2))
	return s
}

// binomial is n choose k, as a float (exact far beyond a board's counts).
func binomial(n, k int) float64 {
	r := 1.0
	for i := 0; i < k; i++ {
		r = r * float64(n-i) / float64(i+1)
	}
	return r
}

// RandomBlockedCells draws blocked cells as the course referee did
// (aiproj.slider.Referee): k uniform in {0, 1, 2}, then i and j uniform in
// 1..n-2. k = 0 blocks nothing (an open board, a third of all games); k = 1
// blocks (i, j), any interior cell; k = 2 blocks, with equal chance, (i,i)
// and (j,j) or (i,j) and (j,i), one cell when the two coincide. No cell is
// on an edge, so none holds a starting piece.
func RandomBlockedCells(n int, rng *rand.Rand) []Cell {
	if n < 3 {
		return nil
	}
	k := rng.IntN(3)
	i := 1 + rng.IntN(n-2)
	j := 1 + rng.IntN(n-2)
	switch k {
	case 0:
		return nil
	case 1:
		return []Cell{{i, j}}
	}
	a, b := Cell{i, i}, Cell{j, j}
	if rng.IntN(2) == 1 {
		a, b = Cell{i, j}, Cell{j, i}
	}
	if a == b {
		return []Cell{a}
	}
	return []Cell{a, b}
}

// ParseState reads a one-line position of this game's size. The state
// keeps the game's ply cap; its ply count starts at 0.
func (g *Game) ParseState(text string) (env.State, error) {
	s, err := g.ParsePosition(text)
	if err != nil {
		return nil, err
	}
	return s, nil
}

// Position builds a position from bitboards (square y*8+x) of H's and V's
// pieces on this game's board, with its blocked cells; the ply count starts
// at 0. It refuses pieces off the board, on blocked cells or on each other,
// and more than N-1 pieces a side. With random blocking the board has no
// fixed layout: the cells come from blocked.
func (g *Game) Position(hPieces, vPieces uint64, toMove env.Side) (*State, error) {
	return g.PositionOn(hPieces, vPieces, g.fixed, toMove)
}

// PositionOn is Position on a board with the given blocked cells.
func (g *Game) PositionOn(hPieces, vPieces, blocked uint64, toMove env.Side) (*State, error) {
	if toMove != H && toMove != V {
		return nil, fmt.Errorf("side to move must be H or V")
	}
	switch {
	case (hPieces|vPieces|blocked)&^g.board != 0:
		return nil, fmt.Errorf("invalid position: a piece or blocked cell is off the %dx%d board", g.n, g.n)
	case hPieces&vPieces != 0 || (hPieces|vPieces)&blocked != 0:
		return nil, fmt.Errorf("invalid position: two things on one cell")
	case bits.OnesCount64(hPieces) > g.n-1 || bits.OnesCount64(vPieces) > g.n-1:
		return nil, fmt.Errorf("invalid position: more than %d pieces a side", g.n-1)
	case hPieces == 0 && vPieces == 0:
		return nil, fmt.Errorf("invalid position: neither side has a piece left")
	}
	s := &State{g: g, pieces: [2]uint64{hPieces, vPieces}, blocked: blocked, toMove: toMove}
	switch {
	case hPieces == 0:
		s.outcome = env.Outcome{Over: true, Winner: H}
	case vPieces == 0:
		s.outcome = env.Outcome{Over: true, Winner: V}
	}
	return s, nil
}
