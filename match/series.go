package match

import (
	"context"
	"errors"
	"fmt"
	"hash/fnv"
	"math/rand/v2"
	"sort"
	"strings"
	"sync"

	"github.com/sliderzero/sliderzero/env"
	"github.com/sliderzero/sliderzero/env/games"
	"github.com/sliderzero/sliderzero/env/registry"
	"github.com/sliderzero/sliderzero/player"
	"github.com/sliderzero/sliderzero/rating"
)

// Entrant is one side of a series: it builds its player for each game,
// from a spec read once (*player.Setup is one) or from what it holds.
type Entrant interface {
	New(g env.Game, seed uint64) (player.Player, error)
}

// EntrantFunc is a function that builds a series' player.
type EntrantFunc func(g env.Game, seed uint64) (player.Player, error)

// New calls f.
func (f EntrantFunc) New(g env.Game, seed uint64) (player.Player, error) { return f(g, seed) }

// Series is a match of several games between players A and B, colours
// alternating: A plays side 0 in even-numbered games. Game i's players are
// seeded from Seed and i, and pairs of games (2k, 2k+1) start from the same
// position (same random layout, colours swapped), so results depend neither
// on Parallel nor on scheduling.
type Series struct {
	Spec     registry.Spec
	A, B     Entrant
	Games    int
	Seed     uint64
	Parallel int
	Options  Options
	// Openings, when given, are the start positions (in the game's
	// one-line form): pair k of games plays opening k, in order or, with
	// ShuffleOpenings, in an order drawn from Seed; past the last they
	// begin again.
	Openings        []string
	ShuffleOpenings bool
	// RandomPlies, when positive, starts each pair of games (without
	// Openings) RandomPlies uniformly random moves past the game's start,
	// the same moves for both games of the pair, drawn from Seed: players
	// that search deterministically (a network without noise, alpha-beta
	// at a node budget) would otherwise play one game per colour however
	// many games are asked. A move that would end the game is not made.
	RandomPlies int
	// SPRT, when set, stops the series once the test accepts a hypothesis
	// about A's Elo advantage, judged on the pairs of games finished in
	// order (the pentanomial model: a pair shares its start).
	SPRT *rating.SPRT
	// OnProgress, when set, hears the counted result after each game
	// counted in order.
	OnProgress func(Progress)
	// OnGame is called after each finished game (from one goroutine at a
	// time) with the number of games finished so far.
	OnGame func(finished int, rec Record)
	// OnRecord, when set, hears each game counted, in order (from one
	// goroutine at a time), and the result keeps no Records: a caller
	// that writes them as they come holds none (a million games' records
	// take gigabytes). An error it returns ends the series with it.
	OnRecord func(Record) error
}

// Progress is a series' running result.
type Progress struct {
	Counted int // games counted, in order
	Total   rating.Result
	Pairs   rating.Pentanomial
	// LLR and its bounds, with an SPRT.
	LLR, Lower, Upper float64
}

// SeriesResult is the outcome of a series.
type SeriesResult struct {
	// Counted is the number of games counted, in order.
	Counted int
	// Records are the games counted, in order, unless the series had
	// OnRecord.
	Records []Record
	// Lengths[s][0] adds up the games A won playing side s, Lengths[s][1]
	// those it lost; Plies all counted games' plies.
	Lengths [2][2]PlyCount
	Plies   int
	// ByColour[s] is A's result in the games where A played side s.
	ByColour [2]rating.Result
	// Verdict is the SPRT's, when the series had one.
	Verdict rating.Verdict
	// Pairs counts the finished pairs of games by A's pair score.
	Pairs rating.Pentanomial
	// LLR is the SPRT's log-likelihood ratio at the end.
	LLR float64
	// Losses[0] says how A's losses came (by End), Losses[1] B's; First
	// holds the detail of each kind's first forfeit ("V (engine:x) chose
	// a9Z...").
	Losses [2]map[End]int
	First  [2]map[End]string
	// distinct holds a hash of each different game (start and moves).
	distinct map[uint64]struct{}
}

// PlyCount adds up games and their plies.
type PlyCount struct{ Games, Plies int }

// Mean is the plies a game, 0 for no games.
func (c PlyCount) Mean() float64 {
	if c.Games == 0 {
		return 0
	}
	return float64(c.Plies) / float64(c.Games)
}

// Total is A's result over all counted games.
func (r SeriesResult) Total() rating.Result {
	a, b := r.ByColour[0], r.ByColour[1]
	return rating.Result{Wins: a.Wins + b.Wins, Ties: a.Ties + b.Ties, Losses: a.Losses + b.Losses}
}

// PlayerSeed derives the seed of one player in one game.
func PlayerSeed(seed uint64, game, which int) uint64 {
	return seed*0x9e3779b97f4a7c15 ^ uint64(game)<<8 ^ uint64(which+1)
}

// Run plays the series.
func (s Series) Run(ctx context.Context) (SeriesResult, error) {
	var res SeriesResult
	g, err := games.New(s.Spec)
	if err != nil {
		return res, err
	}
	if s.Games < 1 {
		return res, fmt.Errorf("a series needs at least one game")
	}
	for k, o := range s.Openings {
		st, err := g.ParseState(o)
		if err != nil {
			return res, fmt.Errorf("opening %d (%q): %w", k+1, env.Excerpt(o, 60), err)
		}
		if st.Outcome().Over {
			return res, fmt.Errorf("opening %d (%q) is a finished game: no move to play from it", k+1, env.Excerpt(o, 60))
		}
	}
	for which, e := range []Entrant{s.A, s.B} {
		p, err := e.New(g, 0)
		if err != nil {
			return res, fmt.Errorf("player %s: %w", string(rune('A'+which)), err)
		}
		closePlayers([2]player.Player{p})
	}
	// Nothing is sized by the number of games: a finished game waits in
	// pending only until the games before it are counted, and only the
	// games that failed keep their error.
	parallel := max(1, min(s.Parallel, s.Games))
	parent := ctx
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	pending := map[int]Record{}
	failed := map[int]error{}
	jobs := make(chan int)
	var mu sync.Mutex
	finished, prefix := 0, 0
	var last Record // the last game counted, the first of its pair when prefix is odd
	var recordErr error
	var wg sync.WaitGroup
	for w := 0; w < parallel; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range jobs {
				rec, err := s.play(ctx, g, i)
				mu.Lock()
				if err != nil {
					failed[i] = err
					cancel()
				} else {
					pending[i] = rec
					finished++
					if s.OnGame != nil {
						s.OnGame(finished, rec)
					}
					// Judge the SPRT on the pairs finished in order.
					for {
						rec, ok := pending[prefix]
						if !ok {
							break
						}
						delete(pending, prefix)
						prefix++
						if res.add(rec, prefix-1, s.OnRecord == nil) && s.OnRecord != nil && recordErr == nil {
							if recordErr = s.OnRecord(rec); recordErr != nil {
								cancel()
							}
						}
						if prefix%2 == 0 && res.Verdict == rating.Continue {
							res.Pairs.AddPair(scoreOf(last, 0), scoreOf(rec, 1))
							if s.SPRT != nil {
								res.LLR = s.SPRT.LLRPenta(res.Pairs)
								if v := s.SPRT.TestPenta(res.Pairs); v != rating.Continue {
									res.Verdict = v
									cancel()
								}
							}
						}
						last = rec
						if s.OnProgress != nil && (res.Verdict == rating.Continue || prefix == res.Counted) {
							p := Progress{Counted: res.Counted, Total: res.Total(), Pairs: res.Pairs, LLR: res.LLR}
							if s.SPRT != nil {
								p.Lower, p.Upper = s.SPRT.Bounds()
							}
							s.OnProgress(p)
						}
					}
				}
				mu.Unlock()
			}
		}()
	}
feed:
	for i := 0; i < s.Games; i++ {
		select {
		case jobs <- i:
		case <-ctx.Done():
			break feed
		}
	}
	close(jobs)
	wg.Wait()
	if recordErr != nil {
		return res, recordErr
	}
	if res.Verdict != rating.Continue {
		// Only the games up to the verdict count; later ones were cut.
		return res, nil
	}
	// Report the game that failed, not the ones its failure cancelled;
	// when the caller cancelled, the games counted so far are the result.
	order := make([]int, 0, len(failed))
	for i := range failed {
		order = append(order, i)
	}
	sort.Ints(order)
	for _, real := range []bool{true, false} {
		if !real && parent.Err() != nil {
			break
		}
		for _, i := range order {
			if err := failed[i]; !real || !errors.Is(err, context.Canceled) {
				return res, fmt.Errorf("game %d: %w", i+1, err)
			}
		}
	}
	if err := parent.Err(); err != nil && prefix < s.Games {
		return res, err
	}
	return res, nil
}

// Distinct counts the different games among the records (same start, same
// moves): a deterministic pair of players repeats its games from the same
// start, and repeats are not new evidence.
func (r SeriesResult) Distinct() int { return len(r.distinct) }

// scoreOf is A's score in a record of a game in which A played side aSide.
func scoreOf(rec Record, aSide env.Side) float64 {
	switch rec.Outcome.Winner {
	case env.NoSide:
		return 0.5
	case aSide:
		return 1
	}
	return 0
}

// add counts game i's record in the result, keeping the record if asked;
// its index must be the next. It reports whether the game counts (not
// past an SPRT's verdict).
func (r *SeriesResult) add(rec Record, i int, keep bool) bool {
	if r.Verdict != rating.Continue {
		return false
	}
	if keep {
		r.Records = append(r.Records, rec)
	}
	r.Counted++
	r.Plies += len(rec.Moves)
	h := fnv.New64a()
	h.Write([]byte(rec.Start))
	for _, m := range rec.Moves {
		h.Write([]byte{0})
		h.Write([]byte(m))
	}
	if r.distinct == nil {
		r.distinct = map[uint64]struct{}{}
	}
	r.distinct[h.Sum64()] = struct{}{}
	aSide := env.Side(i % 2)
	switch rec.Outcome.Winner {
	case aSide:
		r.Lengths[aSide][0].Games++
		r.Lengths[aSide][0].Plies += len(rec.Moves)
	case aSide.Other():
		r.Lengths[aSide][1].Games++
		r.Lengths[aSide][1].Plies += len(rec.Moves)
	}
	res := &r.ByColour[aSide]
	loser := -1
	switch rec.Outcome.Winner {
	case env.NoSide:
		res.Ties++
	case aSide:
		res.Wins++
		loser = 1
	default:
		res.Losses++
		loser = 0
	}
	if loser >= 0 {
		if r.Losses[loser] == nil {
			r.Losses[loser], r.First[loser] = map[End]int{}, map[End]string{}
		}
		r.Losses[loser][rec.End]++
		if _, seen := r.First[loser][rec.End]; !seen {
			r.First[loser][rec.End] = rec.Detail
		}
	}
	return true
}

func (s Series) play(ctx context.Context, g env.Game, i int) (Record, error) {
	aSide := env.Side(i % 2)
	var players [2]player.Player
	for which, e := range []Entrant{s.A, s.B} {
		p, err := e.New(g, PlayerSeed(s.Seed, i, which))
		if err != nil {
			return Record{}, err
		}
		side := aSide
		if which == 1 {
			side = aSide.Other()
		}
		players[side] = p
	}
	defer closePlayers(players)
	rng := rand.New(rand.NewPCG(s.Seed, uint64(i/2)))
	start := g.Start(rng)
	if s.RandomPlies > 0 && len(s.Openings) == 0 {
		// The position the random moves reach starts the game afresh (ply
		// 0, as an opening read from a file does): its record keeps only
		// the position, so the game must be the one that replaying its
		// moves from there gives, ply cap included.
		var err error
		if start, err = g.ParseState(env.RandomMoves(start, rng, s.RandomPlies).String()); err != nil {
			return Record{}, fmt.Errorf("random start: %w", err)
		}
	}
	if len(s.Openings) > 0 {
		k := (i / 2) % len(s.Openings)
		if s.ShuffleOpenings {
			k = rand.New(rand.NewPCG(s.Seed, 0x09e)).Perm(len(s.Openings))[k]
		}
		var err error
		if start, err = g.ParseState(s.Openings[k]); err != nil {
			return Record{}, fmt.Errorf("opening %d: %w", k+1, err)
		}
	}
	rec, err := Play(ctx, start, players, s.Options)
	rec.Spec, rec.Seed, rec.Number = s.Spec, s.Seed, i+1
	return rec, err
}

// Result is the record's result in words: the winner's side name or "tie".
func (r Record) Result(g env.Game) string {
	if r.Outcome.Winner == env.NoSide {
		return "tie"
	}
	return g.SideName(r.Outcome.Winner)
}

// Forfeits are, for each player of the series (named a and b) with a
// loss not by the rules, how its losses came.
func (res SeriesResult) Forfeits(a, b string) []string {
	var out []string
	for k, name := range [2]string{a, b} {
		byEnd := res.Losses[k]
		if len(byEnd) == 0 || (len(byEnd) == 1 && byEnd[EndRules] > 0) {
			continue
		}
		var parts []string
		for _, end := range []End{EndRules, EndRepetition, EndIllegal, EndTime, EndCrash} {
			if n := byEnd[end]; n > 0 {
				part := fmt.Sprintf("%d by %s", n, end)
				if end.Forfeit() && res.First[k][end] != "" {
					part += fmt.Sprintf(" (first: %s)", env.Excerpt(res.First[k][end], 200))
				}
				parts = append(parts, part)
			}
		}
		out = append(out, fmt.Sprintf("%s's losses: %s", name, strings.Join(parts, ", ")))
	}
	return out
}
