package selfplay

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/sliderzero/sliderzero/env"
	"github.com/sliderzero/sliderzero/env/games"
	"github.com/sliderzero/sliderzero/env/registry"
	"github.com/sliderzero/sliderzero/env/slider"
	"github.com/sliderzero/sliderzero/mcts"
	"github.com/sliderzero/sliderzero/model"
)

func TestValueTargets(t *testing.T) {
	// Four plies, sides alternating 0,1,0,1; side 1 made the last move.
	rec := []recordedMove{
		{mover: 0, q: 0.1, hasQ: true}, {mover: 1, q: 0.2, hasQ: true},
		{mover: 0, q: -0.5, hasQ: true}, {mover: 1, q: 0.8, raw: 0.6, hasQ: true},
	}
	win := env.Outcome{Over: true, Winner: 1}
	tie := env.Outcome{Over: true, Winner: env.NoSide}
	near := func(got []float32, want ...float64) bool {
		for i := range want {
			if math.Abs(float64(got[i])-want[i]) > 1e-6 {
				return false
			}
		}
		return true
	}
	cases := []struct {
		name   string
		o      env.Outcome
		capped bool
		tc     Targets
		want   []float64
	}{
		{"plain outcome", win, false, Targets{}, []float64{-1, 1, -1, 1}},
		{"discounted: faster wins are worth more", win, false, Targets{Discount: 0.9}, []float64{-0.729, 0.81, -0.9, 1}},
		{"a capped game is a tie by default", tie, true, Targets{Discount: 0.9}, []float64{0, 0, 0, 0}},
		{"a capped game bootstrapped from the last search", tie, true, Targets{Discount: 0.9, Capped: CappedBootstrap},
			[]float64{-0.8 * 0.729, 0.8 * 0.81, -0.8 * 0.9, 0.8}},
		{"a capped game bootstrapped from the network's own value", tie, true, Targets{Discount: 0.9, Capped: CappedNet},
			[]float64{-0.6 * 0.729, 0.6 * 0.81, -0.6 * 0.9, 0.6}},
		{"a tie by the rules stays a tie", tie, false, Targets{Capped: CappedBootstrap}, []float64{0, 0, 0, 0}},
		{"a tie by the rules stays a tie with net", tie, false, Targets{Capped: CappedNet}, []float64{0, 0, 0, 0}},
		{"mixed with the search's value", win, false, Targets{SearchWeight: 0.25}, []float64{-0.75 + 0.025, 0.75 + 0.05, -0.75 - 0.125, 0.75 + 0.2}},
		// Two plies on: positions 0 and 1 take the search's value of
		// positions 2 and 3 (same movers), discounted twice; the last two
		// keep the result.
		{"bootstrapped two plies on", win, false, Targets{Discount: 0.9, BootstrapPlies: 2}, []float64{-0.5 * 0.81, 0.8 * 0.81, -0.9, 1}},
		// One ply on: the next position's mover is the opponent, so its
		// value changes sign; a capped game's tail as well.
		{"bootstrapped one ply on, a capped game", tie, true, Targets{BootstrapPlies: 1}, []float64{-0.2, 0.5, -0.8, 0}},
		{"bootstrapping beyond the game keeps the result", win, false, Targets{BootstrapPlies: 4}, []float64{-1, 1, -1, 1}},
	}
	for _, c := range cases {
		got := valueTargets(rec, c.o, c.capped, c.tc)
		if !near(got, c.want...) {
			t.Errorf("%s: targets %v, want %v", c.name, got, c.want)
		}
	}
}

func TestRandomOpening(t *testing.T) {
	g := slider.MustNew(slider.Config{Size: 5})
	rng := rand.New(rand.NewPCG(1, 2))
	seen := map[int]bool{}
	for i := 0; i < 200; i++ {
		s, line := randomOpening(g.Start(rng), 6, rng)
		if s.Outcome().Over || s.Ply() > 6 {
			t.Fatalf("opening %s at ply %d", s, s.Ply())
		}
		if len(line) != s.Ply() {
			t.Fatalf("opening to ply %d gave %d moves", s.Ply(), len(line))
		}
		seen[s.Ply()] = true
	}
	if len(seen) != 7 {
		t.Errorf("opening lengths %v, want every one of 0..6", seen)
	}
	if s, line := randomOpening(g.Start(rng), 0, rng); s.Ply() != 0 || len(line) != 0 {
		t.Error("no random plies asked, some played")
	}
}

// A round's games depend only on the seed, the round and the network: one
// worker or three, scheduled however, give the same shard.
func TestRoundsDoNotDependOnWorkers(t *testing.T) {
	spec := registry.Spec{Name: "slider"}.With("size", "5").With("blocked", "random").With("first", "random")
	g, _ := games.New(spec)
	w, _ := model.NewWeights(model.NewArch(model.KindMLP, 32, 2, g), rand.New(rand.NewPCG(1, 2)))
	net, _ := model.NewNet(w)
	job := Job{Game: spec, Search: Settings{Params: mcts.Params{Sims: 16, CPUCT: 1.5, NoiseAlpha: 0.3, NoiseFrac: 0.25}, TemperaturePlies: 8},
		GamesInFlight: 4, GamesPerRound: 24}
	var shards []string
	for _, workers := range []int{1, 3} {
		s, err := PlayRound(context.Background(), g, job, net, workers, func(i int) *rand.Rand { return rand.New(rand.NewPCG(9, uint64(i))) }, 1, nil)
		if err != nil {
			t.Fatal(err)
		}
		var b strings.Builder
		for _, x := range s.Samples {
			fmt.Fprintln(&b, x.State, x.Value, x.Policy)
		}
		shards = append(shards, b.String())
	}
	if shards[0] != shards[1] {
		t.Error("one worker and three played different games from the same seed")
	}
}

// A position the search proved gets the proof's exact value, discounted
// by the proven line, whatever the game's end: a capped game's tail
// included.
func TestProvenTargetsAreExact(t *testing.T) {
	rec := []recordedMove{
		{mover: 0, q: 0.1, hasQ: true}, {mover: 1, q: 0.3, hasQ: true, proof: mcts.ProvenWin, plies: 3},
		{mover: 0, q: -0.9, hasQ: true, proof: mcts.ProvenLoss, plies: 2}, {mover: 1, q: 0, hasQ: true, proof: mcts.ProvenDraw, plies: 4},
	}
	tie := env.Outcome{Over: true, Winner: env.NoSide}
	got := valueTargets(rec, tie, true, Targets{Discount: 0.9, Capped: CappedBootstrap, SearchWeight: 0.5})
	want := []float32{0.5 * 0.1, 0.81, -0.9, 0} // the first: the tail bootstrapped from the last search (0), mixed with its own
	for i := range want {
		if math.Abs(float64(got[i]-want[i])) > 1e-6 {
			t.Errorf("target %d: %v, want %v (all %v)", i, got[i], want[i], got)
		}
	}
}

// Each position's plies target is the plies to its game's end: a round's
// samples (every move searched in full) run down by one to 1 at each
// game's last move, one run a game.
func TestPliesTargetsCountToTheEnd(t *testing.T) {
	spec := registry.Spec{Name: "catsdogs"}
	g, _ := games.New(spec)
	w, _ := model.NewWeights(model.NewArch(model.KindMLP, 16, 1, g), rand.New(rand.NewPCG(1, 2)))
	net, _ := model.NewNet(w)
	job := Job{Game: spec, Search: Settings{Params: mcts.Params{Sims: 4, CPUCT: 1.5}}, GamesInFlight: 2, GamesPerRound: 3}
	s, err := PlayRound(context.Background(), g, job, net, 1, func(i int) *rand.Rand { return rand.New(rand.NewPCG(3, uint64(i))) }, 1, nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(s.Samples) != s.Plies {
		t.Fatalf("%d samples of %d plies: every move should be kept", len(s.Samples), s.Plies)
	}
	games := 0
	for i, x := range s.Samples {
		if i > 0 && s.Samples[i-1].Left != 1 && x.Left != s.Samples[i-1].Left-1 {
			t.Fatalf("sample %d: %d plies to the end after %d", i, x.Left, s.Samples[i-1].Left)
		}
		if x.Left == 1 {
			games++
		}
	}
	if games != s.Games || s.Samples[len(s.Samples)-1].Left != 1 {
		t.Errorf("%d runs down to the last move, %d games", games, s.Games)
	}
}

// The games a round keeps whole replay from their recorded start to their
// recorded result, a random opening and a game cut by the ply cap
// included: the cap counts the opening's plies, so the record holds them.
func TestExamplesReplayToTheirResult(t *testing.T) {
	spec := registry.Spec{Name: "slider"}.With("size", "5").With("plycap", "24")
	g, _ := games.New(spec)
	w, _ := model.NewWeights(model.NewArch(model.KindMLP, 16, 1, g), rand.New(rand.NewPCG(1, 2)))
	net, _ := model.NewNet(w)
	job := Job{Game: spec, Search: Settings{Params: mcts.Params{Sims: 8, CPUCT: 1.5}, RandomPlies: 20},
		GamesInFlight: 4, GamesPerRound: ExamplesPerRound}
	s, err := PlayRound(context.Background(), g, job, net, 1, func(i int) *rand.Rand { return rand.New(rand.NewPCG(3, uint64(i))) }, 1, nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(s.Examples) != ExamplesPerRound {
		t.Fatalf("%d examples kept, want %d", len(s.Examples), ExamplesPerRound)
	}
	capped := 0
	for _, ex := range s.Examples {
		st, err := g.ParseState(ex.Start)
		if err != nil {
			t.Fatal(err)
		}
		for _, m := range ex.Moves {
			a, err := st.ParseAction(m)
			if err != nil {
				t.Fatalf("move %s of %s: %v", m, ex.Start, err)
			}
			st.Apply(a)
		}
		o := st.Outcome()
		winner := "tie"
		if o.Winner != env.NoSide {
			winner = g.SideName(o.Winner)
		}
		if !o.Over || winner != ex.Winner {
			t.Errorf("a kept game replays to %+v, recorded %s (%d moves)", o, ex.Winner, len(ex.Moves))
		}
		if env.EndedByCap(st) {
			capped++
		}
	}
	if capped == 0 {
		t.Error("no kept game reached the cap: the test tests nothing")
	}
}
