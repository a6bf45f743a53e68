// Command c4fit is the supervised ceiling diagnostic for Connect Four
// (issue 33, item 1), never part of training or of a shipped player: it
// fits a policy/value network on positions labelled by the exact solver
// (written by ../c4data) and measures it as the self-play players are
// measured: the raw value head's class and the raw policy's top move on the
// two held-out critical sets, and the share of those sets the project's
// search keeps with it.
//
//	go build -C experiments/ceiling/c4fit # from the repository's root; then
//	experiments/ceiling/c4fit/c4fit -data checkpoints/ceiling/c4-train.txt -net mlp:256x3 -steps 20000
//
// Unlike Slider 5x5, whose every position is in the solver's table,
// Connect Four's labels cost the solver about a quarter of a second a
// position, so a fit here sees tens of thousands of positions, not
// millions: each position also teaches the value of every position its
// moves lead to (their classes are known), and the board's mirror image
// doubles them. What it measures is a floor on what the network can
// represent, given that data.
package main

import (
	"bufio"
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"os/signal"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"time"

	"github.com/sliderzero/sliderzero/accuracy"
	"github.com/sliderzero/sliderzero/env"
	"github.com/sliderzero/sliderzero/env/connect4"
	_ "github.com/sliderzero/sliderzero/env/games" // the games, registered
	"github.com/sliderzero/sliderzero/env/registry"
	"github.com/sliderzero/sliderzero/experiments/ceiling/fitspec"
	"github.com/sliderzero/sliderzero/model"
	"github.com/sliderzero/sliderzero/model/learn"
	"github.com/sliderzero/sliderzero/player"
	"github.com/sliderzero/sliderzero/store"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	if err := run(ctx, os.Args[1:]); err != nil {
		if err == flag.ErrHelp {
			os.Exit(0)
		}
		fmt.Fprintln(os.Stderr, "c4fit:", err)
		os.Exit(1)
	}
}

// sample is one training position: its encoding's source, value class
// for its side to move, and (for the positions the solver scored move by
// move) the classes of its moves, by column (classUnknown where the
// column is full, or for a child position, whose moves were not scored).
type sample struct {
	s       *connect4.State
	value   int
	classes [connect4.Cols]int
	scored  bool
}

const classUnknown = 2

// result is what a fit measured, written as NAME.json.
type result struct {
	Name       string                                          `json:"name"`
	Arch       string                                          `json:"arch"`
	Params     int                                             `json:"params"`
	Data       string                                          `json:"data"`
	Positions  int                                             `json:"positions"` // scored positions read
	Samples    int                                             `json:"samples"`   // with their children
	Steps      int64                                           `json:"steps"`
	Batch      int                                             `json:"batch"`
	Seconds    float64                                         `json:"train_seconds"`
	PolicyLoss float64                                         `json:"policy_loss"`
	ValueLoss  float64                                         `json:"value_loss"`
	Raw        map[string]raw                                  `json:"raw"`
	Search     map[string]map[string]map[string]accuracy.Tally `json:"search"`
	SearchFrom string                                          `json:"search_from"`
	GOMAXPROCS int                                             `json:"gomaxprocs"`
	Date       time.Time                                       `json:"date"`
}

// raw is the network without search on one set.
type raw struct {
	// Value: the value head's nearest class (-1, 0, 1) is the position's.
	Value accuracy.Tally `json:"value_class"`
	// Policy: the policy head's most likely legal move keeps the class.
	Policy accuracy.Tally `json:"policy_top"`
}

func run(ctx context.Context, args []string) error {
	fs := flag.NewFlagSet("c4fit", flag.ContinueOnError)
	data := fs.String("data", "checkpoints/ceiling/c4-train.txt", "labelled positions (written by c4data)")
	sets := fs.String("sets", "checkpoints/tables/connect4-real-games.set;checkpoints/tables/connect4-random.set", "held-out critical sets, separated by ';'")
	netSpec := fs.String("net", "mlp:256x3", "network: KIND:WIDTHxDEPTH, KIND mlp, resmlp or conv")
	steps := fs.Int64("steps", 20000, "optimisation steps")
	batch := fs.Int("batch", 256, "positions a step")
	lr := fs.Float64("lr", 2e-3, "Adam's learning rate at the start; cosine decay to --lr-final")
	lrFinal := fs.Float64("lr-final", 4e-5, "learning rate at the last step")
	decay := fs.Float64("weight-decay", 1e-4, "L2 weight decay")
	valueWeight := fs.Float64("value-weight", 4, "weight of the value loss against the policy's")
	children := fs.Bool("children", true, "also teach the value of each position a scored move leads to")
	sims := fs.String("sims", "100,200,800", "search budgets to measure, comma-separated")
	from := fs.String("search-from", "checkpoints/connect4.player", "player file whose search settings the search uses (budget replaced)")
	procs := fs.Int("procs", 1, "GOMAXPROCS, and the positions searched at once")
	seed := fs.Uint64("seed", 1, "seed of weights, samples and searches")
	out := fs.String("out", "checkpoints/ceiling", "folder for NAME.json and NAME.weights.msgpack")
	name := fs.String("name", "", "the result's name (default c4-KIND-WxD, or the measured file's name)")
	measure := fs.String("measure", "", "a player file to measure instead of fitting (self-play's, for comparison): its own weights and search settings")
	threshold := fs.Float64("value-threshold", 0.5, "a value above it reads as a win, below minus it a loss: 0.5 for exact targets; 0.5 x 0.98^41 = 0.22 for self-play's discounted ones")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if fs.NArg() > 0 {
		return fmt.Errorf("unexpected arguments %v", fs.Args())
	}
	runtime.GOMAXPROCS(*procs)
	kind, width, depth, err := fitspec.ParseNet(*netSpec)
	if err != nil {
		return err
	}
	budgets, err := fitspec.ParseSims(*sims)
	if err != nil {
		return err
	}
	g := connect4.New()
	var held []*accuracy.Set
	heldPos := map[string]bool{}
	for _, p := range strings.Split(*sets, ";") {
		set, err := accuracy.ReadSetFile(p)
		if err != nil {
			return err
		}
		if err := set.Check(g); err != nil {
			return fmt.Errorf("%s: %w", p, err)
		}
		held = append(held, set)
		for _, e := range set.Entries {
			heldPos[e.Position] = true
			heldPos[mirror(e.Position)] = true
		}
	}
	if *measure != "" {
		pf, err := player.LoadPlayerFile(*measure)
		if err != nil {
			return err
		}
		if err := pf.Weights.Arch.CheckGame(g); err != nil {
			return fmt.Errorf("%s: %w", *measure, err)
		}
		if *name == "" {
			*name = strings.TrimSuffix(filepath.Base(*measure), filepath.Ext(*measure))
		}
		r := &result{Name: *name, Arch: pf.Weights.Arch.String(), Params: pf.Weights.Arch.NumParams(), Data: "self-play",
			SearchFrom: *measure, GOMAXPROCS: *procs, Date: time.Now().UTC()}
		return measureAll(ctx, r, pf.Weights, pf, g, held, budgets, *threshold, *seed, *procs, *out)
	}
	if *name == "" {
		*name = fmt.Sprintf("c4-%s-%dx%d", kind, width, depth)
	}
	samples, positions, err := readData(*data, g, heldPos, *children)
	if err != nil {
		return err
	}
	fmt.Fprintf(os.Stderr, "%s: %d scored positions, %d samples with their children (held-out positions and mirror images left out)\n", *data, positions, len(samples))

	arch := model.NewArch(kind, width, depth, g)
	w, err := model.NewWeights(arch, rand.New(rand.NewPCG(*seed, 0x3e16)))
	if err != nil {
		return err
	}
	tr, err := learn.NewTrainer(w, *batch, learn.NewAdam(*decay))
	if err != nil {
		return err
	}
	tr.SetValueWeight(*valueWeight)
	r := &result{Name: *name, Arch: arch.String(), Params: arch.NumParams(), Data: *data, Positions: positions,
		Samples: len(samples), Batch: *batch, SearchFrom: *from, GOMAXPROCS: *procs, Date: time.Now().UTC()}
	fmt.Fprintf(os.Stderr, "%s: %s, %d parameters; %d steps of %d\n", *name, arch, arch.NumParams(), *steps, *batch)

	rng := rand.New(rand.NewPCG(*seed, 0xc4f1))
	b := fitspec.NewBatch(*batch, arch.Input, arch.Actions)
	enc, legal := make([]float32, arch.Input), make([]int, 0, arch.Actions)
	t0 := time.Now()
	var sumP, sumV float64
	var n int
	for step := int64(0); step < *steps; step++ {
		if ctx.Err() != nil {
			fmt.Fprintln(os.Stderr, "interrupted: measuring the network as it is")
			break
		}
		fill(b, g, samples, rng, enc, legal)
		f := float64(step) / float64(*steps)
		l, err := tr.Step(b, *lrFinal+0.5*(*lr-*lrFinal)*(1+math.Cos(math.Pi*f)))
		if err != nil {
			return fmt.Errorf("step %d: %w", step, err)
		}
		sumP, sumV, n = sumP+l.Policy, sumV+l.Value, n+1
		r.Steps = step + 1
		if (step+1)%2000 == 0 || step+1 == *steps {
			fmt.Fprintf(os.Stderr, "step %6d  %5.1f min  loss p %.3f v %.3f\n", step+1, time.Since(t0).Minutes(), sumP/float64(n), sumV/float64(n))
			r.PolicyLoss, r.ValueLoss = sumP/float64(n), sumV/float64(n)
			sumP, sumV, n = 0, 0, 0
		}
	}
	r.Seconds = time.Since(t0).Seconds()
	fitted := tr.Weights()
	if err := os.MkdirAll(*out, 0o755); err != nil {
		return err
	}
	wpath := filepath.Join(*out, *name+".weights.msgpack")
	nf := &model.NetFile{Game: registry.Spec{Name: "connect4"}, Weights: fitted, Steps: r.Steps, Positions: r.Steps * int64(*batch)}
	if err := store.Write(wpath, model.KindWeights, model.FormatVersion, nf); err != nil {
		return err
	}
	fmt.Fprintf(os.Stderr, "wrote %s\n", wpath)

	pf, err := player.LoadPlayerFile(*from)
	if err != nil {
		return err
	}
	return measureAll(ctx, r, fitted, pf, g, held, budgets, *threshold, *seed, *procs, *out)
}

// measureAll fills r with w's raw heads and its search at each budget (pf's
// search settings) on the held-out sets, and writes it as NAME.json.
func measureAll(ctx context.Context, r *result, w *model.Weights, pf *player.PlayerFile, g *connect4.Game, held []*accuracy.Set,
	budgets []int, threshold float64, seed uint64, procs int, out string) error {
	r.Raw = map[string]raw{}
	for _, set := range held {
		rr, err := measureRaw(w, g, set, threshold)
		if err != nil {
			return err
		}
		r.Raw[set.Name] = rr
		fmt.Fprintf(os.Stderr, "  raw %-10s value class %s  policy top %s\n", set.Name, rr.Value, rr.Policy)
	}
	r.Search = map[string]map[string]map[string]accuracy.Tally{}
	for _, sims := range budgets {
		cfg := pf.Search
		cfg.Sims, cfg.Time, cfg.Threads = sims, 0, 1
		key := strconv.Itoa(sims)
		r.Search[key] = map[string]map[string]accuracy.Tally{}
		for _, set := range held {
			factory := func(seed uint64) (player.Player, error) {
				return player.NewNet(r.Name, w, g, cfg, rand.New(rand.NewPCG(seed, 0x5eed)))
			}
			res, err := accuracy.MeasureSet(ctx, g, set, factory, accuracy.Options{Seed: seed, Parallel: procs})
			if err != nil {
				return fmt.Errorf("search at %d simulations on %s: %w", sims, set.Name, err)
			}
			r.Search[key][set.Name] = map[string]accuracy.Tally{"all": res.All, "won": res.Won, "drawn": res.Drawn, "lost": res.Lost, "single": res.Single}
			fmt.Fprintf(os.Stderr, "  search %4d sims, %-10s %s\n", sims, set.Name, res.All)
		}
	}
	js, err := json.MarshalIndent(r, "", "  ")
	if err != nil {
		return err
	}
	if err := os.MkdirAll(out, 0o755); err != nil {
		return err
	}
	path := filepath.Join(out, r.Name+".json")
	if err := store.WriteAtomic(path, append(js, '\n')); err != nil {
		return err
	}
	fmt.Fprintf(os.Stderr, "wrote %s\n", path)
	return nil
}

// mirror is a position's one-line form with the board mirrored left to
// right (rows separated by '/', then the side to move).
func mirror(pos string) string {
	board, rest, _ := strings.Cut(pos, " ")
	rows := strings.Split(board, "/")
	for i, r := range rows {
		b := []byte(r)
		for l, h := 0, len(b)-1; l < h; l, h = l+1, h-1 {
			b[l], b[h] = b[h], b[l]
		}
		rows[i] = string(b)
	}
	return strings.Join(rows, "/") + " " + rest
}

// readData reads c4data's lines (position, tab, the class of each column
// a..g as +1, 0, -1, or x for a full column), leaving out held-out
// positions; with children, each position a scored move leads to (the
// game not over) is a sample too, its value the move's class negated.
func readData(path string, g *connect4.Game, held map[string]bool, children bool) ([]sample, int, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, 0, err
	}
	defer f.Close()
	var out []sample
	seen := map[string]bool{}
	positions := 0
	sc := bufio.NewScanner(f)
	for line := 1; sc.Scan(); line++ {
		pos, cls, ok := strings.Cut(sc.Text(), "\t")
		fields := strings.Fields(cls)
		if !ok || len(fields) != connect4.Cols {
			return nil, 0, fmt.Errorf("%s:%d: want a position, a tab and %d classes", path, line, connect4.Cols)
		}
		st, err := g.ParseState(pos)
		if err != nil {
			return nil, 0, fmt.Errorf("%s:%d: %w", path, line, err)
		}
		s := env.Unwrap(st).(*connect4.State)
		smp := sample{s: s, value: -1, scored: true}
		legal := s.LegalActions(nil)
		for c := range smp.classes {
			smp.classes[c] = classUnknown
		}
		for c, f := range fields {
			if f == "x" {
				continue
			}
			k, err := strconv.Atoi(f)
			if err != nil || k < -1 || k > 1 {
				return nil, 0, fmt.Errorf("%s:%d: class %q: want +1, 0, -1 or x", path, line, f)
			}
			smp.classes[c] = k
			smp.value = max(smp.value, k)
		}
		for _, a := range legal {
			if smp.classes[a] == classUnknown {
				return nil, 0, fmt.Errorf("%s:%d: column %s is legal but has no class", path, line, s.ActionString(a))
			}
		}
		if held[pos] || seen[pos] {
			continue
		}
		seen[pos] = true
		positions++
		out = append(out, smp)
	}
	if err := sc.Err(); err != nil {
		return nil, 0, err
	}
	if positions == 0 {
		return nil, 0, fmt.Errorf("%s: no positions", path)
	}
	if !children {
		return out, positions, nil
	}
	// Children after every scored position, so that a position scored
	// move by move keeps its policy target when it is also a child.
	for _, p := range out[:positions] {
		for _, a := range p.s.LegalActions(nil) {
			c := p.s.Clone().(*connect4.State)
			c.Apply(a)
			cp := c.String()
			if c.Outcome().Over || held[cp] || seen[cp] {
				continue
			}
			seen[cp] = true
			ch := sample{s: c, value: -p.classes[a]}
			for k := range ch.classes {
				ch.classes[k] = classUnknown
			}
			out = append(out, ch)
		}
	}
	return out, positions, nil
}

// fill draws b.Size samples, each mirrored with even odds: the value
// target is the exact class, the policy target uniform over the moves that
// keep it (none for a child position: its policy is not taught). enc and
// legal are scratch.
func fill(b *learn.Batch, g *connect4.Game, samples []sample, rng *rand.Rand, enc []float32, legal []int) {
	in, act := len(b.Input)/b.Size, len(b.Legal)/b.Size
	clear(b.Policy)
	clear(b.Legal)
	for i := 0; i < b.Size; i++ {
		smp := &samples[rng.IntN(len(samples))]
		k := rng.IntN(g.Symmetries())
		smp.s.Encode(enc)
		g.TransformInput(k, enc, b.Input[i*in:(i+1)*in])
		keep := 0
		if smp.scored {
			for _, c := range smp.classes {
				if c == smp.value {
					keep++
				}
			}
		}
		row, pol := b.Legal[i*act:(i+1)*act], b.Policy[i*act:(i+1)*act]
		legal = smp.s.LegalActions(legal[:0])
		for _, a := range legal {
			m := g.TransformAction(k, a)
			row[m] = 1
			if smp.scored && smp.classes[a] == smp.value {
				pol[m] = 1 / float32(keep)
			}
		}
		b.Value[i] = float32(smp.value)
		b.Plies[i], b.Known[i] = 0, 0
	}
}

// measureRaw reads the network's heads on a set's positions.
func measureRaw(w *model.Weights, g *connect4.Game, set *accuracy.Set, threshold float64) (raw, error) {
	net, err := model.NewNet(w)
	if err != nil {
		return raw{}, err
	}
	fwd := net.NewForward()
	in := make([]float32, w.Arch.Input)
	logits := make([]float32, w.Arch.Actions)
	value := make([]float32, 1)
	var r raw
	for _, e := range set.Entries {
		st, err := g.ParseState(e.Position)
		if err != nil {
			return raw{}, err
		}
		st.Encode(in)
		fwd.Run(1, in, logits, value, nil)
		want := accuracy.Class(e.Score)
		if classOf(value[0], threshold) == want {
			r.Value.Kept++
		}
		r.Value.Total++
		best, bestLogit := "", float32(math.Inf(-1))
		for _, a := range st.LegalActions(nil) {
			if logits[a] > bestLogit {
				best, bestLogit = st.ActionString(a), logits[a]
			}
		}
		for _, m := range e.Moves {
			if m.Move == best && accuracy.Class(m.Score) == want {
				r.Policy.Kept++
			}
		}
		r.Policy.Total++
	}
	return r, nil
}

// classOf reads a value as a class: 1 above the threshold, -1 below
// minus it, else 0.
func classOf(v float32, threshold float64) int {
	switch {
	case float64(v) > threshold:
		return 1
	case float64(v) < -threshold:
		return -1
	}
	return 0
}
