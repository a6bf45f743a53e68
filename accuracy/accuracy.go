// Package accuracy measures players against perfect play: the share of
// critical positions (those where some legal move gives away the
// game-theoretic value) on which a player's move keeps the value.
//
// Two sets of positions are kept with each solver table (a game solved
// into tables, registry.Table), so that every measurement uses the same
// ones: critical positions from real games between baseline players (each
// also against itself), deduplicated, and critical positions drawn
// uniformly from every position of the table. Games whose solvers solve
// positions when asked keep their sets in set files (BuildSet). Positions
// are measured with their ply count at 0: a table knows no ply cap, so
// the player is told it has the whole game ahead.
package accuracy

import (
	"context"
	"errors"
	"fmt"
	"hash/fnv"
	"math/bits"
	"math/rand/v2"
	"sort"
	"sync"

	"github.com/sliderzero/sliderzero/env"
	"github.com/sliderzero/sliderzero/env/registry"
	"github.com/sliderzero/sliderzero/match"
	"github.com/sliderzero/sliderzero/player"
	"github.com/sliderzero/sliderzero/rating"
	"github.com/sliderzero/sliderzero/solver"
)

// Names of the position sets.
const (
	RealGames = "real-games"
	Random    = "random"
)

// SetNames lists the sets in the order reports show them.
var SetNames = []string{RealGames, Random}

// Baselines are the players whose games give the real-game positions:
// every ordered pair plays, both first players, several seeds.
var Baselines = []string{"random", "greedy", "alphabeta:depth=2", "alphabeta:depth=4", "alphabeta:depth=8", "mcts:sims=300"}

// Critical reports whether some legal move of s gives away its value (a
// move of a lower class: win, draw, loss) by the scores of x, a solver
// that settles every score (a table), and returns the value's class: 1 a
// win, 0 a draw, -1 a loss for the side to move.
func Critical(x env.ExactSolver, s env.State) (bool, int, error) {
	moves, err := env.ScoreMoves(context.Background(), x, s, nil, true)
	if err != nil {
		return false, 0, err
	}
	class := env.PositionBounds(moves).Lo
	for _, m := range moves {
		if m.Score.Lo < class {
			return true, class, nil
		}
	}
	return false, class, nil
}

// BuildOptions size the sets.
type BuildOptions struct {
	// Count is the number of positions in each set.
	Count int
	// GamesPerPair is the number of real games each ordered pair of
	// baselines plays (half with each first player).
	GamesPerPair int
	Seed         uint64
	// Parallel is the number of games played at once.
	Parallel int
	// Progress, when set, hears of each finished game.
	Progress func(done, total int)
}

// Build fills the table's position sets.
func Build(ctx context.Context, t registry.Table, o BuildOptions) error {
	if o.Count < 1 {
		return fmt.Errorf("a position set needs at least one position")
	}
	real, err := realGamePositions(ctx, t, o)
	if err != nil {
		return err
	}
	random, err := randomPositions(ctx, t, o.Count, o.Seed)
	if err != nil {
		return err
	}
	sets := t.PositionSets()
	sets[RealGames], sets[Random] = real, random
	return nil
}

// MaxGames bounds the games a set's or a table's players play: the
// ordered pairs times the games each pair plays.
const MaxGames = 1_000_000

// MaxPositions bounds the positions a set keeps: a set file holds at most
// MaxSetBytes, 100,000 positions of the largest boards.
const MaxPositions = 100_000

// MaxCandidates bounds the distinct positions the games of a set's or a
// table's players give to draw from (positionPool): about 150 MB.
const MaxCandidates = 1_000_000

// positionPool holds the distinct positions of games, at most max of
// them: past that, a sample by hash (the positions whose hash ends in
// level zero bits or more, the level raised until they fit), the same
// whatever order the games end in, so that a set stays the same for a
// seed however many games run at once. The games a set's players play by
// default give a few thousand.
type positionPool struct {
	max   int
	level int
	all   map[string]bool
}

func newPositionPool(max int) *positionPool {
	return &positionPool{max: max, all: map[string]bool{}}
}

func (p *positionPool) add(position string) {
	if zeros(position) < p.level || p.all[position] {
		return
	}
	p.all[position] = true
	for len(p.all) > p.max {
		p.level++
		for k := range p.all {
			if zeros(k) < p.level {
				delete(p.all, k)
			}
		}
	}
}

// zeros is the number of zero bits that end a position's hash.
func zeros(position string) int {
	h := fnv.New64a()
	h.Write([]byte(position))
	return bits.TrailingZeros64(h.Sum64())
}

// pairGames are the games every ordered pair of n players plays, perPair
// each (at least one), numbered pair by pair: game i is made from its
// number when it is played, so that nothing is sized by how many.
type pairGames struct{ players, perPair, n int }

func newPairGames(players, perPair int) (pairGames, error) {
	perPair = max(1, perPair)
	if players < 1 || perPair > MaxGames/(players*players) {
		return pairGames{}, fmt.Errorf("%d games a pair between %d players: at most %d games in all", perPair, players, MaxGames)
	}
	return pairGames{players, perPair, players * players * perPair}, nil
}

// game is game i's players (indices) and seed: the k-th game of ordered
// pair (a, b).
func (p pairGames) game(i int, seed uint64) (a, b int, gameSeed uint64) {
	pair, k := i/p.perPair, i%p.perPair
	a, b = pair/p.players, pair%p.players
	return a, b, seed ^ uint64(a*1000+b*10+k)<<12
}

// realGamePositions plays the baselines' games on the table's board and
// keeps a random sample of their distinct critical positions.
func realGamePositions(ctx context.Context, t registry.Table, o BuildOptions) ([]string, error) {
	jobs, err := newPairGames(len(Baselines), o.GamesPerPair)
	if err != nil {
		return nil, err
	}
	starts := t.Starts()
	var mu sync.Mutex
	pool := newPositionPool(MaxCandidates)
	err = forEach(ctx, jobs.n, o.Parallel, o.Progress, func(i int) error {
		a, b, seed := jobs.game(i, o.Seed)
		first := env.Side(i % jobs.perPair % 2)
		positions := map[string]bool{starts[first].String(): true}
		var players [2]player.Player
		for side, spec := range []string{Baselines[a], Baselines[b]} {
			p, err := player.New(spec, starts[first].Game(), player.Options{Seed: seed + uint64(side)})
			if err != nil {
				return err
			}
			players[side] = p
		}
		_, err := match.Play(ctx, starts[first], players, match.Options{OnMove: func(s env.State, _ env.Side, _ string) {
			if !s.Outcome().Over {
				positions[s.String()] = true
			}
		}})
		mu.Lock()
		for p := range positions {
			pool.add(p)
		}
		mu.Unlock()
		return err
	})
	if err != nil {
		return nil, fmt.Errorf("playing the baselines' games: %w", err)
	}
	g := t.Game()
	var critical []string
	for p := range pool.all {
		if ctx.Err() != nil {
			return nil, ctx.Err()
		}
		s, err := g.ParseState(p)
		if err != nil {
			return nil, err
		}
		if ok, _, err := Critical(t, s); err != nil {
			return nil, err
		} else if ok {
			critical = append(critical, p)
		}
	}
	sort.Strings(critical) // map order is random; the sample must not be
	rng := rand.New(rand.NewPCG(o.Seed, 0xacc))
	rng.Shuffle(len(critical), func(i, j int) { critical[i], critical[j] = critical[j], critical[i] })
	if len(critical) > o.Count {
		critical = critical[:o.Count]
	}
	return critical, nil
}

// randomPositions draws distinct critical positions uniformly from the
// table's board.
func randomPositions(ctx context.Context, t registry.Table, count int, seed uint64) ([]string, error) {
	rng := rand.New(rand.NewPCG(seed, 0x4a4d))
	seen := map[string]bool{}
	var out []string
	// A small board may hold fewer critical positions than asked: the draw
	// stops once a million draws in a row found no new position.
	for misses := 0; len(out) < count && misses < 1_000_000; {
		if misses%1024 == 0 && ctx.Err() != nil {
			return nil, ctx.Err()
		}
		s := t.DrawPosition(rng)
		key := s.String()
		if seen[key] {
			misses++
			continue
		}
		misses = 0
		seen[key] = true
		if ok, _, _ := Critical(t, s); ok {
			out = append(out, key)
		}
	}
	return out, nil
}

// forEach runs job(i) for i in [0, n) on parallel goroutines, reporting
// each finished job to progress (from one goroutine at a time). It stops
// early when ctx ends, and returns ctx's error or the jobs' errors, in
// the jobs' order. Nothing is sized by n.
func forEach(ctx context.Context, n, parallel int, progress func(done, total int), job func(i int) error) error {
	errs := map[int]error{}
	var mu sync.Mutex
	next, done := 0, 0
	var wg sync.WaitGroup
	for w := 0; w < max(1, min(parallel, n)); w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				mu.Lock()
				i := next
				next++
				mu.Unlock()
				if i >= n || ctx.Err() != nil {
					return
				}
				err := job(i)
				mu.Lock()
				if err != nil {
					errs[i] = err
				}
				done++
				if progress != nil {
					progress(done, n)
				}
				mu.Unlock()
			}
		}()
	}
	wg.Wait()
	if err := ctx.Err(); err != nil {
		return err
	}
	order := make([]int, 0, len(errs))
	for i := range errs {
		order = append(order, i)
	}
	sort.Ints(order)
	joined := make([]error, len(order))
	for k, i := range order {
		joined[k] = errs[i]
	}
	return errors.Join(joined...)
}

// Tally counts kept positions.
type Tally struct {
	Kept  int `json:"kept"`
	Total int `json:"total"`
}

// Share is the share kept, 0 for no positions.
func (t Tally) Share() float64 {
	if t.Total == 0 {
		return 0
	}
	return float64(t.Kept) / float64(t.Total)
}

// Interval is the 95% Wilson interval of the share.
func (t Tally) Interval() (lo, hi float64) { return rating.Wilson(t.Kept, t.Total) }

func (t Tally) String() string {
	lo, hi := t.Interval()
	return fmt.Sprintf("%5.1f%% [%4.1f, %5.1f] of %d", 100*t.Share(), 100*lo, 100*hi, t.Total)
}

// Result is a player's accuracy on one set.
type Result struct {
	Set string `json:"set"`
	All Tally  `json:"all"`
	// Won and Drawn split the positions by their value for the side to
	// move (lost positions are never critical: every move keeps a loss).
	Won   Tally `json:"won"`
	Drawn Tally `json:"drawn"`
}

// Factory builds the player for one position; seed is the position's own,
// so that results do not depend on how many run at once.
type Factory func(seed uint64) (player.Player, error)

// Options set a measurement.
type Options struct {
	// Limit, when positive, measures only the set's first Limit positions.
	Limit    int
	Seed     uint64
	Parallel int
	// Progress, when set, hears of each position measured.
	Progress func(done, total int)
}

// Measure plays the player's move on each position of one of the table's
// sets and counts those where the move keeps the position's value.
func Measure(ctx context.Context, t registry.Table, set string, newPlayer Factory, o Options) (Result, error) {
	s, err := TableSet(t, set)
	if err != nil {
		return Result{}, err
	}
	r, err := MeasureSet(ctx, t.Game(), s, newPlayer, o)
	return Result{Set: r.Set, All: r.All, Won: r.Won, Drawn: r.Drawn}, err
}

// TableSet is one of a table's position sets as a Set, each move scored
// from the table.
func TableSet(t registry.Table, set string) (*Set, error) {
	positions, ok := t.PositionSets()[set]
	if !ok {
		return nil, fmt.Errorf("the table has no position set %q (it has %v); rebuild it with sliderzero solve", set, setNames(t))
	}
	g := t.Game()
	out := &Set{Name: set, Game: g.Describe(), Scale: solver.Scale(g), From: "the table's " + set + " set"}
	for _, p := range positions {
		s, err := g.ParseState(p)
		if err != nil {
			return nil, fmt.Errorf("position %q: %w", p, err)
		}
		scores, err := env.ScoreMoves(context.Background(), t, s, nil, false)
		if err != nil {
			return nil, fmt.Errorf("position %q: %w", p, err)
		}
		e, err := entryOf(s, scores)
		if err != nil {
			return nil, err
		}
		out.Entries = append(out.Entries, e)
	}
	return out, nil
}

func setNames(t registry.Table) []string {
	var names []string
	for n := range t.PositionSets() {
		names = append(names, n)
	}
	sort.Strings(names)
	return names
}

// Convert plays out the won positions of one of the table's sets: the
// player, to move in a position the table calls won, against the
// opponent, from ply 0 under the game's ply cap. A win converts; a tie
// (the cap, two passes) or a loss does not. Limit counts won positions;
// each game's players get the position's own seeds.
func Convert(ctx context.Context, t registry.Table, set string, newPlayer, newOpponent Factory, o Options) (Conversion, error) {
	s, err := TableSet(t, set)
	if err != nil {
		return Conversion{}, err
	}
	return ConvertSet(ctx, t.Game(), s, newPlayer, newOpponent, o)
}

// Conversion is what playing out a set's won positions gave: how many
// were won, and the games that were not, in the set's order, for
// looking at where the win went (match records: replay --records reads
// them).
type Conversion struct {
	Tally
	Unconverted []match.Record
}

// playOut plays the player, to move in s, against the opponent, and
// returns the game.
func playOut(ctx context.Context, s env.State, newPlayer, newOpponent Factory, seed uint64) (match.Record, error) {
	me := s.ToMove()
	p, err := newPlayer(seed)
	if err != nil {
		return match.Record{}, err
	}
	q, err := newOpponent(seed + 1)
	if err != nil {
		return match.Record{}, err
	}
	var players [2]player.Player
	players[me], players[me.Other()] = p, q
	return match.Play(ctx, s, players, match.Options{})
}
