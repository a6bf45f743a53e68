// The ladder: the network's games against each baseline, its results by
// seat, and the Elo fitted from them with the calibration's.

package evaluate

import (
	"context"
	"fmt"
	"math"
	"slices"
	"strings"

	"github.com/sliderzero/sliderzero/env"
	"github.com/sliderzero/sliderzero/env/games"
	"github.com/sliderzero/sliderzero/match"
	"github.com/sliderzero/sliderzero/model"
	"github.com/sliderzero/sliderzero/rating"
)

// Standing is the network's place on the ladder: its score against each
// baseline and its Elo with a 95% interval (NaN when it cannot be fitted).
type Standing struct {
	Scores       map[string]float64
	Elo, Lo, Hi  float64
	EloAvailable bool
	// Seats splits each baseline's games by the network's side: where one
	// side wins under good play (Cats & Dogs), every score is 50% and
	// what tells players apart is how fast a side wins and how long it
	// holds out.
	Seats map[string][]Seat
}

// Seat is the network's games as one side against one baseline.
type Seat struct {
	Side      string  `json:"side"`
	Wins      int     `json:"wins"`
	Losses    int     `json:"losses"`
	WinPlies  float64 `json:"win_plies,omitempty"`  // mean plies of its wins
	LossPlies float64 `json:"loss_plies,omitempty"` // mean plies of its losses
}

// SeatsLine writes a baseline's seats on one line: "as C 0-10, lost in
// 50.9; as D 10-0, won in 84.5 plies".
func SeatsLine(seats []Seat) string {
	var parts []string
	for _, s := range seats {
		p := fmt.Sprintf("as %s %d-%d", s.Side, s.Wins, s.Losses)
		if s.Wins > 0 {
			p += fmt.Sprintf(", won in %.1f", s.WinPlies)
		}
		if s.Losses > 0 {
			p += fmt.Sprintf(", lost in %.1f", s.LossPlies)
		}
		parts = append(parts, p)
	}
	if len(parts) == 0 {
		return ""
	}
	return strings.Join(parts, "; ") + " plies"
}

// seats splits a series' records by A's side (A plays side i%2 in game i).
func seats(g env.Game, recs []match.Record) []Seat {
	out := make([]Seat, 2)
	for side := range out {
		out[side].Side = g.SideName(env.Side(side))
	}
	for i, r := range recs {
		st := &out[i%2]
		switch r.Outcome.Winner {
		case env.Side(i % 2):
			st.Wins++
			st.WinPlies += float64(len(r.Moves))
		case env.Side(1 - i%2):
			st.Losses++
			st.LossPlies += float64(len(r.Moves))
		}
	}
	for i := range out {
		if out[i].Wins > 0 {
			out[i].WinPlies /= float64(out[i].Wins)
		}
		if out[i].Losses > 0 {
			out[i].LossPlies /= float64(out[i].Losses)
		}
	}
	return out
}

// Ladder plays w against each baseline and fits its Elo together with
// the calibration's results, anchored at random = 0 when random is on the
// ladder, else at the first baseline.
func (e *Referee) Ladder(ctx context.Context, w *model.Weights, round int, calibration []LadderResult) (Standing, error) {
	ladder := slices.Clone(e.Config.Ladder)
	for _, op := range e.Opponents {
		ladder = append(ladder, op.Name)
	}
	st := Standing{Scores: map[string]float64{}, Seats: map[string][]Seat{}}
	g, err := games.New(e.Game)
	if err != nil {
		return st, err
	}
	results := make([]rating.Result, len(ladder))
	for i, base := range ladder {
		s := match.Series{Spec: e.Game, A: e.entrant(currentSpec, w), B: e.entrant(base, w), Games: e.Config.Games,
			Seed: e.Seed ^ uint64(round)<<20 ^ uint64(i), Parallel: e.Workers, OnGame: e.onGame, RandomPlies: e.Config.OpeningPlies}
		res, err := s.Run(ctx)
		if err != nil {
			return st, fmt.Errorf("evaluation against %s: %w", base, err)
		}
		results[i] = res.Total()
		st.Scores[base] = res.Total().Score()
		st.Seats[base] = seats(g, res.Records)
	}
	st.Elo, st.Lo, st.Hi, err = fitLadder(ladder, results, calibration)
	st.EloAvailable = err == nil && !math.IsNaN(st.Elo)
	return st, err
}

// fitLadder is the network's Elo and its 95% interval from its results
// against each baseline of the ladder and the calibration's results among
// them: anchored at random = 0 when random is on the ladder, else at the
// first baseline. Calibration results of players no longer on the ladder
// are left out.
func fitLadder(ladder []string, results []rating.Result, calibration []LadderResult) (elo, lo, hi float64, err error) {
	names := append([]string{currentSpec}, ladder...)
	table := rating.NewTable(names)
	index := map[string]int{}
	for i, n := range names {
		index[n] = i
	}
	for _, lr := range calibration {
		a, okA := index[lr.A]
		b, okB := index[lr.B]
		if okA && okB {
			table.Add(a, b, lr.Result)
		}
	}
	for i, r := range results {
		table.Add(0, i+1, r)
	}
	anchor := 1
	for i, name := range names {
		if name == "random" {
			anchor = i
		}
	}
	ratings, err := table.Fit(anchor)
	if err != nil {
		return 0, 0, 0, err
	}
	return ratings[0].Elo, ratings[0].Lo, ratings[0].Hi, nil
}
