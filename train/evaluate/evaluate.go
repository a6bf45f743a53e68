// Package evaluate measures a network during training: matches against a
// ladder of fixed baselines with an Elo fitted on the ladder's own scale,
// gating against the best network so far, and accuracy against a
// yardstick from outside training (an Examiner, such as perfect play).
package evaluate

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"

	"github.com/sliderzero/sliderzero/env"
	"github.com/sliderzero/sliderzero/env/registry"
	"github.com/sliderzero/sliderzero/match"
	"github.com/sliderzero/sliderzero/mcts"
	"github.com/sliderzero/sliderzero/model"
	"github.com/sliderzero/sliderzero/player"
	"github.com/sliderzero/sliderzero/rating"
)

// Config sets the evaluation against a ladder of baselines during
// training. Its time is not counted as training time.
type Config struct {
	// Minutes between evaluations (0: never).
	Minutes float64 `json:"minutes" msgpack:"Minutes"`
	// Games against each baseline, colours alternating.
	Games int `json:"games" msgpack:"Games"`
	// Sims is the network's simulations per move when evaluated.
	Sims int `json:"sims" msgpack:"Sims"`
	// Ladder lists the baselines' player specs.
	Ladder []string `json:"ladder" msgpack:"Ladder"`
	// GateGames, when positive, turns gating on: at each evaluation the
	// trained network plays the best one so far for this many games, and
	// replaces it (as the network self-play uses) only with a score of at
	// least GateScore.
	GateGames int     `json:"gate_games" msgpack:"GateGames"`
	GateScore float64 `json:"gate_score" msgpack:"GateScore"`
	// AccuracyTable names what each evaluation also measures accuracy on
	// (the share of critical positions on which the network keeps the
	// exact value, at Sims simulations): on Slider a solver table file,
	// on games that solve their own positions (Connect Four) position set
	// files separated by ";" (sliderzero sets); "auto" for
	// checkpoints/tables/slider-NxN.table on Slider boards small enough
	// to solve, or a real-game and a random set of the game in
	// checkpoints/tables (each made on first use); "" for none. Training
	// itself never reads them: the command measures through an Examiner.
	AccuracyTable string `json:"accuracy_table" msgpack:"AccuracyTable"`
	// SnapshotOpponents, when positive, puts the run's latest snapshots
	// (at most this many, each at least one snapshot older than the
	// network under test) on the ladder as fixed opponents: a network
	// that beats every baseline is still measured against its own past.
	// Each snapshot plays the baselines once, when it joins, so the Elo
	// stays on the baselines' scale.
	SnapshotOpponents int `json:"snapshot_opponents,omitempty" msgpack:"SnapshotOpponents"`
	// AccuracyPositions limits each position set to its first N positions
	// (0: all).
	AccuracyPositions int `json:"accuracy_positions" msgpack:"AccuracyPositions"`
	// OpeningPlies, when positive, starts each pair of evaluation games
	// that many random moves past the game's start (match.Series
	// RandomPlies): the network plays without noise, and against a
	// deterministic baseline (alpha-beta at a node budget, a snapshot)
	// every pair of a game with one start would be the same two games.
	OpeningPlies int `json:"opening_plies,omitempty" msgpack:"OpeningPlies"`
}

// Check reports the first invalid setting, naming it; every baseline of
// the ladder must be a player of g now, not at the first evaluation
// minutes in.
func (c Config) Check(g env.Game) error {
	checks := []struct {
		ok   bool
		what string
	}{
		{c.Games <= 100_000 && c.Sims <= 1_000_000 && c.GateGames <= 100_000, "eval.games, eval.sims and eval.gate_games are too large"},
		{c.Minutes >= 0, "eval.minutes must not be negative"},
		{c.Minutes == 0 || (c.Games >= 1 && c.Sims >= 1), "eval needs games and sims"},
		{c.AccuracyPositions >= 0, "eval.accuracy_positions must not be negative"},
		{c.SnapshotOpponents >= 0 && c.SnapshotOpponents <= 20, "eval.snapshot_opponents must be 0 to 20"},
		{c.OpeningPlies >= 0 && c.OpeningPlies <= 1000, "eval.opening_plies must be 0 to 1000"},
		{c.GateGames >= 0 && (c.GateGames == 0 || (c.Minutes > 0 && c.GateScore > 0 && c.GateScore < 1)), "eval.gate_games needs eval.minutes and a gate_score in (0, 1)"},
	}
	for _, ch := range checks {
		if !ch.ok {
			return fmt.Errorf("config: %s", ch.what)
		}
	}
	if c.Minutes > 0 {
		builtin, _ := player.NewFactory()
		for _, spec := range c.Ladder {
			_, err := builtin.Read(spec, g, player.Options{})
			if errors.Is(err, player.ErrUnknownKind) {
				continue // maybe a kind the command adds: Referee.Prepare checks it
			}
			if err != nil {
				return fmt.Errorf("config: eval.ladder %q: %w", spec, err)
			}
		}
	}
	return nil
}

// LadderResult is A's result against B, two baselines of the ladder.
type LadderResult struct {
	A      string        `msgpack:"A"`
	B      string        `msgpack:"B"`
	Result rating.Result `msgpack:"Result"`
}

// Progress shows the phases of the work to a person: a phase counts total
// units (games, steps).
type Progress interface {
	Phase(name, unit string, total int)
	Add(n int, note string)
	Done()
}

// Referee plays a run's networks in evaluation games: against the
// ladder's baselines, against the best network when gating, and through
// the Examiner against perfect play.
type Referee struct {
	Game   registry.Spec
	Config Config
	// Search is the run's search: the network under test plays with it, at
	// Config.Sims simulations and without self-play's root noise.
	Search mcts.Params
	// Seed and Workers: each series' seed derives from Seed and the round;
	// Workers games are played at once.
	Seed    uint64
	Workers int
	// Progress hears of each phase and finished game; nil for none.
	Progress Progress
	// Examiner, when set, measures the network at every evaluation.
	Examiner Examiner
	// Opponents are earlier networks of the run on the ladder beside the
	// baselines (Config.SnapshotOpponents).
	Opponents []Opponent
	// Players builds the ladder's baselines, with the kinds the command
	// adds (the perfect player); nil for the built-in kinds.
	Players *player.Factory
	// baselines are the ladder's specs, read once (Prepare).
	baselines map[string]*player.Setup
}

// Prepare reads the ladder's baselines, so that a spec no player of g
// answers to is refused when the run starts, not at its first evaluation.
func (e *Referee) Prepare(g env.Game) error {
	if e.Players == nil {
		f, err := player.NewFactory()
		if err != nil {
			return err
		}
		e.Players = f
	}
	e.baselines = map[string]*player.Setup{}
	for _, spec := range e.Config.Ladder {
		s, err := e.Players.Read(spec, g, player.Options{})
		if err != nil {
			return fmt.Errorf("config: eval.ladder %q: %w", spec, err)
		}
		e.baselines[spec] = s
	}
	return nil
}

// Opponent is an earlier network that plays on the ladder.
type Opponent struct {
	Name    string // unique among the ladder's names, such as snapshot-0066297
	Weights *model.Weights
}

// currentSpec names the network being trained in evaluation games.
const currentSpec = "current"

// PlayerSearch is the search the network plays with when evaluated.
func (e *Referee) PlayerSearch() mcts.Params {
	p := e.Search
	p.Sims, p.Time, p.NoiseFrac, p.NoiseAlpha = e.Config.Sims, 0, 0, 0
	return p
}

// NetPlayer is the player the network w is in evaluation games and
// accuracy measurements, with its own random stream (stream 0 for the
// ladder and accuracy, 1 for gating, as before the two were one code).
func (e *Referee) NetPlayer(name string, w *model.Weights, g env.Game, seed, stream uint64) (*player.Net, error) {
	return player.NewNet(name, w, g, e.PlayerSearch(), rand.New(rand.NewPCG(seed, stream)))
}

func (e *Referee) onGame(int, match.Record) {
	if e.Progress != nil {
		e.Progress.Add(1, "")
	}
}

func (e *Referee) phase(name string, total int) {
	if e.Progress != nil {
		e.Progress.Phase(name, "games", total)
	}
}

func (e *Referee) phaseDone() {
	if e.Progress != nil {
		e.Progress.Done()
	}
}

// Report is one evaluation of a network.
type Report struct {
	Standing Standing
	// Calibration is the ladder's results against each other: given, or
	// played now when none was given.
	Calibration []LadderResult
	// Accuracy is the Examiner's measurement, if there is an Examiner.
	Accuracy []Accuracy
	// GateScore is the network's score against the best one, with gating.
	GateScore *float64
}

// Evaluate places w on the ladder of round (calibrating the ladder first
// when calibration is nil and the ladder has two baselines or more),
// measures it with the Examiner, and with gating plays it against best.
func (e *Referee) Evaluate(ctx context.Context, w, best *model.Weights, g env.Game, round int, calibration []LadderResult) (Report, error) {
	rep := Report{Calibration: calibration}
	if calibration == nil && len(e.Config.Ladder) >= 2 {
		e.phase("calibrating the ladder", e.CalibrationGames())
		cal, err := e.Calibrate(ctx)
		e.phaseDone()
		if err != nil {
			return rep, err
		}
		rep.Calibration = cal
	}
	if err := e.calibrateOpponents(ctx, &rep.Calibration); err != nil {
		return rep, err
	}
	e.phase(fmt.Sprintf("round %d evaluation", round), e.LadderGames())
	standing, err := e.Ladder(ctx, w, round, rep.Calibration)
	e.phaseDone()
	if err != nil {
		return rep, err
	}
	rep.Standing = standing
	if e.Examiner != nil {
		acc, err := e.Examiner.Examine(ctx, func(seed uint64) (player.Player, error) {
			return e.NetPlayer(currentSpec, w, g, seed, 0)
		})
		if err != nil {
			return rep, fmt.Errorf("measuring accuracy: %w", err)
		}
		rep.Accuracy = acc
	}
	if e.Config.GateGames > 0 && best != nil {
		score, err := e.Gate(ctx, w, best, round)
		if err != nil {
			return rep, err
		}
		rep.GateScore = &score
	}
	return rep, nil
}

// CalibrationGames is how many games Calibrate plays.
func (e *Referee) CalibrationGames() int {
	n := len(e.Config.Ladder)
	return n * (n - 1) / 2 * e.Config.Games
}

// Calibrate plays every pair of the ladder's baselines, so that the
// network's Elo is fitted on a scale the baselines fix rather than one
// that floats with it. A run plays it once and keeps the results.
func (e *Referee) Calibrate(ctx context.Context) ([]LadderResult, error) {
	ladder := e.Config.Ladder
	var results []LadderResult
	for i, a := range ladder {
		for j := i + 1; j < len(ladder); j++ {
			b := ladder[j]
			s := match.Series{Spec: e.Game, A: e.entrant(a, nil), B: e.entrant(b, nil), Games: e.Config.Games, Seed: e.Seed ^ uint64(i*64+j),
				Parallel: e.Workers, OnGame: e.onGame, RandomPlies: e.Config.OpeningPlies}
			res, err := s.Run(ctx)
			if err != nil {
				return nil, fmt.Errorf("calibrating the ladder, %s against %s: %w", a, b, err)
			}
			results = append(results, LadderResult{A: a, B: b, Result: res.Total()})
		}
	}
	return results, nil
}

// calibrateOpponents plays each opponent that has no results yet against
// every baseline, adding the results to calibration.
func (e *Referee) calibrateOpponents(ctx context.Context, calibration *[]LadderResult) error {
	known := map[string]bool{}
	for _, lr := range *calibration {
		known[lr.A] = true
	}
	for k, op := range e.Opponents {
		if known[op.Name] {
			continue
		}
		e.phase("placing "+op.Name+" on the ladder", len(e.Config.Ladder)*e.Config.Games)
		for i, base := range e.Config.Ladder {
			s := match.Series{Spec: e.Game, A: e.entrant(op.Name, nil), B: e.entrant(base, nil), Games: e.Config.Games,
				Seed: e.Seed ^ 0x5a<<40 ^ uint64(k)<<20 ^ uint64(i), Parallel: e.Workers, OnGame: e.onGame, RandomPlies: e.Config.OpeningPlies}
			res, err := s.Run(ctx)
			if err != nil {
				e.phaseDone()
				return fmt.Errorf("placing %s on the ladder, against %s: %w", op.Name, base, err)
			}
			*calibration = append(*calibration, LadderResult{A: op.Name, B: base, Result: res.Total()})
		}
		e.phaseDone()
	}
	return nil
}

// entrant is a player of the ladder: the network w under test (when name
// is currentSpec and w is not nil), an opponent, or a baseline.
func (e *Referee) entrant(name string, w *model.Weights) match.Entrant {
	if name == currentSpec && w != nil {
		return e.netEntrant(name, w, 0)
	}
	for _, op := range e.Opponents {
		if op.Name == name {
			return e.netEntrant(name, op.Weights, 0)
		}
	}
	return match.EntrantFunc(func(g env.Game, seed uint64) (player.Player, error) {
		s, ok := e.baselines[name]
		if !ok {
			return nil, fmt.Errorf("%s is not on the ladder (or the evaluator was not prepared)", name)
		}
		return s.New(g, seed)
	})
}

// netEntrant plays the network w under name, on its random stream.
func (e *Referee) netEntrant(name string, w *model.Weights, stream uint64) match.Entrant {
	return match.EntrantFunc(func(g env.Game, seed uint64) (player.Player, error) {
		return e.NetPlayer(name, w, g, seed, stream)
	})
}

// LadderGames is how many games Ladder plays.
func (e *Referee) LadderGames() int {
	return (len(e.Config.Ladder) + len(e.Opponents)) * e.Config.Games
}

// Gate plays cur against best for Config.GateGames games and returns
// cur's score.
func (e *Referee) Gate(ctx context.Context, cur, best *model.Weights, round int) (float64, error) {
	s := match.Series{Spec: e.Game, A: e.netEntrant(currentSpec, cur, 1), B: e.netEntrant("best", best, 1), Games: e.Config.GateGames,
		Seed: e.Seed ^ uint64(round)<<24, Parallel: e.Workers, RandomPlies: e.Config.OpeningPlies}
	res, err := s.Run(ctx)
	if err != nil {
		return 0, fmt.Errorf("gating match: %w", err)
	}
	return res.Total().Score(), nil
}

// Examiner measures a player against a yardstick from outside training,
// such as perfect play from a solver table. The command supplies it, so
// that nothing training learns from can depend on the yardstick.
type Examiner interface {
	// Examine measures the players newPlayer builds, one per position with
	// the position's own seed.
	Examine(ctx context.Context, newPlayer func(seed uint64) (player.Player, error)) ([]Accuracy, error)
}

// Accuracy is the share of one set's critical positions on which a player
// kept the exact value, in all and split by the value (won or drawn for
// the side to move).
type Accuracy struct {
	Set        string  `json:"set"`
	Kept       int     `json:"kept"`
	Total      int     `json:"total"`
	Lo         float64 `json:"lo"` // 95% interval of the share
	Hi         float64 `json:"hi"`
	WonKept    int     `json:"won_kept"`
	WonTotal   int     `json:"won_total"`
	DrawnKept  int     `json:"drawn_kept"`
	DrawnTotal int     `json:"drawn_total"`
	// SingleKept of SingleTotal positions had only one move that keeps
	// the value.
	SingleKept  int `json:"single_kept,omitempty"`
	SingleTotal int `json:"single_total,omitempty"`
	// Converted of Played won positions were played out to a win against
	// a perfect defender (a tie by the cap is a failure).
	Converted int `json:"converted,omitempty"`
	Played    int `json:"played,omitempty"`
}

// Share is the share of positions kept.
func (a Accuracy) Share() float64 {
	if a.Total == 0 {
		return 0
	}
	return float64(a.Kept) / float64(a.Total)
}
