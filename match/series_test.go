package match

import (
	"bytes"
	"context"
	"errors"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/sliderzero/sliderzero/env"
	"github.com/sliderzero/sliderzero/env/games"
	"github.com/sliderzero/sliderzero/env/registry"
	"github.com/sliderzero/sliderzero/player"
	"github.com/sliderzero/sliderzero/rating"
)

var spec4 = registry.Spec{Name: "slider"}.With("size", "4").With("blocked", "random")

func TestSeriesDoesNotDependOnParallelism(t *testing.T) {
	var results []SeriesResult
	for _, par := range []int{1, 3} {
		res, err := Series{Spec: spec4, A: entrant("greedy"), B: entrant("mcts:sims=30"), Games: 8, Seed: 3, Parallel: par}.Run(context.Background())
		if err != nil {
			t.Fatal(err)
		}
		results = append(results, res)
	}
	a, b := results[0], results[1]
	if a.ByColour != b.ByColour || len(a.Records) != 8 {
		t.Fatalf("parallel 1: %+v, parallel 3: %+v", a.ByColour, b.ByColour)
	}
	for i := range a.Records {
		if strings.Join(a.Records[i].Moves, " ") != strings.Join(b.Records[i].Moves, " ") {
			t.Fatalf("game %d differs", i+1)
		}
	}
	// Games 2k and 2k+1 share a start position with the colours swapped.
	if a.Records[0].Start != a.Records[1].Start || a.Records[0].Players[0] != a.Records[1].Players[1] {
		t.Errorf("pair of games: %s / %s, players %v / %v", a.Records[0].Start, a.Records[1].Start, a.Records[0].Players, a.Records[1].Players)
	}
}

func TestSeriesStopsBySPRT(t *testing.T) {
	res, err := Series{Spec: spec4, A: entrant("greedy"), B: entrant("random"), Games: 400, Seed: 1, Parallel: 2,
		SPRT: &rating.SPRT{Elo0: 0, Elo1: 100, Alpha: 0.05, Beta: 0.05}}.Run(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if res.Verdict != rating.AcceptH1 || len(res.Records) >= 100 || res.Total().Games() != len(res.Records) {
		t.Errorf("verdict %v after %d games (%+v)", res.Verdict, len(res.Records), res.Total())
	}
}

func TestRecordsRoundTrip(t *testing.T) {
	res, err := Series{Spec: spec4, A: entrant("greedy"), B: entrant("random"), Games: 4, Seed: 2, Parallel: 2}.Run(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	back, path, buf := roundTrip(t, res.Records)
	if len(back) != 4 {
		t.Fatalf("read %d records", len(back))
	}
	for i, r := range back {
		want := res.Records[i]
		if r.Start != want.Start || strings.Join(r.Moves, " ") != strings.Join(want.Moves, " ") || r.Outcome != want.Outcome || r.Players != want.Players {
			t.Errorf("record %d changed in the round trip", i)
		}
		final, err := r.Replay(nil)
		if err != nil || final.Outcome() != want.Outcome {
			t.Errorf("replaying record %d: %v", i, err)
		}
	}
	// A doctored record is refused with the line and the move named.
	bad := strings.Replace(buf.String(), `"moves":["`, `"moves":["z9R","`, 1)
	os.WriteFile(path, []byte(bad), 0o644)
	if _, err := ReadRecords(path); err == nil || !strings.Contains(err.Error(), "line 1: move 1 (z9R)") {
		t.Errorf("doctored record: %v", err)
	}
}

// Openings give pairs of games their starts, colours swapped within a
// pair; deterministic players then play distinct games.
func TestOpenings(t *testing.T) {
	openings := []string{"H+++/H+++/H+++/+VVV V", "++++/HH++/H+++/+VVV H", "H+++/H+++/+H++/+V+V H"}
	s := Series{Spec: registry.Spec{Name: "slider"}.With("size", "4"), A: entrant("alphabeta:depth=3"), B: entrant("alphabeta:depth=2"), Games: 6, Seed: 1, Openings: openings, Parallel: 2}
	res, err := s.Run(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	for i, rec := range res.Records {
		if rec.Start != openings[i/2] {
			t.Errorf("game %d started from %s, want opening %d", i+1, rec.Start, i/2+1)
		}
	}
	if res.Pairs.Pairs() != 3 {
		t.Errorf("%d pairs counted", res.Pairs.Pairs())
	}
	// Repeated games count once.
	var r SeriesResult
	for i, rec := range []Record{{Start: "a", Moves: []string{"x"}}, {Start: "a", Moves: []string{"x"}}, {Start: "a", Moves: []string{"y"}}, {Start: "b", Moves: []string{"x"}}, {Start: "a x"}} {
		r.add(rec, i, false)
	}
	if r.Distinct() != 4 {
		t.Errorf("distinct games %d, want 4", r.Distinct())
	}
	s.Openings = []string{"H+++/H+X+/H+++/+VVV V"}
	if _, err := s.Run(context.Background()); err == nil || !strings.Contains(err.Error(), "opening 1") {
		t.Errorf("a bad opening: %v", err)
	}
}

// A series says how each player's losses came: a forfeit by an illegal
// move with its first message, beside losses by the rules.
func TestSeriesSaysHowLossesCame(t *testing.T) {
	bad := EntrantFunc(func(env.Game, uint64) (player.Player, error) { return illegal{}, nil })
	res, err := Series{Spec: spec4, A: entrant("greedy"), B: bad, Games: 4, Seed: 1, Parallel: 1}.Run(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if res.Losses[1][EndIllegal] != 4 || !strings.Contains(res.First[1][EndIllegal], "chose action -7") || len(res.Losses[0]) != 0 {
		t.Errorf("losses %v, first %v", res.Losses, res.First)
	}
}

// Deterministic players (here alpha-beta with one seed for every game,
// as a network without noise is) play one game a colour from one start;
// random plies give each pair its own start, the same for both of its
// games.
func TestRandomPlies(t *testing.T) {
	sameSeed := func(spec string) Entrant {
		return EntrantFunc(func(g env.Game, _ uint64) (player.Player, error) { return player.New(spec, g, player.Options{Seed: 7}) })
	}
	s := Series{Spec: registry.Spec{Name: "catsdogs"}, A: sameSeed("alphabeta:nodes=2000"), B: sameSeed("alphabeta:nodes=3000"), Games: 8, Seed: 1, Parallel: 2}
	res, err := s.Run(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if res.Distinct() != 2 {
		t.Fatalf("%d distinct games from one start between deterministic players, want 2", res.Distinct())
	}
	s.RandomPlies = 3
	if res, err = s.Run(context.Background()); err != nil {
		t.Fatal(err)
	}
	starts := map[string]bool{}
	for i, rec := range res.Records {
		starts[rec.Start] = true
		if rec.Start != res.Records[i&^1].Start {
			t.Errorf("game %d starts from %s, its pair's first from %s", i+1, rec.Start, res.Records[i&^1].Start)
		}
	}
	if len(starts) < 3 || res.Distinct() < 6 {
		t.Errorf("%d starts and %d distinct games in 4 pairs from random plies", len(starts), res.Distinct())
	}
}

// A game from random plies that ends at the ply cap reads back from its
// record: the random start counts as a fresh start (ply 0), as an opening
// does, so that replaying its moves from the recorded position ends it
// where it ended.
func TestRandomPliesRecordsReplay(t *testing.T) {
	spec := registry.Spec{Name: "slider"}.With("size", "4").With("plycap", "14")
	res, err := Series{Spec: spec, A: entrant("random"), B: entrant("random"), Games: 8, Seed: 1, Parallel: 2, RandomPlies: 5}.Run(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	capped := 0
	for i, rec := range res.Records {
		if rec.Outcome.Winner == env.NoSide {
			capped++
		}
		if len(rec.Moves) > 14 {
			t.Errorf("game %d: %d plies after its start, past the cap of 14", i+1, len(rec.Moves))
		}
	}
	if capped == 0 {
		t.Fatal("no game reached the cap: the test shows nothing")
	}
	if back, _, _ := roundTrip(t, res.Records); len(back) != len(res.Records) {
		t.Errorf("read %d records of %d", len(back), len(res.Records))
	}
}

// roundTrip writes records to a file and reads them back, failing the
// test if they do not read; it returns them, the file and what was written.
func roundTrip(t *testing.T, recs []Record) ([]Record, string, *bytes.Buffer) {
	t.Helper()
	var buf bytes.Buffer
	if err := WriteRecords(&buf, recs); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "games.jsonl")
	if err := os.WriteFile(path, buf.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	back, err := ReadRecords(path)
	if err != nil {
		t.Fatal(err)
	}
	return back, path, &buf
}

// A series its caller stops keeps the games finished in order: they are
// the result, with the caller's error, not a game's.
func TestInterruptedSeriesKeepsFinishedGames(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	s := Series{Spec: spec4, A: entrant("greedy"), B: entrant("mcts:sims=200"), Games: 40, Seed: 1, Parallel: 2,
		OnGame: func(finished int, _ Record) {
			if finished == 5 {
				cancel()
			}
		}}
	res, err := s.Run(ctx)
	if !errors.Is(err, context.Canceled) || strings.Contains(err.Error(), "game") {
		t.Fatalf("error %v, want the caller's cancellation", err)
	}
	// Two at a time, the sixth game may have finished before the fifth.
	if n := len(res.Records); n < 1 || n > 5 {
		t.Fatalf("%d games kept, want the first of the five finished", n)
	}
	if got := res.Total(); got.Wins+got.Ties+got.Losses != len(res.Records) {
		t.Errorf("score %+v over %d games", got, len(res.Records))
	}
}

// entrant builds a series' player from a spec of the built-in kinds.
func entrant(spec string) Entrant {
	return EntrantFunc(func(g env.Game, seed uint64) (player.Player, error) {
		return player.New(spec, g, player.Options{Seed: seed})
	})
}

// Two players of one file, over ten games played two at a time, load the
// file once: a series builds each game's players from specs read once.
func TestSeriesLoadsAPlayerFileOnce(t *testing.T) {
	f, err := player.NewFactory()
	if err != nil {
		t.Fatal(err)
	}
	spec := registry.Spec{Name: "slider"}.With("size", "5")
	g, err := games.New(spec)
	if err != nil {
		t.Fatal(err)
	}
	const file = "player:../player/testdata/slider-5x5-ship5.player"
	a, err := f.Read(file+",sims=4", g, player.Options{})
	if err != nil {
		t.Fatal(err)
	}
	b, err := f.Read(file+",sims=8,name=B", g, player.Options{})
	if err != nil {
		t.Fatal(err)
	}
	res, err := Series{Spec: spec, A: a, B: b, Games: 10, Seed: 1, Parallel: 2}.Run(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Records) != 10 {
		t.Fatalf("%d games, want 10", len(res.Records))
	}
	if n := f.Files().Loads(); n != 1 {
		t.Errorf("the player file was loaded %d times, want once", n)
	}
}

// A series sizes nothing by the games it is asked for (issue 65: match
// --games 100000000 died out of memory at once, a record, an error and a
// flag per game allocated up front), and starts no more players at once
// than it has games (--games 2 --parallel 100000 took 500 MB).
func TestSeriesAllocatesNothingPerGameUpFront(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	for _, c := range []struct{ games, parallel int }{{1_000_000, 2}, {2, 1_000_000}} {
		var before, after runtime.MemStats
		runtime.ReadMemStats(&before)
		_, err := Series{Spec: spec4, A: entrant("random"), B: entrant("random"), Games: c.games, Seed: 1, Parallel: c.parallel}.Run(ctx)
		runtime.ReadMemStats(&after)
		if !errors.Is(err, context.Canceled) {
			t.Fatalf("error %v, want the caller's cancellation", err)
		}
		if grew := after.TotalAlloc - before.TotalAlloc; grew > 8<<20 {
			t.Errorf("%d games, %d at once, stopped at once, allocated %d MB", c.games, c.parallel, grew>>20)
		}
	}
}

// With OnRecord, a series hands each counted game over in order and keeps
// none (issue 65: a million games' records took gigabytes, held until the
// end), while its result counts them all the same: the score, the games'
// lengths, the distinct games.
func TestSeriesHandsItsRecordsOver(t *testing.T) {
	s := Series{Spec: spec4, A: entrant("greedy"), B: entrant("random"), Games: 12, Seed: 2, Parallel: 3}
	kept, err := s.Run(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	var heard []Record
	s.OnRecord = func(r Record) error { heard = append(heard, r); return nil }
	handed, err := s.Run(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if len(handed.Records) != 0 || len(heard) != 12 || handed.Counted != 12 || kept.Counted != 12 {
		t.Fatalf("%d records kept, %d heard, %d counted", len(handed.Records), len(heard), handed.Counted)
	}
	for i, r := range heard {
		if r.Number != i+1 || strings.Join(r.Moves, " ") != strings.Join(kept.Records[i].Moves, " ") {
			t.Fatalf("game %d heard as number %d, or other moves", i+1, r.Number)
		}
	}
	if handed.Total() != kept.Total() || handed.Lengths != kept.Lengths || handed.Plies != kept.Plies || handed.Distinct() != kept.Distinct() || kept.Distinct() < 2 {
		t.Errorf("handed over: %+v %v %d %d; kept: %+v %v %d %d", handed.Total(), handed.Lengths, handed.Plies, handed.Distinct(), kept.Total(), kept.Lengths, kept.Plies, kept.Distinct())
	}
	// An error handing one over ends the series with it.
	stop := errors.New("disk full")
	s.OnRecord = func(Record) error { return stop }
	if _, err := s.Run(context.Background()); !errors.Is(err, stop) {
		t.Errorf("error %v, want the writer's", err)
	}
}
