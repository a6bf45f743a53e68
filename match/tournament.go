package match

import (
	"context"
	"errors"
	"fmt"

	"github.com/sliderzero/sliderzero/rating"
)

// Tournament is a round robin: every pair of entrants plays a series,
// with the settings of Series (its A and B are the pair's; pair (i, j)'s
// seed is Series.Seed + i*len(Entrants) + j).
type Tournament struct {
	Names    []string
	Entrants []Entrant
	Series   Series
	// OnGame hears of each finished game.
	OnGame func()
}

// TournamentResult is what a tournament played: the scores of each pair,
// every game counted, and each pair's losses by other than the rules
// (SeriesResult.Forfeits).
type TournamentResult struct {
	Table *rating.Table
	// Games counts the games counted; Records holds them unless the
	// series had OnRecord.
	Games    int
	Records  []Record
	Forfeits []string
	// Interrupted: the context ended; the games finished before count.
	Interrupted bool
}

// Run plays the tournament. Interrupted, it returns what was finished with
// Interrupted set and no error, unless nothing was.
func (t Tournament) Run(ctx context.Context) (TournamentResult, error) {
	n := len(t.Entrants)
	if n < 2 || len(t.Names) != n {
		return TournamentResult{}, fmt.Errorf("a tournament needs at least two players, each named")
	}
	res := TournamentResult{Table: rating.NewTable(t.Names)}
	for i := 0; i < n; i++ {
		for j := i + 1; j < n; j++ {
			s := t.Series
			s.A, s.B, s.Seed = t.Entrants[i], t.Entrants[j], t.Series.Seed+uint64(i*n+j)
			s.OnGame = func(int, Record) {
				if t.OnGame != nil {
					t.OnGame()
				}
			}
			sr, err := s.Run(ctx)
			interrupted := err != nil && ctx.Err() != nil && errors.Is(err, ctx.Err())
			if err != nil && !interrupted {
				return res, fmt.Errorf("%s against %s: %w", t.Names[i], t.Names[j], err)
			}
			res.Table.Add(i, j, sr.Total())
			res.Games += sr.Counted
			res.Records = append(res.Records, sr.Records...)
			res.Forfeits = append(res.Forfeits, sr.Forfeits(t.Names[i], t.Names[j])...)
			if interrupted {
				res.Interrupted = true
				if res.Games == 0 {
					return res, ctx.Err()
				}
				return res, nil
			}
		}
	}
	return res, nil
}
