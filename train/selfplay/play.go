package selfplay

import (
	"context"
	"errors"
	"math"
	"math/rand/v2"
	"sort"
	"sync"
	"sync/atomic"
	"time"

	"github.com/sliderzero/sliderzero/env"
	"github.com/sliderzero/sliderzero/mcts"
	"github.com/sliderzero/sliderzero/model"
	"github.com/sliderzero/sliderzero/train/replay"
)

// recordedMove is a position of a game in flight, whose value target waits
// for the game's end.
type recordedMove struct {
	sample replay.Sample
	mover  env.Side
	// q is the search's value of the position for mover (when searched).
	q    float32
	hasQ bool
	// raw is the network's value of the position for mover, before the
	// search (see Tree.RawValue).
	raw   float32
	train bool // a full search: the position becomes a sample
	// proof is what the search proved of the position for mover, with the
	// plies of the proven line: its target is then exact.
	proof mcts.Proof
	plies int
	move  string // in notation, for the games a round keeps whole
}

// gameInFlight is one game being played, with its search tree and its own
// random stream: a game depends only on its stream and the network, not on
// the games played beside it, so that a round's games are the same however
// many workers play them and whichever plays which.
type gameInFlight struct {
	index int
	rng   *rand.Rand
	tree  *mcts.Tree
	moves []recordedMove
	// start is the position the game started from, set only for the
	// games a round keeps whole (ExamplesPerRound), whose moves are then
	// written down too, the random opening's among them (opening).
	start   string
	opening []string
}

// Stats counts self-play's work: Batches forward passes evaluated Evals
// positions, so Evals/Batches is the batch self-play forms.
type Stats struct {
	Sims, Evals, Plies, Batches int64
}

// Game is a finished game's positions with their targets, and its index
// among the games asked for.
type Game struct {
	Index   int
	Samples []replay.Sample
	Plies   int
	Winner  env.Side
	// Capped: the ply cap ended the game (a tie not by the rules).
	Capped bool
	// Start and Moves are the game itself, for the examples a round keeps.
	Start string
	Moves []string
}

// Play plays games of g with net: next gives the index of the next game to
// start (false when there is none; it may be shared by several workers),
// and game i draws from rngFor(i). It keeps job.GamesInFlight games going
// at once and evaluates their leaves in one batch. onGame is called for
// each finished game. It stops early when ctx ends, dropping unfinished
// games.
func Play(ctx context.Context, g env.Game, job Job, net *model.Net, rngFor func(game int) *rand.Rand, next func() (int, bool), onGame func(Game)) (Stats, error) {
	var st Stats
	sc := job.Search
	inputSize, actions := g.InputShape().Size(), g.ActionSize()
	n := job.GamesInFlight
	fwd := net.NewForward()
	input := make([]float32, n*inputSize)
	logits := make([]float32, n*actions)
	values, plies := make([]float32, n), make([]float32, n)
	policy := make([]float32, actions)
	waiting := make([]*gameInFlight, 0, n)
	// newGame starts the next game, nil when there is none.
	newGame := func() (*gameInFlight, error) {
		i, ok := next()
		if !ok {
			return nil, nil
		}
		rng := rngFor(i)
		tree, err := mcts.NewTree(sc.Params, rng)
		if err != nil {
			return nil, err
		}
		planSearch(tree, sc, rng)
		start := g.Start(rng)
		fg := &gameInFlight{index: i, rng: rng, tree: tree}
		keep := i < ExamplesPerRound
		if from, ok := exploreStart(g, job, rng); ok {
			start = from
		} else if rs, ok := g.(env.RandomStarter); ok && sc.RandomStarts > 0 && rng.Float64() < sc.RandomStarts {
			start = rs.RandomStart(rng)
		} else {
			var origin env.State
			if keep { // the start, before the opening changes it in place
				origin = start.Clone()
			}
			var opening []int
			start, opening = randomOpening(start, sc.RandomPlies, rng)
			if keep {
				fg.start, fg.opening = origin.String(), env.MoveNames(origin, opening)
			}
		}
		if keep && fg.start == "" {
			fg.start = start.String()
		}
		tree.Reset(start)
		return fg, nil
	}
	var inFlight []*gameInFlight
	for i := 0; i < n; i++ {
		s, err := newGame()
		if err != nil {
			return st, err
		}
		if s == nil {
			break
		}
		inFlight = append(inFlight, s)
	}
	for len(inFlight) > 0 {
		if err := ctx.Err(); err != nil {
			return st, err
		}
		waiting = waiting[:0]
		for i := 0; i < len(inFlight); i++ {
			s := inFlight[i]
			// Play every move whose search is done; finish games.
			for s != nil && s.tree.Done() {
				if !s.move(policy, sc) {
					continue
				}
				st.Plies += int64(len(s.moves))
				onGame(s.finish(job.Targets))
				var err error
				if s, err = newGame(); err != nil {
					return st, err
				}
			}
			if s == nil {
				inFlight = append(inFlight[:i], inFlight[i+1:]...)
				i--
				continue
			}
			inFlight[i] = s
			// Descend until a leaf needs the network (terminal leaves are
			// backed up on the way).
			for !s.tree.Done() {
				leaf := s.tree.SelectLeaf()
				if leaf == nil {
					st.Sims++
					continue
				}
				leaf.Encode(input[len(waiting)*inputSize : (len(waiting)+1)*inputSize])
				waiting = append(waiting, s)
				break
			}
		}
		if len(waiting) == 0 {
			continue
		}
		fwd.Run(len(waiting), input, logits, values, plies)
		st.Batches++
		st.Evals += int64(len(waiting))
		st.Sims += int64(len(waiting))
		for k, s := range waiting {
			s.tree.Expand(logits[k*actions:(k+1)*actions], values[k], plies[k])
		}
	}
	return st, nil
}

// PlayRound plays job.GamesPerRound games with net on workers goroutines
// that take the next game as they have room for it; game i draws from
// rngFor(i), and the games are gathered in index order into shard seq, so
// that the shard depends neither on scheduling nor on the number of
// workers. onGame hears of each finished game, from any worker.
// ExamplesPerRound is how many of a round's games its shard keeps whole,
// for people to look at.
const ExamplesPerRound = 2

func PlayRound(ctx context.Context, g env.Game, job Job, net *model.Net, workers int, rngFor func(game int) *rand.Rand, seq int, onGame func()) (*replay.Shard, error) {
	t0 := time.Now()
	workers = max(1, min(workers, job.GamesPerRound))
	results := make([]Game, job.GamesPerRound)
	stats := make([]Stats, workers)
	errs := make([]error, workers)
	var started atomic.Int64
	next := func() (int, bool) {
		i := int(started.Add(1)) - 1
		return i, i < job.GamesPerRound
	}
	var wg sync.WaitGroup
	for w := 0; w < workers; w++ {
		wg.Add(1)
		go func(w int) {
			defer wg.Done()
			stats[w], errs[w] = Play(ctx, g, job, net, rngFor, next, func(fg Game) {
				results[fg.Index] = fg
				if onGame != nil {
					onGame()
				}
			})
		}(w)
	}
	wg.Wait()
	if err := errors.Join(errs...); err != nil {
		return nil, err
	}
	shard := &replay.Shard{Seq: seq, Game: job.Game, Wins: map[string]int{}}
	for i, fg := range results {
		name := "tie"
		if fg.Winner != env.NoSide {
			name = g.SideName(fg.Winner)
		}
		if i < ExamplesPerRound {
			shard.Examples = append(shard.Examples, replay.GameExample{Start: fg.Start, Moves: fg.Moves, Winner: name})
		}
		shard.Wins[name]++
		if fg.Capped {
			shard.Capped++
		}
		shard.Games++
		shard.Plies += fg.Plies
		shard.Samples = append(shard.Samples, fg.Samples...)
	}
	for _, st := range stats {
		shard.Sims += st.Sims
		shard.Evals += st.Evals
	}
	shard.Seconds = time.Since(t0).Seconds()
	return shard, nil
}

// exploreStart draws, with the chance Search.ExploreShare, one of the
// job's start positions. It draws nothing from rng without them, so that
// games without exploration are as before.
func exploreStart(g env.Game, job Job, rng *rand.Rand) (env.State, bool) {
	if job.Search.ExploreShare <= 0 || len(job.Starts) == 0 || rng.Float64() >= job.Search.ExploreShare {
		return nil, false
	}
	s, err := g.ParseState(job.Starts[rng.IntN(len(job.Starts))])
	if err != nil || s.Outcome().Over {
		return nil, false
	}
	return s, true
}

// ExploreStarts picks, from a round's samples, the positions to start the
// next round's exploring games from: the quarter of them (at most 1000)
// where the search's value was furthest from the game's result, in the
// round's order among equals.
func ExploreStarts(samples []replay.Sample) []string {
	idx := make([]int, len(samples))
	for i := range idx {
		idx[i] = i
	}
	sort.SliceStable(idx, func(a, b int) bool { return samples[idx[a]].Surprise > samples[idx[b]].Surprise })
	n := min(len(idx)/4, 1000)
	out := make([]string, 0, n)
	for _, i := range idx[:n] {
		if samples[i].Surprise > 0 && samples[i].State != "" {
			out = append(out, samples[i].State)
		}
	}
	return out
}

// randomOpening plays up to plies uniformly random moves (how many is drawn
// uniformly from 0 to plies) from s, stopping before a move would end the
// game, and returns them with the position they lead to.
func randomOpening(s env.State, plies int, rng *rand.Rand) (env.State, []int) {
	if plies <= 0 {
		return s, nil
	}
	return env.RandomLine(s, rng, rng.IntN(plies+1), nil)
}

// planSearch sets the budget of the tree's next search: the full one, or,
// with playout cap randomisation, sometimes a fast one.
func planSearch(t *mcts.Tree, sc Settings, rng *rand.Rand) {
	if sc.FastProb > 0 && rng.Float64() < sc.FastProb {
		t.SetBudget(sc.FastSims, false)
		return
	}
	t.SetBudget(sc.Sims, true)
}

// move records the root position with the search's policy and value, and
// plays the chosen move. It reports whether the game is over.
func (s *gameInFlight) move(policy []float32, sc Settings) bool {
	t := s.tree
	root := t.Root()
	if root.Outcome().Over {
		return true
	}
	t.Policy(policy)
	var sample replay.Sample
	sample.State = root.String()
	sample.Input = make([]float32, root.Game().InputShape().Size())
	root.Encode(sample.Input)
	for a, p := range policy {
		if p > 0 {
			sample.Actions = append(sample.Actions, int32(a))
			sample.Policy = append(sample.Policy, p)
		}
	}
	searched := len(sample.Actions) > 0 && t.Sims() > 0
	if len(sample.Actions) == 0 { // a move decided before any search: uniform
		legal := root.LegalActions(nil)
		for _, a := range legal {
			sample.Actions = append(sample.Actions, int32(a))
			sample.Policy = append(sample.Policy, 1/float32(len(legal)))
		}
	}
	full := t.Params().Sims >= sc.Sims
	v := t.Verdict()
	s.moves = append(s.moves, recordedMove{sample: sample, mover: root.ToMove(), q: t.Value(), raw: v.Raw, hasQ: searched, train: full, proof: v.Proof, plies: v.ProofPlies})
	temp := 0.0
	if root.Ply() < sc.TemperaturePlies {
		temp = 1
	}
	a, err := t.Choose(temp)
	if err != nil {
		// Only a search that never ran has no move; take the first legal one.
		a = root.LegalActions(nil)[0]
	}
	if s.start != "" {
		s.moves[len(s.moves)-1].move = root.ActionString(a)
	}
	planSearch(t, sc, s.rng)
	t.Advance(a)
	return t.Root().Outcome().Over
}

// finish labels the game's positions with their value targets and keeps
// those from full searches.
func (s *gameInFlight) finish(tc Targets) Game {
	root := s.tree.Root()
	o := root.Outcome()
	out := Game{Index: s.index, Plies: len(s.moves), Winner: o.Winner, Start: s.start, Capped: env.EndedByCap(root)}
	if s.start != "" {
		out.Moves = append(out.Moves, s.opening...)
		for _, p := range s.moves {
			out.Moves = append(out.Moves, p.move)
		}
	}
	targets := valueTargets(s.moves, o, env.EndedByCap(root), tc)
	for i, p := range s.moves {
		if !p.train {
			continue
		}
		p.sample.Value = targets[i]
		p.sample.Left = int16(min(len(s.moves)-i, math.MaxInt16))
		if p.hasQ {
			p.sample.Surprise = float32(math.Abs(float64(p.q - targets[i])))
		}
		out.Samples = append(out.Samples, p.sample)
	}
	return out
}

// valueTargets computes each recorded position's value target (see
// Targets). Position i is len(record)-i plies from the end.
func valueTargets(record []recordedMove, o env.Outcome, capped bool, tc Targets) []float32 {
	gamma := tc.discount()
	n := len(record)
	out := make([]float32, n)
	var last recordedMove
	var lastValue float32 // the last position's value, for mover: the search's or the network's
	bootstrap := capped && (tc.Capped == CappedBootstrap || tc.Capped == CappedNet) && n > 0
	if bootstrap {
		last = record[n-1]
		lastValue = last.q
		if tc.Capped == CappedNet {
			lastValue = last.raw
		}
	}
	for i, p := range record {
		var z float64
		switch {
		case p.proof != mcts.Unproven:
			// The search proved the position: its exact value, discounted
			// by the proven line's length as a game's outcome is.
			switch p.proof {
			case mcts.ProvenWin:
				z = math.Pow(gamma, float64(p.plies-1))
			case mcts.ProvenLoss:
				z = -math.Pow(gamma, float64(p.plies-1))
			}
			out[i] = float32(z)
			continue
		case bootstrap:
			// The last position's search value, carried back.
			z = math.Pow(gamma, float64(n-1-i)) * float64(lastValue)
			if p.mover != last.mover {
				z = -z
			}
		case o.Winner != env.NoSide:
			z = math.Pow(gamma, float64(n-1-i)) * float64(o.Value(p.mover))
		}
		if k := tc.BootstrapPlies; k > 0 && i+k < n && record[i+k].hasQ {
			// The n-step return: the search's value k plies on, for its
			// mover, discounted back.
			later := record[i+k]
			z = math.Pow(gamma, float64(k)) * float64(later.q)
			if later.mover != p.mover {
				z = -z
			}
		}
		if w := tc.SearchWeight; w > 0 && p.hasQ {
			z = (1-w)*z + w*float64(p.q)
		}
		out[i] = float32(z)
	}
	return out
}

// Indices gives the game indices 0 to n-1, one a call, for Play's next in
// a single worker.
func Indices(n int) func() (int, bool) {
	i := -1
	return func() (int, bool) {
		i++
		return i, i < n
	}
}
