// Building a position set: positions from games between players or from
// random playouts, scored move by move by the game's exact solver, the
// critical ones kept (BuildSet).

package accuracy

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/sliderzero/sliderzero/env"
	"github.com/sliderzero/sliderzero/match"
	"github.com/sliderzero/sliderzero/player"
)

// BuildSetOptions say how to build a set.
type BuildSetOptions struct {
	Name string
	// From is FromGames or FromRandom.
	From string
	// Players play the games of FromGames (default Baselines).
	Players []*player.Setup
	// GamesPerPair is the number of games each ordered pair plays.
	GamesPerPair int
	// Count is the number of critical positions wanted.
	Count int
	// MinPly skips positions with fewer plies (early positions can take
	// a solver minutes).
	MinPly int
	// Time bounds the solver on one position; a position it does not
	// settle in time, or within a budget NewSolver's solvers were given
	// (env.ErrBudget), is skipped (and counted).
	Time     time.Duration
	Seed     uint64
	Parallel int
	// NewSolver makes one exact solver per worker.
	NewSolver func() env.ExactSolver
	// Limit says in words what limits the solver, for the file's header.
	Limit string
	Scale string
	// Progress hears of the critical positions found, after each batch
	// of candidates.
	Progress func(done, total int)
}

// BuildStats say what building a set met.
type BuildStats struct {
	// Candidates positions were solved and Skipped more not settled
	// within the budget; Critical of those solved had a move that gives
	// the class away.
	Candidates, Skipped, Critical int
}

// BuildSet draws candidate positions, solves each exactly, and keeps a
// seeded random sample of Count distinct critical ones.
func BuildSet(ctx context.Context, g env.Game, o BuildSetOptions) (*Set, BuildStats, error) {
	var st BuildStats
	if o.Count < 1 || o.Count > MaxPositions || o.NewSolver == nil {
		return nil, st, fmt.Errorf("a set needs a count of 1 to %d and a solver", MaxPositions)
	}
	var cands []string
	var from string
	var err error
	switch o.From {
	case FromGames:
		players := o.Players
		if len(players) == 0 {
			if players, err = baselines(g); err != nil {
				return nil, st, err
			}
		}
		names := make([]string, len(players))
		for i, p := range players {
			names[i] = p.String()
		}
		cands, err = gamePositions(ctx, g, players, o)
		from = fmt.Sprintf("%d games a pair between %s, both orders and each against itself; positions from ply %d", max(1, o.GamesPerPair), strings.Join(names, ", "), o.MinPly)
	case FromRandom:
		cands, err = playoutPositions(ctx, g, o)
		from = fmt.Sprintf("one position of each random playout, from ply %d", o.MinPly)
	default:
		return nil, st, fmt.Errorf("unknown source %s: want %s or %s", env.Quote(o.From), FromGames, FromRandom)
	}
	if err != nil {
		return nil, st, err
	}
	// Solve in a seeded random order until Count critical positions are
	// found, a worker's batch at a time.
	rng := rand.New(rand.NewPCG(o.Seed, 0x5e7))
	rng.Shuffle(len(cands), func(i, j int) { cands[i], cands[j] = cands[j], cands[i] })
	workers := max(1, o.Parallel)
	solvers := make(chan env.ExactSolver, workers)
	for i := 0; i < workers; i++ {
		solvers <- o.NewSolver()
	}
	type result struct {
		e       Entry
		skipped bool
	}
	var kept []Entry
	for lo := 0; lo < len(cands) && len(kept) < o.Count; {
		hi := min(len(cands), lo+max(4*workers, (o.Count-len(kept))*2))
		batch := cands[lo:hi]
		res := make([]result, len(batch))
		var mu sync.Mutex
		err := forEach(ctx, len(batch), workers, nil, func(i int) error {
			s, err := g.ParseState(batch[i])
			if err != nil {
				return err
			}
			x := <-solvers
			defer func() { solvers <- x }()
			if r, ok := x.(resetter); ok {
				// each candidate from an empty table: what the budget
				// settles then does not depend on which worker solved
				// what before
				r.Reset()
			}
			sctx, cancel := ctx, context.CancelFunc(func() {})
			if o.Time > 0 {
				sctx, cancel = context.WithTimeout(ctx, o.Time)
			}
			scores, err := scoreAll(sctx, x, s)
			cancel()
			if err != nil {
				if ctx.Err() != nil {
					return ctx.Err()
				}
				if errors.Is(err, context.DeadlineExceeded) || errors.Is(err, env.ErrBudget) {
					res[i].skipped = true
					return nil
				}
				return err
			}
			res[i].e, err = entryOf(s, scores)
			mu.Lock()
			st.Candidates++
			mu.Unlock()
			return err
		})
		if err != nil {
			return nil, st, err
		}
		for _, r := range res {
			switch {
			case r.skipped:
				st.Skipped++
			case r.e.Critical():
				st.Critical++
				if len(kept) < o.Count {
					kept = append(kept, r.e)
				}
			}
		}
		if o.Progress != nil {
			o.Progress(len(kept), o.Count)
		}
		lo = hi
	}
	from += fmt.Sprintf("; %d candidates solved, %d of them critical; %d skipped (not solved within %s)", st.Candidates, st.Critical, st.Skipped, o.Limit)
	return &Set{Name: o.Name, Game: g.Describe(), Scale: o.Scale, From: from, Entries: kept}, st, nil
}

// resetter is a solver that can forget what it learnt.
type resetter interface{ Reset() }

// scoreAll scores every legal move of s, stopping at the first that the
// solver does not settle: that position is left out anyway, and each
// further move would spend the solver's whole budget again.
//
// Whether a position is critical depends only on its moves' classes (win,
// draw or loss), which weak solving gives for a fraction of the cost
// (Hex's empty 5x5 board: 0.6 s against 9.4 s), so every move is first
// scored weakly, and only a critical position's moves are then scored
// exactly, as its entry keeps them: the set is the same, found sooner.
func scoreAll(ctx context.Context, x env.ExactSolver, s env.State) ([]env.MoveScore, error) {
	legal := s.LegalActions(nil)
	weak := make([]env.MoveScore, len(legal))
	for i, a := range legal {
		b, err := x.ScoreMove(ctx, s, a, true)
		if err != nil {
			return nil, err
		}
		weak[i] = env.MoveScore{Action: a, Score: b}
	}
	best, _ := env.BestMoves(weak)
	critical := false
	for _, m := range weak {
		critical = critical || m.Score.Lo < best.Lo
	}
	if !critical {
		return weak, nil
	}
	out := make([]env.MoveScore, len(legal))
	for i, a := range legal {
		b, err := x.ScoreMove(ctx, s, a, false)
		if err != nil {
			return nil, err
		}
		out[i] = env.MoveScore{Action: a, Score: b}
	}
	return out, nil
}

// baselines are the Baselines, read for g.
func baselines(g env.Game) ([]*player.Setup, error) {
	f, err := player.NewFactory()
	if err != nil {
		return nil, err
	}
	out := make([]*player.Setup, len(Baselines))
	for i, spec := range Baselines {
		if out[i], err = f.Read(spec, g, player.Options{}); err != nil {
			return nil, err
		}
	}
	return out, nil
}

// gamePositions plays the players' games and returns their distinct
// positions past MinPly, sorted.
func gamePositions(ctx context.Context, g env.Game, players []*player.Setup, o BuildSetOptions) ([]string, error) {
	// Game i is made from its number when it is played: nothing is sized
	// by the games asked for (issue 65: 99999999999 games a pair once
	// built a list of them all, in a loop deaf to Ctrl-C).
	jobs, err := newPairGames(len(players), o.GamesPerPair)
	if err != nil {
		return nil, err
	}
	var mu sync.Mutex
	pool := newPositionPool(MaxCandidates)
	err = forEach(ctx, jobs.n, o.Parallel, nil, func(i int) error {
		a, b, seed := jobs.game(i, o.Seed)
		start := g.Start(rand.New(rand.NewPCG(seed, 0x57a)))
		positions := map[string]bool{}
		var ps [2]player.Player
		for side, setup := range []*player.Setup{players[a], players[b]} {
			p, err := setup.New(g, seed+uint64(side))
			if err != nil {
				return err
			}
			ps[side] = p
		}
		keep := func(s env.State) {
			if !s.Outcome().Over && s.Ply() >= o.MinPly {
				positions[s.String()] = true
			}
		}
		keep(start)
		_, err := match.Play(ctx, start, ps, match.Options{OnMove: func(s env.State, _ env.Side, _ string) { keep(s) }})
		mu.Lock()
		for p := range positions {
			pool.add(p)
		}
		mu.Unlock()
		return err
	})
	if err != nil {
		return nil, fmt.Errorf("playing the games: %w", err)
	}
	out := make([]string, 0, len(pool.all))
	for p := range pool.all {
		out = append(out, p)
	}
	sort.Strings(out) // map order is random; the sample must not be
	return out, nil
}

// playoutPositions plays random games and keeps one position of each,
// drawn uniformly among its positions past MinPly that are not over. It
// stops early when ctx ends.
func playoutPositions(ctx context.Context, g env.Game, o BuildSetOptions) ([]string, error) {
	rng := rand.New(rand.NewPCG(o.Seed, 0x4a4d))
	seen := map[string]bool{}
	var out []string
	want := 20 * o.Count
	var moves []int
	for tries := 0; len(out) < want && tries < 50*want; tries++ {
		if tries%256 == 0 && ctx.Err() != nil {
			return nil, ctx.Err()
		}
		s := g.Start(rng)
		var line []string
		for !s.Outcome().Over {
			if s.Ply() >= o.MinPly {
				line = append(line, s.String())
			}
			moves = s.LegalActions(moves[:0])
			s.Apply(moves[rng.IntN(len(moves))])
		}
		if len(line) == 0 {
			continue
		}
		p := line[rng.IntN(len(line))]
		if !seen[p] {
			seen[p] = true
			out = append(out, p)
		}
	}
	return out, nil
}
