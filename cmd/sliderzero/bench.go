package main

import (
	"context"
	"flag"
	"fmt"
	"math/rand/v2"
	"slices"
	"time"

	"github.com/sliderzero/sliderzero/env"
	c4 "github.com/sliderzero/sliderzero/env/connect4/solve"
	"github.com/sliderzero/sliderzero/env/games"
	"github.com/sliderzero/sliderzero/mcts/uct"
	"github.com/sliderzero/sliderzero/model"
	"github.com/sliderzero/sliderzero/player"
	"github.com/sliderzero/sliderzero/train"
)

const benchAbout = `Measures, on one core, random playouts through the game interface
(plies per second), alpha-beta search (nodes per second) and plain UCT
(simulations per second) for the configured game; then the default
training configuration's network: evaluations per second of the search's
plain-Go forward pass and of the same network through Gorgonia, and the
simulations per second of a self-play worker (with their ratio to the
forward pass alone: how much of self-play is the network) and of two;
then the forward pass's kernels (AVX-512 or AVX2 with FMA, chosen at run
time; SLIDERZERO_KERNEL=avx2 or =none narrows the choice): one core's
measured multiply-add peak, and each layer shape of the default networks
at batch 1, 8, 16 and 64 in GMAC/s and as a share of that peak. Figures
vary with the machine's load; compare runs made together.

--learn instead measures the training step on one core: for the
default configuration's network of the game flags' game, its residual
form and a convolutional trunk, samples a second of the step with
Gorgonia's own operations (the graph before issue 66) at the default
batch, and of the fused graph (the trainer's) at batches of 64 to 512,
with their ratio and their share of the core's measured multiply-add
peak (measured before and after, the mean used).

--solver instead measures the exact Connect Four solver on one core:
1,000 end-game 7x6 positions (28 to 34 discs) and 200 middle-game ones
(15 to 24), the same ones on every machine (seed 1), each solved from an
empty table, strongly (the exact score) and weakly (win, draw or loss):
the mean time and nodes a position and the nodes a second.

--search instead measures one tree search on 1, 2, 4, 8 and all threads
(docs: mcts.Drive): searches of --sims simulations from 16 fixed
positions, with a trivial evaluator (uniform policy, value 0: the
search's own cost a simulation) and with a network (--player FILE's, or
the default configuration's untrained one): simulations a second, their
ratio to one thread, the mean positions a network call and the share of
descents that found their leaf taken by another thread.

` + ponsAbout

func runBench(ctx context.Context, args []string, io stdio) error {
	fs := flag.NewFlagSet("bench", flag.ContinueOnError)
	var gf gameFlags
	gf.register(fs, false)
	seconds := fs.Float64("seconds", 2, "time given to each measurement")
	solverOnly := fs.Bool("solver", false, "measure the exact Connect Four solver instead (see above)")
	search := fs.Bool("search", false, "measure the tree search instead, at 1, 2, 4, 8 and all threads (see above)")
	learnOnly := fs.Bool("learn", false, "measure the training step instead (see above)")
	playerFile := fs.String("player", "", "with --search: a player `FILE` whose network (and game) to search with (default: the default network, untrained, for the game flags' game); with --pons: the players to judge, specs separated by ;")
	sims := rangeVar(fs, "sims", 800, 1, 1_000_000, "with --search: simulations a search")
	var po ponsOptions
	po.register(fs)
	if err := parseFlags(fs, args, io, benchAbout); err != nil {
		return ignoreHelp(err)
	}
	if po.dir != "" || po.given(fs) {
		return benchPons(ctx, io, fs, po, *playerFile)
	}
	if !(*seconds > 0 && *seconds <= maxSeconds) {
		return usageError{fmt.Errorf("bench: --seconds %v: want a number above 0 and at most %d", *seconds, maxSeconds)}
	}
	if *solverOnly {
		return benchSolver(ctx, io)
	}
	d := time.Duration(*seconds * float64(time.Second))
	if *learnOnly {
		return benchLearn(ctx, io, gf, d)
	}
	if *search {
		spec := gf.spec
		if *playerFile != "" {
			pf, err := player.LoadPlayerFile(*playerFile)
			if err != nil {
				return err
			}
			spec = pf.Game
		}
		g, err := games.New(spec)
		if err != nil {
			return err
		}
		return benchSearch(ctx, io, g, *playerFile, *sims, d)
	}
	return benchDefault(ctx, io, gf, d)
}

// benchDefault is bench without a mode flag: the game, the default
// network's passes and self-play, and the kernels.
func benchDefault(ctx context.Context, io stdio, gf gameFlags, d time.Duration) error {
	g, err := gf.build()
	if err != nil {
		return err
	}
	if err := benchGame(ctx, io, g, d); err != nil {
		return err
	}
	cfg := train.DefaultConfig()
	cfg.Game = gf.spec
	sp, err := train.Bench(ctx, cfg, d)
	if err != nil {
		return err
	}
	fmt.Fprintf(io.out, "network %s, %d parameters, batch %d:\n", sp.Arch, sp.Params, sp.Batch)
	fmt.Fprintf(io.out, "  forward pass, plain Go: %.0fk evaluations/s\n", sp.PlainEvals/1e3)
	fmt.Fprintf(io.out, "  forward pass, Gorgonia: %.0fk evaluations/s (plain Go is %.1fx faster)\n", sp.GorgoniaEvals/1e3, sp.PlainEvals/sp.GorgoniaEvals)
	fmt.Fprintf(io.out, "  self-play search: %.0fk simulations/s, %.0f%% of the forward pass alone; its batches hold %.1f positions on average\n", sp.SelfPlaySims/1e3, 100*sp.SearchShare, sp.SelfPlayBatch)
	fmt.Fprintf(io.out, "  self-play, two workers: %.0fk simulations/s\n", sp.SelfPlaySims2/1e3)
	return benchKernels(io, cfg, d)
}

// benchGame measures the game's random playouts, alpha-beta and plain UCT
// from its start, each for d.
func benchGame(ctx context.Context, io stdio, g env.Game, d time.Duration) error {
	rng := rand.New(rand.NewPCG(1, 2))
	fmt.Fprintln(io.out, g.Describe())

	start := g.Start(rng)
	s := start.Clone()
	buf := make([]int, 0, 64)
	plies, games := 0, 0
	t0 := time.Now()
	for time.Since(t0) < d && ctx.Err() == nil {
		for k := 0; k < 100; k++ {
			s.CopyFrom(start)
			for !s.Outcome().Over {
				buf = s.LegalActions(buf[:0])
				s.Apply(buf[rng.IntN(len(buf))])
				plies++
			}
			games++
		}
	}
	el := time.Since(t0).Seconds()
	fmt.Fprintf(io.out, "random playouts: %.2fM plies/s, %.0f games/s, %.1f plies a game\n",
		float64(plies)/el/1e6, float64(games)/el, float64(plies)/float64(games))

	ev, ok := g.(env.Evaluator)
	if ok {
		ab := player.NewAlphaBeta("alphabeta", g, ev, player.AlphaBetaConfig{Time: d}, nil)
		t0 = time.Now()
		if _, err := ab.Move(ctx, start); err != nil {
			return err
		}
		el = time.Since(t0).Seconds()
		fmt.Fprintf(io.out, "alphabeta from the start: %.0fk nodes/s, depth %d reached in %.1fs\n",
			float64(ab.LastNodes)/el/1e3, ab.LastDepth, el)
	}
	u := uct.New(uct.Config{Time: d}, rng)
	t0 = time.Now()
	if _, err := u.Search(ctx, start); err != nil {
		return err
	}
	el = time.Since(t0).Seconds()
	fmt.Fprintf(io.out, "plain UCT from the start: %.0fk simulations/s\n", float64(u.LastSims)/el/1e3)
	return nil
}

// benchKernels prints the forward pass's kernels against the core's peak:
// each layer shape of the default networks at the batch sizes self-play
// and the players use.
func benchKernels(io stdio, cfg train.Config, d time.Duration) error {
	g, err := games.New(cfg.Game)
	if err != nil {
		return err
	}
	peak := model.PeakMACs(d)
	fmt.Fprintf(io.out, "forward pass kernels: %s", model.Kernels())
	if peak > 0 {
		fmt.Fprintf(io.out, "; one core's fused multiply-add peak %.1f GMAC/s", peak/1e9)
	}
	fmt.Fprintln(io.out)
	var archs []model.Arch
	for _, a := range []model.Arch{
		cfg.Net.Arch(g),
		model.NewArch(model.KindMLP, 128, 3, g),
		model.NewArch(model.KindResMLP, 128, 2, g),
	} {
		if !slices.ContainsFunc(archs, func(b model.Arch) bool { return b.String() == a.String() }) {
			archs = append(archs, a) // the default is one of the others
		}
	}
	for _, a := range archs {
		speeds, err := model.LayerSpeeds(a, []int{1, 8, 16, 64}, d/8)
		if err != nil {
			return err
		}
		fmt.Fprintf(io.out, "  %s:\n", a)
		for _, s := range speeds {
			share := ""
			if peak > 0 {
				share = fmt.Sprintf(", %3.0f%% of peak", 100*s.MACs/peak)
			}
			fmt.Fprintf(io.out, "    %-8s %4d x %-4d batch %2d: %6.1f GMAC/s%s\n", s.Layer, s.In, s.Out, s.Batch, s.MACs/1e9, share)
		}
	}
	return nil
}

// benchSolver times the Connect Four solver on the benchmark's fixed
// positions (the same as go test -bench Solver in env/connect4/solve).
func benchSolver(ctx context.Context, io stdio) error {
	b, err := c4.NewBoard(7, 6)
	if err != nil {
		return err
	}
	s := c4.New(b, c4.BenchTableEntries)
	fmt.Fprintln(io.out, "connect4 7x6 solver, one core, an empty table per position")
	for _, group := range []struct {
		name     string
		n        int
		min, max int
	}{{"end game", 1000, 28, 34}, {"middle game", 200, 15, 24}} {
		positions := c4.BenchPositions(b, group.n, group.min, group.max, 1)
		for _, mode := range []struct {
			name string
			mode c4.Mode
		}{{"strong", c4.Strong}, {"weak", c4.Weak}} {
			r, err := c4.Bench(ctx, s, positions, mode.mode)
			if err != nil {
				return fmt.Errorf("bench: %w", err)
			}
			fmt.Fprintf(io.out, "%-11s (%d-%d discs) %-6s %4d positions: mean %9s, %10.0f nodes a position, %.2fM nodes/s\n",
				group.name, group.min, group.max, mode.name, r.Positions, roundDuration(r.PerPosition()), r.NodesPerPosition(), r.NodesPerSecond()/1e6)
		}
	}
	return nil
}
