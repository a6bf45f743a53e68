package train

import (
	"context"
	"math"
	"math/rand/v2"

	"github.com/sliderzero/sliderzero/env"
	"github.com/sliderzero/sliderzero/mcts"
	"github.com/sliderzero/sliderzero/model"
)

// pending is a position whose outcome is not known yet.
type pending struct {
	sample Sample
	mover  env.Side
	// q is the search's value of the position for mover (when searched).
	q     float32
	hasQ  bool
	train bool // a full search: the position becomes a sample
}

// slot is one game in flight.
type slot struct {
	tree   *mcts.Tree
	record []pending
}

// playStats counts a worker's work, and a round's.
type playStats struct {
	sims, evals, plies int
	wins               map[string]int // a round's results by winner
	secs               float64        // a round's self-play time
}

// finishedGame is a game's positions with their outcomes.
type finishedGame struct {
	samples []Sample
	plies   int
	winner  env.Side
}

// selfPlay plays games games with net, keeping cfg.GamesInFlight going at
// once and evaluating their leaves in one batch. onGame is called for each
// finished game; the games are reported in the order they finish, which is
// the same on every run with the same rng. It stops early when ctx ends,
// dropping unfinished games.
func selfPlay(ctx context.Context, g env.Game, cfg Config, net *model.Net, rng *rand.Rand, games int, onGame func(finishedGame)) (playStats, error) {
	var st playStats
	sc := mcts.Config{Sims: cfg.Search.Sims, CPUCT: cfg.Search.CPUCT, NoiseAlpha: cfg.Search.NoiseAlpha,
		NoiseFrac: cfg.Search.NoiseFrac, Gumbel: cfg.Search.Gumbel, GumbelM: cfg.Search.GumbelM}
	inputSize, actions := g.InputShape().Size(), g.ActionSize()
	n := min(cfg.GamesInFlight, games)
	fwd := net.NewForward()
	input := make([]float32, n*inputSize)
	logits := make([]float32, n*actions)
	values := make([]float32, n)
	policy := make([]float32, actions)
	waiting := make([]*slot, 0, n)
	started := 0
	newGame := func() (*slot, error) {
		tree, err := mcts.NewTree(sc, rng)
		if err != nil {
			return nil, err
		}
		planSearch(tree, cfg.Search, rng)
		tree.Reset(randomOpening(g.Start(rng), cfg.Search.RandomPlies, rng))
		started++
		return &slot{tree: tree}, nil
	}
	var slots []*slot
	for i := 0; i < n; i++ {
		s, err := newGame()
		if err != nil {
			return st, err
		}
		slots = append(slots, s)
	}
	for len(slots) > 0 {
		if err := ctx.Err(); err != nil {
			return st, err
		}
		waiting = waiting[:0]
		for i := 0; i < len(slots); i++ {
			s := slots[i]
			// Play every move whose search is done; finish games.
			for s != nil && s.tree.Done() {
				if !s.move(policy, cfg.Search, rng) {
					continue
				}
				st.plies += len(s.record)
				onGame(s.finish(cfg.Targets))
				s = nil
				if started < games {
					var err error
					if s, err = newGame(); err != nil {
						return st, err
					}
				}
			}
			if s == nil {
				slots = append(slots[:i], slots[i+1:]...)
				i--
				continue
			}
			slots[i] = s
			// Descend until a leaf needs the network (terminal leaves are
			// backed up on the way).
			for !s.tree.Done() {
				leaf := s.tree.SelectLeaf()
				if leaf == nil {
					st.sims++
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
		fwd.Run(len(waiting), input, logits, values)
		st.evals += len(waiting)
		st.sims += len(waiting)
		for k, s := range waiting {
			s.tree.Expand(logits[k*actions:(k+1)*actions], values[k])
		}
	}
	return st, nil
}

// randomOpening plays up to plies uniformly random moves (how many is drawn
// uniformly from 0 to plies) from s, stopping before a move would end the
// game.
func randomOpening(s env.State, plies int, rng *rand.Rand) env.State {
	if plies <= 0 {
		return s
	}
	var legal []int
	child := s.Clone()
	for k := rng.IntN(plies + 1); k > 0; k-- {
		legal = s.LegalActions(legal[:0])
		if len(legal) == 0 {
			break
		}
		child.CopyFrom(s)
		child.Apply(legal[rng.IntN(len(legal))])
		if child.Outcome().Over {
			break
		}
		s.CopyFrom(child)
	}
	return s
}

// planSearch sets the budget of the tree's next search: the full one, or,
// with playout cap randomisation, sometimes a fast one.
func planSearch(t *mcts.Tree, sc SearchConfig, rng *rand.Rand) {
	if sc.FastProb > 0 && rng.Float64() < sc.FastProb {
		t.SetBudget(sc.FastSims, false)
		return
	}
	t.SetBudget(sc.Sims, true)
}

// move records the root position with the search's policy and value, and
// plays the chosen move. It reports whether the game is over.
func (s *slot) move(policy []float32, sc SearchConfig, rng *rand.Rand) bool {
	t := s.tree
	root := t.Root()
	if root.Outcome().Over {
		return true
	}
	t.Policy(policy)
	var sample Sample
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
	full := t.Config().Sims >= sc.Sims
	s.record = append(s.record, pending{sample: sample, mover: root.ToMove(), q: t.Value(), hasQ: searched, train: full})
	temp := 0.0
	if root.Ply() < sc.TemperaturePlies {
		temp = 1
	}
	a, err := t.Choose(temp)
	if err != nil {
		// Only a search that never ran has no move; take the first legal one.
		a = root.LegalActions(nil)[0]
	}
	planSearch(t, sc, rng)
	t.Advance(a)
	return t.Root().Outcome().Over
}

// finish labels the game's positions with their value targets and keeps
// those from full searches.
func (s *slot) finish(tc TargetConfig) finishedGame {
	root := s.tree.Root()
	o := root.Outcome()
	out := finishedGame{plies: len(s.record), winner: o.Winner}
	targets := valueTargets(s.record, o, env.EndedByCap(root), tc)
	for i, p := range s.record {
		if !p.train {
			continue
		}
		p.sample.Value = targets[i]
		out.samples = append(out.samples, p.sample)
	}
	return out
}

// valueTargets computes each recorded position's value target (see
// TargetConfig). Position i is len(record)-i plies from the end.
func valueTargets(record []pending, o env.Outcome, capped bool, tc TargetConfig) []float32 {
	gamma := tc.discount()
	n := len(record)
	out := make([]float32, n)
	var last pending
	bootstrap := capped && tc.Capped == CappedBootstrap && n > 0
	if bootstrap {
		last = record[n-1]
	}
	for i, p := range record {
		var z float64
		switch {
		case bootstrap:
			// The last position's search value, carried back.
			z = math.Pow(gamma, float64(n-1-i)) * float64(last.q)
			if p.mover != last.mover {
				z = -z
			}
		case o.Winner != env.NoSide:
			z = math.Pow(gamma, float64(n-1-i)) * float64(o.Value(p.mover))
		}
		if w := tc.SearchWeight; w > 0 && p.hasQ {
			z = (1-w)*z + w*float64(p.q)
		}
		out[i] = float32(z)
	}
	return out
}
