package mcts

import (
	"fmt"
	"time"
)

// Params are the network search's settings: the one struct that training's
// configuration (its "search" object), player files, player specs, the
// engine and the web app all read. A zero field means its default (see
// DefaultParams), so that files written before a field existed keep
// searching as they did.
type Params struct {
	// Sims is the number of simulations per move; Time, when set, stops
	// the search earlier. At least one of them must be set. Training
	// searches by simulations only, so Time is not part of a training
	// configuration.
	Sims int           `json:"sims" msgpack:"Sims"`
	Time time.Duration `json:"-" msgpack:"Time"`
	// CPUCT weighs the prior against the value in PUCT.
	CPUCT float64 `json:"c_puct" msgpack:"CPUCT"`
	// FPUReduction is how much worse than its parent an unvisited child is
	// assumed to be (first-play urgency, as Leela Zero and KataGo): with a
	// reduction the search deepens the moves it likes before it tries
	// every move once.
	FPUReduction float64 `json:"fpu_reduction,omitempty" msgpack:"FPUReduction"`
	// Dirichlet noise at the root (self-play only): a fraction NoiseFrac of
	// the prior is replaced by Dirichlet(NoiseAlpha) noise, so that
	// self-play tries moves the network does not yet like.
	NoiseAlpha float64 `json:"noise_alpha" msgpack:"NoiseAlpha"`
	NoiseFrac  float64 `json:"noise_frac" msgpack:"NoiseFrac"`
	// Gumbel switches to Gumbel root search with sequential halving over
	// GumbelM sampled actions, and the deterministic Gumbel selection below
	// the root (Danihelka et al., ICLR 2022).
	Gumbel  bool `json:"gumbel" msgpack:"Gumbel"`
	GumbelM int  `json:"gumbel_m" msgpack:"GumbelM"`
	// GumbelVisitInit and GumbelValueScale are the paper's sigma, which
	// turns a completed Q in [0, 1] into a logit bonus:
	// (GumbelVisitInit + most visits) * GumbelValueScale * q. mctx's
	// constants (50 and 0.1): the bonus grows as the evidence does.
	GumbelVisitInit  float64 `json:"gumbel_visit_init,omitempty" msgpack:"GumbelVisitInit"`
	GumbelValueScale float64 `json:"gumbel_value_scale,omitempty" msgpack:"GumbelValueScale"`
	// GumbelTimedVisits is the visits per candidate the halving plans for
	// when only a time budget is given: the halving needs a number to
	// divide into phases, and the search may end before or after it.
	GumbelTimedVisits int `json:"gumbel_timed_visits,omitempty" msgpack:"GumbelTimedVisits"`
	// MaxNodes bounds the tree's size, and so its memory: a search that
	// reaches it stops with its best move so far.
	MaxNodes int `json:"max_nodes,omitempty" msgpack:"MaxNodes"`
	// NoProofs turns the MCTS-Solver off (proof.go): terminals are then
	// values only, as in plain AlphaZero. For measuring what proofs bring.
	NoProofs bool `json:"no_proofs,omitempty" msgpack:"NoProofs"`
	// NoWinCheck turns off the look one ply ahead at each new leaf (and
	// the root) for a move that wins at once: with it, such a leaf is
	// proven without a network call, so that a move allowing the
	// opponent an immediate win is seen as lost on its first visit,
	// whatever the network's prior of the winning reply. For measuring.
	NoWinCheck bool `json:"no_win_check,omitempty" msgpack:"NoWinCheck"`
	// The plies-to-end estimates of a network with the plies head steer
	// PUCT once a result looks decided (Leela Chess Zero's moves-left
	// utility): when the chooser's value is beyond MovesLeftThreshold in
	// size, a child whose line ends sooner than its parent's estimate
	// gains MovesLeftSlope a ply of value if the chooser is winning (and
	// loses it if losing), at most MovesLeftEffect, scaled from nothing at
	// the threshold to all of it at a certain result. NoMovesLeft turns it
	// off; networks without the head never use it.
	MovesLeftEffect    float64 `json:"moves_left_effect,omitempty" msgpack:"MovesLeftEffect"`
	MovesLeftSlope     float64 `json:"moves_left_slope,omitempty" msgpack:"MovesLeftSlope"`
	MovesLeftThreshold float64 `json:"moves_left_threshold,omitempty" msgpack:"MovesLeftThreshold"`
	NoMovesLeft        bool    `json:"no_moves_left,omitempty" msgpack:"NoMovesLeft"`
	// Threads is how many threads search one tree (Drive); 0 means 1.
	// It is the machine's business, not the player's, so files do not
	// keep it.
	Threads int `json:"-" msgpack:"-"`
}

// MaxSims is the largest simulation budget: a search "until stopped"
// asks for it, and the node cap ends it first.
const MaxSims = 10_000_000

// DefaultMaxNodes is the node limit when none is given: a few seconds of
// one thread's search with a small network (Cats & Dogs' shipped player
// fills it in about 3 s; four times more did not play better at 5 s a
// move, experiments/cdfull). A node is 56 bytes, so a tree's arena holds
// at most about 235 MB of nodes, and a tree reused between moves keeps a
// second one. The process holds more while the arena grows (its earlier
// copies wait for the garbage collector): an analysis that fills the
// default tree peaked at 597 MB resident, the web app (500,000 nodes a
// tree) at 94 MB with one analysis (docs/reliability.md).
const DefaultMaxNodes = 1 << 22

// DefaultParams returns the settings used when a spec gives none.
func DefaultParams() Params {
	return Params{Sims: 100, CPUCT: 1.5, FPUReduction: 0.2, GumbelM: 16,
		GumbelVisitInit: 50, GumbelValueScale: 0.1, GumbelTimedVisits: 32, MaxNodes: DefaultMaxNodes,
		MovesLeftEffect: 0.05, MovesLeftSlope: 0.004, MovesLeftThreshold: 0.5}
}

// WithDefaults returns p with every zero field that has a default set to
// it (the budget excepted).
func (p Params) WithDefaults() Params {
	d := DefaultParams()
	if p.CPUCT <= 0 {
		p.CPUCT = d.CPUCT
	}
	if p.FPUReduction == 0 {
		p.FPUReduction = d.FPUReduction
	}
	if p.GumbelM <= 0 {
		p.GumbelM = d.GumbelM
	}
	if p.GumbelVisitInit == 0 {
		p.GumbelVisitInit = d.GumbelVisitInit
	}
	if p.GumbelValueScale == 0 {
		p.GumbelValueScale = d.GumbelValueScale
	}
	if p.GumbelTimedVisits <= 0 {
		p.GumbelTimedVisits = d.GumbelTimedVisits
	}
	if p.MaxNodes <= 0 {
		p.MaxNodes = d.MaxNodes
	}
	if p.MovesLeftEffect == 0 {
		p.MovesLeftEffect = d.MovesLeftEffect
	}
	if p.MovesLeftSlope == 0 {
		p.MovesLeftSlope = d.MovesLeftSlope
	}
	if p.MovesLeftThreshold == 0 {
		p.MovesLeftThreshold = d.MovesLeftThreshold
	}
	return p
}

// Check reports the first setting out of its range, by its name in the
// settings' table, then the settings that do not go together.
func (p Params) Check() error {
	if err := p.checkRanges(); err != nil {
		return err
	}
	checks := []struct {
		ok   bool
		what string
	}{
		{p.Sims > 0 || p.Time > 0, "a search needs a budget: sims or time"},
		{p.NoiseFrac == 0 || p.NoiseAlpha > 0, "noise_alpha must be positive"},
		{!p.Gumbel || p.GumbelM == 0 || p.GumbelM >= 2, "gumbel_m must be at least 2"},
		{p.Threads <= 1 || !p.Gumbel, "threads above 1 need PUCT: Gumbel's sequential halving plans its visits one at a time (use gumbel=false or threads=1)"},
	}
	for _, c := range checks {
		if !c.ok {
			return fmt.Errorf("search: %s", c.what)
		}
	}
	return nil
}

// newPolicy is the policy the settings choose.
func (p Params) newPolicy() policy {
	if p.Gumbel {
		return &gumbel{}
	}
	return puct{}
}
