// Package auto chooses the settings of a training run that depend on the
// game, from what it measures of the game when the run starts: a new
// game learns with no setting tuned for it by hand. docs/auto.md says
// what is measured, what is set and why; each choice carries its reason,
// which the run's log and config.json keep.
//
// The measurements are of the rules alone (uniformly random games, and
// alpha-beta's node counts where the game has an evaluation function), so
// they are the same on every machine for one seed: the same configuration
// gives the same run.
package auto

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"

	"github.com/sliderzero/sliderzero/env"
	"github.com/sliderzero/sliderzero/player"
)

// Stats are what a run measures of its game before it starts.
type Stats struct {
	// Games is the number of uniformly random games played from the
	// game's start.
	Games int `json:"games" msgpack:"Games"`
	// Length is the random games' plies: mean, spread and the shortest
	// tenth's longest (P10) and the median.
	Length Lengths `json:"length" msgpack:"Length"`
	// Branching is the mean number of legal moves of the positions those
	// games met.
	Branching float64 `json:"branching" msgpack:"Branching"`
	// Capped is the share of the games the ply cap ended, and Draws the
	// share that ended in a tie (capped ones included).
	Capped float64 `json:"capped" msgpack:"Capped"`
	Draws  float64 `json:"draws" msgpack:"Draws"`
	// Starts is the number of distinct start positions the games began
	// from (1 for a game with a fixed start).
	Starts int `json:"starts" msgpack:"Starts"`
	// RandomStarter: the game draws positions from all its rules allow;
	// Evaluator: it has an evaluation function, for the classical
	// baselines.
	RandomStarter bool `json:"random_starter" msgpack:"RandomStarter"`
	Evaluator     bool `json:"evaluator" msgpack:"Evaluator"`
	// AlphaBetaNodes is alpha-beta's mean node count a move at each depth
	// measured, on positions of the random games.
	AlphaBetaNodes map[int]int `json:"alphabeta_nodes,omitempty" msgpack:"AlphaBetaNodes"`
}

// Lengths are the plies of random games: their mean and spread, the
// longest of the shortest tenth (P10) and the median.
type Lengths struct {
	Mean float64 `json:"mean" msgpack:"Mean"`
	SD   float64 `json:"sd" msgpack:"SD"`
	P10  int     `json:"p10" msgpack:"P10"`
	P50  int     `json:"p50" msgpack:"P50"`
}

// probeGames is how many random games Measure plays: enough for the
// shortest tenth's length to move by about a ply between seeds.
const probeGames = 2000

// ladderDepths are the alpha-beta depths a ladder may hold, and
// ladderNodes the most nodes a move one of them may take on average: at
// that, an evaluation's games against it take seconds.
var ladderDepths = []int{2, 4, 8, 10}

const ladderNodes = 25_000

// Measure plays probeGames uniformly random games of g from its start
// (seeded by seed) and, when g has an evaluation function, times
// alpha-beta in nodes at each ladder depth on positions of those games.
func Measure(ctx context.Context, g env.Game, seed uint64) (Stats, error) {
	rng := rand.New(rand.NewPCG(seed, 0xa070))
	var st Stats
	st.Games = probeGames
	lengths := make([]int, 0, probeGames)
	starts := map[string]bool{}
	var moves, positions, capped, draws int
	var buf []int
	var samples []env.State
	for i := 0; i < probeGames; i++ {
		if err := ctx.Err(); err != nil {
			return st, err
		}
		s := g.Start(rng)
		starts[s.String()] = true
		sampleAt := rng.IntN(40)
		for !s.Outcome().Over {
			buf = s.LegalActions(buf[:0])
			moves += len(buf)
			positions++
			if i < 16 && s.Ply() == sampleAt {
				samples = append(samples, s.Clone())
			}
			s.Apply(buf[rng.IntN(len(buf))])
		}
		lengths = append(lengths, s.Ply())
		if s.Outcome().Winner == env.NoSide {
			draws++
			if env.EndedByCap(s) {
				capped++
			}
		}
	}
	slices.Sort(lengths)
	var sum, sq float64
	for _, l := range lengths {
		sum += float64(l)
	}
	st.Length.Mean = sum / float64(len(lengths))
	for _, l := range lengths {
		sq += (float64(l) - st.Length.Mean) * (float64(l) - st.Length.Mean)
	}
	st.Length.SD = math.Sqrt(sq / float64(len(lengths)))
	st.Length.P10, st.Length.P50 = lengths[len(lengths)/10], lengths[len(lengths)/2]
	st.Branching = float64(moves) / float64(max(positions, 1))
	st.Capped, st.Draws = float64(capped)/probeGames, float64(draws)/probeGames
	st.Starts = len(starts)
	_, st.RandomStarter = g.(env.RandomStarter)
	ev, ok := g.(env.Evaluator)
	st.Evaluator = ok
	if ok && len(samples) > 0 {
		st.AlphaBetaNodes = alphaBetaNodes(ctx, g, ev, samples, seed)
	}
	return st, ctx.Err()
}

// alphaBetaNodes is alpha-beta's mean node count a move at each ladder
// depth on the samples, up to the first depth over the budget (deeper
// ones cost more still).
func alphaBetaNodes(ctx context.Context, g env.Game, ev env.Evaluator, samples []env.State, seed uint64) map[int]int {
	out := map[int]int{}
	for _, d := range ladderDepths {
		total := 0
		for i, s := range samples {
			// Past four times the budget a depth is out whatever the
			// rest: the node cap keeps the probe to a fraction of a second.
			ab := player.NewAlphaBeta("alphabeta", g, ev, player.AlphaBetaConfig{Depth: d, Nodes: 4 * ladderNodes}, rand.New(rand.NewPCG(seed, uint64(i))))
			if _, err := ab.Move(ctx, s); err != nil {
				return out
			}
			total += ab.LastNodes
		}
		out[d] = total / len(samples)
		if out[d] > ladderNodes {
			break
		}
	}
	return out
}

// Choice is what Choose sets, with a reason for each setting, naming the
// measurement it rests on.
type Choice struct {
	RandomPlies  int      `json:"random_plies" msgpack:"RandomPlies"`
	RandomStarts float64  `json:"random_starts" msgpack:"RandomStarts"`
	Sims         int      `json:"sims" msgpack:"Sims"`
	Ladder       []string `json:"ladder" msgpack:"Ladder"`
	Reasons      []string `json:"reasons" msgpack:"Reasons"`
}

// The rules' constants, and where they were measured (docs/auto.md).
const (
	// minSims is the fewest self-play simulations a move: the built-in
	// configuration's, measured on Slider and Connect Four.
	minSims = 64
	// simsPerMove is the simulations a move gives each legal move of an
	// average position: 12 puts Cats & Dogs (17 moves a position) at the
	// 192-200 experiments/cdsims measured best, and leaves the games of
	// few moves at minSims.
	simsPerMove = 12
	// randomStartShare is the share of games from random positions on a
	// game that draws them (experiments/strength2 on Slider).
	randomStartShare = 0.5
)

// Choose sets the run's game-dependent settings from st.
func Choose(st Stats) Choice {
	var c Choice
	// Random opening plies: as many as leave nine random games in ten
	// unfinished (random moves that would end the game are not made). On
	// Slider 5x5 that is 70 (80 measured best), on Connect Four 12 (10).
	c.RandomPlies = st.Length.P10
	c.Reasons = append(c.Reasons, fmt.Sprintf("search.random_plies %d: random openings of 0 to %d plies, as many as leave nine in ten random games unfinished (of %d random games, the shortest tenth ended by ply %d; mean %.1f)",
		c.RandomPlies, c.RandomPlies, st.Games, st.Length.P10, st.Length.Mean))
	if st.RandomStarter {
		c.RandomStarts = randomStartShare
		c.Reasons = append(c.Reasons, fmt.Sprintf("search.random_starts %.1f: the game draws positions from all its rules allow, and the positions a player must judge lie all over the game", c.RandomStarts))
	} else {
		c.Reasons = append(c.Reasons, "search.random_starts 0: the game draws no random positions (env.RandomStarter)")
	}
	c.Sims = max(minSims, int(simsPerMove*st.Branching)/32*32)
	c.Reasons = append(c.Reasons, fmt.Sprintf("search.sims %d: about %d simulations for each legal move of an average position (%.1f moves in random games), at least %d, in steps of 32",
		c.Sims, simsPerMove, st.Branching, minSims))
	c.Ladder, c.Reasons = ladder(st, c.Reasons)
	return c
}

// ladder is the evaluation's baselines: random; with the game's
// evaluation function greedy and alpha-beta at the deepest three ladder
// depths within the node budget (plain MCTS where fewer fit); without
// one, plain MCTS at two budgets.
func ladder(st Stats, reasons []string) ([]string, []string) {
	if !st.Evaluator {
		l := []string{"random", "mcts:sims=200", "mcts:sims=1000"}
		return l, append(reasons, "eval.ladder random, mcts:sims=200, mcts:sims=1000: the game has no evaluation function (env.Evaluator), which greedy and alphabeta need")
	}
	var depths []int
	for _, d := range ladderDepths {
		if n, ok := st.AlphaBetaNodes[d]; ok && n <= ladderNodes {
			depths = append(depths, d)
		}
	}
	if len(depths) > 3 {
		depths = depths[len(depths)-3:]
	}
	l := []string{"random", "greedy"}
	if len(depths) < 3 {
		l = append(l, "mcts:sims=200")
	}
	for _, d := range depths {
		l = append(l, fmt.Sprintf("alphabeta:depth=%d", d))
	}
	return l, append(reasons, fmt.Sprintf("eval.ladder %v: alpha-beta at the deepest of depths %v that search at most %d nodes a move on average (measured: %v)",
		l, ladderDepths, ladderNodes, st.AlphaBetaNodes))
}

// Report is what a run measured of its game and what it chose from it,
// kept in its configuration (config.json's "auto").
type Report struct {
	Stats Stats `json:"measured" msgpack:"Stats"`
	// Chosen are the settings set from Stats, each with its reason;
	// Kept, the game-dependent settings the configuration gave, which
	// the run keeps.
	Chosen []string `json:"chosen" msgpack:"Chosen"`
	Kept   []string `json:"kept,omitempty" msgpack:"Kept"`
}
