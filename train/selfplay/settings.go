// Package selfplay is the self-play producer: it plays games with the
// network-guided search, many at once with their leaves evaluated in one
// batch, labels their positions with value targets, and writes each round
// as a shard where the learner takes it. The same producer runs as
// goroutines beside the learner (sliderzero train) and as processes on
// other machines (sliderzero selfplay); storage.go is where they meet.
package selfplay

import (
	"fmt"

	"github.com/sliderzero/sliderzero/env/registry"
	"github.com/sliderzero/sliderzero/mcts"
)

// Settings are how self-play searches and plays: the search's settings
// (the "search" object of a training configuration holds both, flat) and
// what only self-play does with them.
type Settings struct {
	mcts.Params
	// TemperaturePlies is the number of opening plies whose move is drawn
	// in proportion to the visits (or by the Gumbel sample); later moves
	// are the search's best.
	TemperaturePlies int `json:"temperature_plies" msgpack:"TemperaturePlies"`
	// FastProb turns on playout cap randomisation (KataGo) when positive:
	// each move is, with this chance, a fast search of FastSims
	// simulations without root noise, which plays the game on but is not
	// trained on; the other moves get the full Sims and become samples.
	// More games per minute, so more outcomes to learn values from.
	FastProb float64 `json:"fast_prob" msgpack:"FastProb"`
	FastSims int     `json:"fast_sims" msgpack:"FastSims"`
	// RandomPlies, when positive, starts each game with a number of
	// uniformly random moves drawn from 0 to RandomPlies (not trained on),
	// so that self-play sees positions its own habits would never reach.
	// AutoRandomPlies (-1) is chosen from the game when a run is created
	// (package auto).
	RandomPlies int `json:"random_plies" msgpack:"RandomPlies"`
	// ExploreShare, when positive, starts that share of a round's games
	// from positions of the producer's previous round where the search's
	// value and the game's result disagreed most (Go-Exploit's idea):
	// self-play then sees more of the hard middle positions it would
	// otherwise pass through once a game.
	ExploreShare float64 `json:"explore_share,omitempty" msgpack:"ExploreShare"`
	// RandomStarts, when positive, starts that share of the games from a
	// position the game draws at random from those its rules allow
	// (env.RandomStarter), instead of from the start and its random
	// opening plies: the critical positions a player must judge lie all
	// over the game, most of them far from self-play's own lines.
	// AutoRandomStarts (-1) is chosen from the game when a run is
	// created (package auto).
	RandomStarts float64 `json:"random_starts,omitempty" msgpack:"RandomStarts"`
}

// Check reports the first setting out of its range, named as in JSON;
// the settings chosen from the game (-1) pass.
func (s Settings) Check() error {
	p := s.Params
	if p.Sims == AutoSims {
		p.Sims = 1
	}
	if err := p.Check(); err != nil {
		return err
	}
	checks := []struct {
		ok   bool
		what string
	}{
		{s.Sims >= 1 && s.Sims <= 1_000_000 || s.Sims == AutoSims, "sims must be from 1 to 1,000,000, or -1 to choose from the game"},
		{s.CPUCT > 0, "c_puct must be positive"},
		{s.TemperaturePlies >= 0, "temperature_plies must not be negative"},
		{s.FastProb >= 0 && s.FastProb < 1, "fast_prob must be in [0, 1)"},
		{s.FastProb == 0 || (s.FastSims >= 1 && (s.FastSims <= s.Sims || s.Sims == AutoSims)), "fast_sims must be between 1 and search.sims"},
		{s.RandomPlies >= AutoRandomPlies && s.RandomPlies <= 1000, "random_plies must be from 0 to 1000, or -1 to choose from the game"},
		{s.ExploreShare >= 0 && s.ExploreShare < 1, "explore_share must be in [0, 1)"},
		{(s.RandomStarts >= 0 && s.RandomStarts <= 1) || s.RandomStarts == AutoRandomStarts, "random_starts must be from 0 to 1, or -1 to choose from the game"},
	}
	for _, c := range checks {
		if !c.ok {
			return fmt.Errorf("search: %s", c.what)
		}
	}
	return nil
}

// AutoRandomPlies as Settings.RandomPlies, AutoRandomStarts as
// Settings.RandomStarts and AutoSims as Settings.Sims are chosen from
// what a run measures of the game when it starts (package auto).
const (
	AutoRandomPlies  = -1
	AutoRandomStarts = -1
	AutoSims         = -1
)

// Targets sets the value targets. A finished game gives each of its
// positions the outcome for the side to move, z = +1, 0 or -1, and then:
type Targets struct {
	// Discount, in (0, 1), makes a win d plies away worth Discount^(d-1)
	// and a loss -Discount^(d-1), so that the network prefers faster wins
	// and slower losses and converts won positions instead of shuffling;
	// 0 or 1: no discount.
	Discount float64 `json:"discount" msgpack:"Discount"`
	// Capped says what a game ended by the ply cap teaches: "tie" (0, the
	// referee's verdict), "bootstrap" (the search's value of the last
	// position, discounted back to each earlier one: the cap is not the
	// game's end, so its verdict is not the position's value) or "net"
	// (the same with the network's own value of the last position: the
	// search there sees the cap a ply away and calls nearly everything a
	// tie, while the network, which never sees the ply count, values the
	// position as the uncapped game would).
	Capped string `json:"capped" msgpack:"Capped"`
	// SearchWeight mixes the search's value of each position into its
	// target: (1-w)*z + w*q.
	SearchWeight float64 `json:"search_weight" msgpack:"SearchWeight"`
	// BootstrapPlies, when positive, teaches a position the search's
	// value of the position that many plies later in its game, discounted
	// by those plies (an n-step return), instead of the game's result,
	// where the game went on that long: a long win that self-play later
	// fails to convert then teaches what the search saw on the way, not
	// the tie it ended in. Positions nearer the end keep the result.
	BootstrapPlies int `json:"bootstrap_plies,omitempty" msgpack:"BootstrapPlies,omitempty"`
}

// Capped-game targets.
const (
	CappedTie       = "tie"
	CappedBootstrap = "bootstrap"
	CappedNet       = "net"
)

// Check reports the first setting out of its range.
func (t Targets) Check() error {
	switch {
	case t.Discount < 0 || t.Discount > 1:
		return fmt.Errorf("targets.discount must be in [0, 1]")
	case t.Capped != "" && t.Capped != CappedTie && t.Capped != CappedBootstrap && t.Capped != CappedNet:
		return fmt.Errorf("targets.capped must be tie, bootstrap or net")
	case t.SearchWeight < 0 || t.SearchWeight > 1:
		return fmt.Errorf("targets.search_weight must be in [0, 1]")
	case t.BootstrapPlies < 0 || t.BootstrapPlies > 10000:
		return fmt.Errorf("targets.bootstrap_plies must be from 0 to 10000")
	}
	return nil
}

// discount is the per-ply discount factor, 1 for none.
func (t Targets) discount() float64 {
	if t.Discount <= 0 || t.Discount >= 1 {
		return 1
	}
	return t.Discount
}

// Job is what a producer plays: the game, how, and how many games a round
// and at once.
type Job struct {
	Game    registry.Spec
	Search  Settings
	Targets Targets
	// GamesInFlight is how many games each worker plays at once; their
	// leaves are evaluated together in one batch.
	GamesInFlight int
	// GamesPerRound is the number of games in a shard.
	GamesPerRound int
	// Starts are the positions games may start from with
	// Search.ExploreShare: the producer's own previous round's (Explore).
	Starts []string `json:"-"`
}
