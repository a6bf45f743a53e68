// Command ceiling is a diagnostic, never part of training or of a shipped
// player: it fits policy/value networks by plain supervised learning on
// the exact values and best-move sets of the Slider 5x5 solver's table,
// then measures them (raw heads and the project's search) on the table's
// two held-out sets of critical positions, beside the shipped self-play
// player. If networks shown perfect play cannot keep the value of
// critical positions any better than self-play's, the ceiling is the
// network; if they can, it is the targets self-play gives it (after Oracle's
// "Lessons from AlphaZero: Connect Four", 2018).
//
//	go run ./experiments/ceiling train --net mlp:128x3 --minutes 20
//	go run ./experiments/ceiling measure --player checkpoints/slider-5x5.player
//	go run ./experiments/ceiling report
//
// See README.md in this folder for the runs and what they say.
package main

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"os/signal"
	"path/filepath"
	"runtime"
	"runtime/debug"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/sliderzero/sliderzero/accuracy"
	"github.com/sliderzero/sliderzero/env/games"
	"github.com/sliderzero/sliderzero/env/slider"
	"github.com/sliderzero/sliderzero/mcts"
	"github.com/sliderzero/sliderzero/model"
	"github.com/sliderzero/sliderzero/player"
	"github.com/sliderzero/sliderzero/solver"
	"github.com/sliderzero/sliderzero/store"
)

const usage = `Usage: go run ./experiments/ceiling COMMAND [flags]

Commands:
  train    fit a network on the solver's exact values and best moves, then measure it
  measure  measure a player file or weights file (the shipped player, a saved fit)
  report   print the figures of every result in --out as Markdown tables
  layouts  list the blocked layouts of --layouts referee and their table files

Run a command with --help for its flags.`

func main() {
	if len(os.Args) < 2 {
		fmt.Fprintln(os.Stderr, usage)
		os.Exit(2)
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	var err error
	switch os.Args[1] {
	case "train":
		err = trainCmd(ctx, os.Args[2:])
	case "measure":
		err = measureCmd(ctx, os.Args[2:])
	case "report":
		err = reportCmd(os.Args[2:])
	case "layouts":
		err = layoutsCmd(os.Args[2:])
	case "-h", "--help", "help":
		fmt.Println(usage)
	default:
		fmt.Fprintf(os.Stderr, "unknown command %q\n\n%s\n", os.Args[1], usage)
		os.Exit(2)
	}
	if err != nil {
		if errors.Is(err, flag.ErrHelp) {
			os.Exit(0)
		}
		fmt.Fprintln(os.Stderr, "ceiling:", err)
		os.Exit(1)
	}
}

// common are the flags every measuring command takes.
type common struct {
	table, out, name, searchFrom string
	sims                         string
	limit, procs                 int
	seed                         uint64
	discount                     float64
}

func (c *common) register(fs *flag.FlagSet) {
	fs.StringVar(&c.table, "table", "checkpoints/tables/slider-5x5.table", "the solver's table (sliderzero solve --size 5 --out FILE)")
	fs.StringVar(&c.out, "out", "checkpoints/ceiling", "folder for results (NAME.json) and fitted weights (NAME.weights.msgpack)")
	fs.StringVar(&c.name, "name", "", "the result's name (default from the network and targets)")
	fs.StringVar(&c.searchFrom, "search-from", "checkpoints/slider-5x5.player", "player file whose search settings the search measurements use (budget replaced by --sims); missing: mcts defaults")
	fs.StringVar(&c.sims, "sims", "100,800", "search budgets to measure, comma-separated (empty: no search measurement)")
	fs.IntVar(&c.limit, "limit", 0, "measure the search on each set's first N positions only (0: all)")
	fs.IntVar(&c.procs, "procs", 1, "GOMAXPROCS (cores to use)")
	fs.Uint64Var(&c.seed, "seed", 1, "seed of initial weights, samples and searches")
	fs.Float64Var(&c.discount, "discount", 0.98, "per-ply discount of discounted value targets (self-play's default), also for the discounted value threshold")
}

func (c *common) simsList() ([]int, error) {
	var out []int
	for _, f := range strings.Split(c.sims, ",") {
		if f = strings.TrimSpace(f); f == "" {
			continue
		}
		n, err := strconv.Atoi(f)
		if err != nil || n < 1 {
			return nil, fmt.Errorf("--sims %q: want positive numbers", c.sims)
		}
		out = append(out, n)
	}
	return out, nil
}

// Result is one network's figures, written as NAME.json.
type Result struct {
	Name   string `json:"name"`
	Source string `json:"source"` // "supervised" or the measured file
	Arch   string `json:"arch"`
	Params int    `json:"params"`
	// Train is set for networks fitted here.
	Train *trainStats `json:"train,omitempty"`
	// Thresholds read the value head's class.
	Thresholds thresholds `json:"thresholds"`
	// ValueRule names the threshold the tables show for this network:
	// "nearest" for exact targets, "discounted" for discounted ones.
	ValueRule string `json:"value_rule"`
	// Raw is the network without search, by set (and "uniform": positions
	// drawn uniformly from the table, the training distribution).
	Raw map[string]rawResult `json:"raw"`
	// Search is the share of critical positions kept by the search, by
	// budget ("100") then set.
	Search     map[string]map[string]accuracy.Result `json:"search"`
	SearchWith mcts.Params                           `json:"search_with"`
	Machine    machine                               `json:"machine"`
	Date       time.Time                             `json:"date"`
	Seconds    float64                               `json:"seconds"` // the whole command
}

type machine struct {
	GOMAXPROCS int    `json:"gomaxprocs"`
	NumCPU     int    `json:"num_cpu"`
	Go         string `json:"go"`
	CPU        string `json:"cpu,omitempty"`
}

func thisMachine() machine {
	m := machine{GOMAXPROCS: runtime.GOMAXPROCS(0), NumCPU: runtime.NumCPU(), Go: runtime.Version()}
	if b, err := os.ReadFile("/proc/cpuinfo"); err == nil {
		for _, l := range strings.Split(string(b), "\n") {
			if k, v, ok := strings.Cut(l, ":"); ok && strings.TrimSpace(k) == "model name" {
				m.CPU = strings.TrimSpace(v)
				break
			}
		}
	}
	return m
}

// setup is what every command loads: the table, its held-out probes and a
// uniform sample for the fit on the training distribution.
type setup struct {
	t      *solver.Table
	probes map[string][]probe
	th     thresholds
	search mcts.Params
}

const uniformProbeCount = 5000

func load(c *common) (*setup, error) {
	runtime.GOMAXPROCS(c.procs)
	t0 := time.Now()
	t, err := solver.Read(c.table)
	if err != nil {
		return nil, fmt.Errorf("%w (build it with: go run ./cmd/sliderzero solve --size 5 --out %s)", err, c.table)
	}
	if t.Size() != 5 || len(t.Blocked()) != 0 {
		fmt.Fprintf(os.Stderr, "note: the table is %s, not the open 5x5 board\n", t.Describe())
	}
	s := &setup{t: t, probes: map[string][]probe{}}
	for _, name := range setNames {
		if s.probes[name], err = probesOf(t, name); err != nil {
			return nil, err
		}
	}
	if s.probes["uniform"], err = uniformProbes(t, uniformProbeCount, 0xface); err != nil {
		return nil, err
	}
	st := t.Stats()
	s.th = thresholds{Nearest: 0.5, Discounted: 0.5 * math.Pow(c.discount, float64(st.Longest-1))}
	s.search = mcts.DefaultParams()
	if pf, err := player.LoadPlayerFile(c.searchFrom); err == nil {
		s.search = pf.Search
	} else {
		fmt.Fprintf(os.Stderr, "note: %v; searching with the mcts defaults\n", err)
	}
	s.search.Time = 0
	fmt.Fprintf(os.Stderr, "table %s: %d positions, longest game %d plies; sets %d+%d; loaded in %.1fs on %d core(s)\n",
		t.Describe(), t.Positions(), st.Longest, len(s.probes[accuracy.RealGames]), len(s.probes[accuracy.Random]),
		time.Since(t0).Seconds(), runtime.GOMAXPROCS(0))
	return s, nil
}

// measureAll fills r's raw and search figures for weights w (search: the
// factory at each budget).
func measureAll(ctx context.Context, c *common, s *setup, r *Result, w *model.Weights, factory func(sims int) accuracy.Factory) error {
	sims, err := c.simsList()
	if err != nil {
		return err
	}
	r.Raw = map[string]rawResult{}
	for _, set := range append(append([]string(nil), setNames...), "uniform") {
		raw, err := measureRaw(w, s.probes[set], s.th)
		if err != nil {
			return err
		}
		r.Raw[set] = raw
	}
	r.Search = map[string]map[string]accuracy.Result{}
	for _, n := range sims {
		key := strconv.Itoa(n)
		r.Search[key] = map[string]accuracy.Result{}
		for _, set := range setNames {
			t0 := time.Now()
			res, err := measureSearch(ctx, s.t, set, factory(n), c.limit, c.seed)
			if err != nil {
				return fmt.Errorf("search at %d simulations on %s: %w", n, set, err)
			}
			r.Search[key][set] = res
			fmt.Fprintf(os.Stderr, "  search %4d sims, %-10s %s  (%.0fs)\n", n, set, res.All, time.Since(t0).Seconds())
		}
	}
	return nil
}

func writeResult(c *common, r *Result) error {
	if err := os.MkdirAll(c.out, 0o755); err != nil {
		return err
	}
	b, err := json.MarshalIndent(r, "", "  ")
	if err != nil {
		return err
	}
	path := filepath.Join(c.out, r.Name+".json")
	if err := store.WriteAtomic(path, append(b, '\n')); err != nil {
		return err
	}
	fmt.Fprintf(os.Stderr, "wrote %s\n", path)
	return nil
}

func printRaw(r *Result) {
	for _, set := range append(append([]string(nil), setNames...), "uniform") {
		raw := r.Raw[set]
		v := raw.ValueNearest
		if r.ValueRule == "discounted" {
			v = raw.ValueDiscounted
		}
		fmt.Fprintf(os.Stderr, "  raw %-10s value class %5.1f%%  policy top %5.1f%%  value one-ply %5.1f%%  value mse %.3f\n",
			set, 100*v.All.Share(), 100*raw.Policy.All.Share(), 100*raw.OnePly.All.Share(), raw.ValueMSE)
	}
}

// ---- train ----

// trainConfig is a fit's settings.
type trainConfig struct {
	Net         string  `json:"net"`
	Minutes     float64 `json:"minutes"`
	Steps       int64   `json:"steps"`
	Batch       int     `json:"batch"`
	LR          float64 `json:"lr"`
	LRFinal     float64 `json:"lr_final"`
	WeightDecay float64 `json:"weight_decay"`
	ValueWeight float64 `json:"value_weight"`
	Targets     targets `json:"targets"`
	// Layouts is the boards trained on: open, or referee (self-play's mix).
	Layouts string `json:"layouts,omitempty"`
	// Positions is the run whose self-play positions were trained on
	// (empty: uniform over the table), with Labels their targets.
	Positions string `json:"positions,omitempty"`
	Labels    string `json:"labels,omitempty"`
	Seed      uint64 `json:"seed"`
}

// trainStats are what a fit did.
type trainStats struct {
	Config     trainConfig `json:"config"`
	Steps      int64       `json:"steps"`
	Samples    int64       `json:"samples"`
	Skipped    int64       `json:"held_out_skipped"`
	Seconds    float64     `json:"seconds"` // training only, evaluations excluded
	PolicyLoss float64     `json:"policy_loss"`
	ValueLoss  float64     `json:"value_loss"`
	// TargetEntropy is the mean entropy of the policy targets: the
	// policy loss's floor.
	TargetEntropy float64      `json:"target_entropy"`
	Curve         []curvePoint `json:"curve"`
}

// curvePoint is the raw fit at one moment of training.
type curvePoint struct {
	Steps      int64   `json:"steps"`
	Seconds    float64 `json:"seconds"`
	LR         float64 `json:"lr"`
	PolicyLoss float64 `json:"policy_loss"` // mean since the last point
	ValueLoss  float64 `json:"value_loss"`
	// By set: value class right (the network's own rule), policy top
	// move kept.
	Value  map[string]float64 `json:"value"`
	Policy map[string]float64 `json:"policy"`
}

// parseNet reads "mlp:128x3" or "resmlp:128x2".
func parseNet(s string) (kind string, width, depth int, err error) {
	kind, size, ok := strings.Cut(s, ":")
	ws, ds, ok2 := strings.Cut(size, "x")
	if ok && ok2 {
		width, err = strconv.Atoi(ws)
		if err == nil {
			depth, err = strconv.Atoi(ds)
		}
	}
	if !ok || !ok2 || err != nil || (kind != model.KindMLP && kind != model.KindResMLP) {
		return "", 0, 0, fmt.Errorf("--net %q: want KIND:WIDTHxDEPTH with KIND mlp or resmlp, as mlp:128x3", s)
	}
	return kind, width, depth, nil
}

func trainCmd(ctx context.Context, args []string) error {
	fs := flag.NewFlagSet("train", flag.ContinueOnError)
	var c common
	c.register(fs)
	var tc trainConfig
	fs.StringVar(&tc.Net, "net", "mlp:128x3", "network: mlp:WIDTHxDEPTH (Depth dense layers) or resmlp:WIDTHxDEPTH (Depth residual blocks)")
	fs.Float64Var(&tc.Minutes, "minutes", 10, "training time (evaluations excluded); 0: --steps only")
	fs.Int64Var(&tc.Steps, "steps", 0, "optimisation steps; 0: --minutes only")
	fs.IntVar(&tc.Batch, "batch", 256, "positions a step")
	fs.Float64Var(&tc.LR, "lr", 2e-3, "Adam's learning rate at the start; cosine decay to --lr-final over the budget")
	fs.Float64Var(&tc.LRFinal, "lr-final", 4e-5, "learning rate at the end of the budget")
	fs.Float64Var(&tc.WeightDecay, "weight-decay", 1e-4, "L2 weight decay (the trainer's default)")
	fs.Float64Var(&tc.ValueWeight, "value-weight", 4, "weight of the value loss against the policy's (the trainer's default config: 4)")
	fs.StringVar(&tc.Targets.Value, "value", ValueExact, "value target: exact (+1, 0, -1) or discounted (self-play's scale: +-discount^(plies-1))")
	fs.StringVar(&tc.Targets.Policy, "policy", PolicyKeep, "policy target: keep (uniform over value-keeping moves) or best (uniform over the moves of the best exact value: shortest wins, longest losses)")
	fs.StringVar(&tc.Layouts, "layouts", LayoutsOpen, "boards to train on: open (the held-out sets' board) or referee (self-play's mix of 16 layouts, a third open; needs their tables, see --layout-tables)")
	poolRun := fs.String("positions-from", "", "a run folder: draw training positions from its self-play shards' open-board positions instead of uniformly from the table")
	poolShards := fs.Int("positions-shards", 0, "with --positions-from: the last N shards only (0: all)")
	fs.StringVar(&tc.Labels, "labels", LabelsExact, "with --positions-from: exact (the solver's targets), selfplay (the value and policy self-play taught those positions), selfplay-policy or selfplay-value (that one from self-play, the other exact)")
	layoutDir := fs.String("layout-tables", "checkpoints/ceiling/tables", "folder of the blocked layouts' tables for --layouts referee (go run ./experiments/ceiling layouts lists them)")
	evalEvery := fs.Float64("eval-every", 2, "minutes of training between points of the learning curve (raw heads on the held-out sets)")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if fs.NArg() > 0 {
		return fmt.Errorf("unexpected arguments %v", fs.Args())
	}
	tc.Seed = c.seed
	if tc.Targets.Value == ValueDiscounted {
		tc.Targets.Discount = c.discount
	}
	if err := tc.Targets.check(); err != nil {
		return err
	}
	if tc.Layouts != LayoutsOpen && tc.Layouts != LayoutsReferee {
		return fmt.Errorf("--layouts %q: want %s or %s", tc.Layouts, LayoutsOpen, LayoutsReferee)
	}
	if tc.Minutes <= 0 && tc.Steps <= 0 {
		return fmt.Errorf("give a budget: --minutes or --steps")
	}
	kind, width, depth, err := parseNet(tc.Net)
	if err != nil {
		return err
	}
	if c.name == "" {
		c.name = fmt.Sprintf("%s-%dx%d-%s-%s", kind, width, depth, tc.Targets.Value, tc.Targets.Policy)
		if tc.Layouts != LayoutsOpen {
			c.name += "-" + tc.Layouts
		}
	}
	start := time.Now()
	s, err := load(&c)
	if err != nil {
		return err
	}
	held, err := newHeldOut(s.t)
	if err != nil {
		return err
	}
	g := s.t.Game()
	arch := model.NewArch(kind, width, depth, g)
	w, err := model.NewWeights(arch, rand.New(rand.NewPCG(c.seed, 0x3e16)))
	if err != nil {
		return err
	}
	tr, err := model.NewTrainer(w, tc.Batch, model.NewAdam(tc.WeightDecay))
	if err != nil {
		return err
	}
	tr.SetValueWeight(tc.ValueWeight)
	rule := "nearest"
	if tc.Targets.Value == ValueDiscounted {
		rule = "discounted"
	}
	fmt.Fprintf(os.Stderr, "%s: %s, %d parameters; targets %+v; batch %d, lr %g -> %g, value weight %g; budget %g min / %d steps; %d held-out strings\n",
		c.name, arch, arch.NumParams(), tc.Targets, tc.Batch, tc.LR, tc.LRFinal, tc.ValueWeight, tc.Minutes, tc.Steps, len(held))

	smp := newSampler(s.t, held, tc.Targets, c.seed)
	if *poolRun != "" {
		switch tc.Labels {
		case LabelsExact, LabelsSelfplay, LabelsSelfplayPolicy, LabelsSelfplayValue:
		default:
			return fmt.Errorf("--labels %q: want %s, %s, %s or %s", tc.Labels, LabelsExact, LabelsSelfplay, LabelsSelfplayPolicy, LabelsSelfplayValue)
		}
		if smp.pool, err = loadPool(s.t, held, *poolRun, *poolShards); err != nil {
			return err
		}
		smp.labels, tc.Positions = tc.Labels, *poolRun
		fmt.Fprintf(os.Stderr, "training on %d open-board self-play positions of %s, %s labels\n", len(smp.pool), *poolRun, tc.Labels)
	} else {
		tc.Labels = ""
	}
	if tc.Layouts == LayoutsReferee {
		if smp.layouts, err = loadLayouts(s.t, *layoutDir); err != nil {
			return err
		}
	}
	b := newBatch(tc.Batch, g.InputShape().Size(), g.ActionSize())
	stats := &trainStats{Config: tc}
	var trained time.Duration // training time, evaluations excluded
	var sumP, sumV, sumH float64
	var sinceP, sinceV float64
	var since int
	nextEval := time.Duration(*evalEvery * float64(time.Minute))
	frac := func(step int64) float64 {
		f := 0.0
		if tc.Minutes > 0 {
			f = trained.Minutes() / tc.Minutes
		}
		if tc.Steps > 0 {
			f = max(f, float64(step)/float64(tc.Steps))
		}
		return min(f, 1)
	}
	curvePointNow := func(step int64, lr float64) error {
		cur := tr.Weights()
		pt := curvePoint{Steps: step, Seconds: trained.Seconds(), LR: lr, Value: map[string]float64{}, Policy: map[string]float64{}}
		if since > 0 {
			pt.PolicyLoss, pt.ValueLoss = sinceP/float64(since), sinceV/float64(since)
		}
		line := fmt.Sprintf("step %7d  %5.1f min  lr %.1e  loss p %.3f v %.3f ", step, trained.Minutes(), lr, pt.PolicyLoss, pt.ValueLoss)
		for _, set := range append(append([]string(nil), setNames...), "uniform") {
			raw, err := measureRaw(cur, s.probes[set], s.th)
			if err != nil {
				return err
			}
			v := raw.ValueNearest
			if rule == "discounted" {
				v = raw.ValueDiscounted
			}
			pt.Value[set], pt.Policy[set] = v.All.Share(), raw.Policy.All.Share()
			line += fmt.Sprintf(" | %s v %.1f%% p %.1f%%", set, 100*pt.Value[set], 100*pt.Policy[set])
		}
		fmt.Fprintln(os.Stderr, line)
		stats.Curve = append(stats.Curve, pt)
		sinceP, sinceV, since = 0, 0, 0
		return nil
	}
	var step int64
	for ; frac(step) < 1; step++ {
		if ctx.Err() != nil {
			fmt.Fprintln(os.Stderr, "interrupted: measuring the network as it is")
			break
		}
		t0 := time.Now()
		if err := smp.fill(b); err != nil {
			return err
		}
		for i := 0; i < b.Size; i++ {
			sumH += entropy(b.Policy[i*g.ActionSize() : (i+1)*g.ActionSize()])
		}
		lr := tc.LRFinal + 0.5*(tc.LR-tc.LRFinal)*(1+math.Cos(math.Pi*frac(step)))
		l, err := tr.Step(b, lr)
		if err != nil {
			return fmt.Errorf("step %d: %w", step, err)
		}
		trained += time.Since(t0)
		sumP += l.Policy
		sumV += l.Value
		sinceP += l.Policy
		sinceV += l.Value
		since++
		if trained >= nextEval {
			if err := curvePointNow(step+1, lr); err != nil {
				return err
			}
			nextEval += time.Duration(*evalEvery * float64(time.Minute))
		}
	}
	if err := curvePointNow(step, tc.LRFinal); err != nil {
		return err
	}
	stats.Steps, stats.Samples, stats.Skipped, stats.Seconds = step, smp.Drawn-smp.Skipped, smp.Skipped, trained.Seconds()
	if step > 0 {
		stats.PolicyLoss, stats.ValueLoss = stats.Curve[len(stats.Curve)-1].PolicyLoss, stats.Curve[len(stats.Curve)-1].ValueLoss
		stats.TargetEntropy = sumH / float64(step*int64(tc.Batch))
	}
	fmt.Fprintf(os.Stderr, "trained %d steps (%d positions, %.0f a second; %d held-out draws skipped) in %.1f min; mean policy loss %.3f (target entropy %.3f), value loss %.3f\n",
		step, stats.Samples, float64(stats.Samples)/trained.Seconds(), stats.Skipped, trained.Minutes(), sumP/float64(max(step, 1)), stats.TargetEntropy, sumV/float64(max(step, 1)))

	fitted := tr.Weights()
	if err := os.MkdirAll(c.out, 0o755); err != nil {
		return err
	}
	wpath := filepath.Join(c.out, c.name+".weights.msgpack")
	nf := &model.NetFile{Game: games.Spec{Name: "slider", Size: s.t.Size(), Blocked: "none", First: "H"}, Weights: fitted, Steps: step, Positions: stats.Samples}
	if err := store.Write(wpath, model.KindWeights, model.FormatVersion, nf); err != nil {
		return err
	}
	fmt.Fprintf(os.Stderr, "wrote %s (loads as net:checkpoint=%s)\n", wpath, wpath)

	r := &Result{Name: c.name, Source: "supervised", Arch: arch.String(), Params: arch.NumParams(), Train: stats,
		Thresholds: s.th, ValueRule: rule, SearchWith: s.search, Machine: thisMachine(), Date: time.Now().UTC()}
	err = measureAll(ctx, &c, s, r, fitted, func(sims int) accuracy.Factory {
		cfg := s.search
		cfg.Sims = sims
		return searchFactory(c.name, fitted, g, cfg)
	})
	if err != nil {
		return err
	}
	printRaw(r)
	r.Seconds = time.Since(start).Seconds()
	return writeResult(&c, r)
}

func entropy(p []float32) float64 {
	h := 0.0
	for _, x := range p {
		if x > 0 {
			h -= float64(x) * math.Log(float64(x))
		}
	}
	return h
}

// ---- measure ----

func measureCmd(ctx context.Context, args []string) error {
	fs := flag.NewFlagSet("measure", flag.ContinueOnError)
	var c common
	c.register(fs)
	file := fs.String("player", "", "a player file (sliderzero export): measured with its own search settings, budget replaced by --sims")
	weights := fs.String("weights", "", "a weights or checkpoint file (a fit's NAME.weights.msgpack): searched with --search-from's settings")
	rule := fs.String("value-rule", "discounted", "threshold the tables show for this network's value: nearest (exact targets) or discounted (self-play's)")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if (*file == "") == (*weights == "") {
		return fmt.Errorf("give one of --player and --weights")
	}
	if *rule != "nearest" && *rule != "discounted" {
		return fmt.Errorf("--value-rule %q: want nearest or discounted", *rule)
	}
	start := time.Now()
	s, err := load(&c)
	if err != nil {
		return err
	}
	g := s.t.Game()
	r := &Result{Thresholds: s.th, ValueRule: *rule, Machine: thisMachine(), Date: time.Now().UTC()}
	var w *model.Weights
	var factory func(sims int) accuracy.Factory
	if *file != "" {
		pf, err := player.LoadPlayerFile(*file)
		if err != nil {
			return err
		}
		w, r.Source, r.SearchWith = pf.Weights, *file, pf.Search
		r.SearchWith.Time = 0
		// The same player as the spec player:FILE,sims=N builds (and
		// sliderzero accuracy measures), through the same factory as the
		// fitted networks.
		factory = func(sims int) accuracy.Factory {
			cfg := r.SearchWith
			cfg.Sims = sims
			return searchFactory(fmt.Sprintf("player:%s,sims=%d", *file, sims), w, g, cfg)
		}
	} else {
		nf, err := model.LoadNetFile(*weights)
		if err != nil {
			return err
		}
		w, r.Source, r.SearchWith = nf.Weights, *weights, s.search
		factory = func(sims int) accuracy.Factory {
			cfg := s.search
			cfg.Sims = sims
			return searchFactory(*weights, w, g, cfg)
		}
	}
	if err := w.Arch.CheckGame(g); err != nil {
		return err
	}
	r.Arch, r.Params = w.Arch.String(), w.Arch.NumParams()
	if c.name == "" {
		c.name = strings.TrimSuffix(strings.TrimSuffix(filepath.Base(r.Source), ".msgpack"), filepath.Ext(r.Source))
		if *weights != "" {
			c.name = strings.TrimSuffix(c.name, ".weights") + "-remeasured"
		}
	}
	r.Name = c.name
	fmt.Fprintf(os.Stderr, "%s: %s (%s, %d parameters); search %+v\n", r.Name, r.Source, r.Arch, r.Params, r.SearchWith)
	if err := measureAll(ctx, &c, s, r, w, factory); err != nil {
		return err
	}
	printRaw(r)
	r.Seconds = time.Since(start).Seconds()
	return writeResult(&c, r)
}

// ---- report ----

func reportCmd(args []string) error {
	fs := flag.NewFlagSet("report", flag.ContinueOnError)
	out := fs.String("out", "checkpoints/ceiling", "folder of results (NAME.json)")
	if err := fs.Parse(args); err != nil {
		return err
	}
	paths, err := filepath.Glob(filepath.Join(*out, "*.json"))
	if err != nil {
		return err
	}
	var rs []*Result
	for _, p := range paths {
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		var r Result
		if err := json.Unmarshal(b, &r); err != nil {
			return fmt.Errorf("%s: %w", p, err)
		}
		rs = append(rs, &r)
	}
	if len(rs) == 0 {
		return fmt.Errorf("no results in %s", *out)
	}
	// Fitted networks first, by parameters; measured files last.
	sort.SliceStable(rs, func(i, j int) bool {
		if (rs[i].Train == nil) != (rs[j].Train == nil) {
			return rs[i].Train != nil
		}
		if rs[i].Params != rs[j].Params {
			return rs[i].Params < rs[j].Params
		}
		return rs[i].Name < rs[j].Name
	})
	var budgets []string
	seen := map[string]bool{}
	for _, r := range rs {
		for n := range r.Search {
			if !seen[n] {
				seen[n] = true
				budgets = append(budgets, n)
			}
		}
	}
	sort.Slice(budgets, func(i, j int) bool {
		a, _ := strconv.Atoi(budgets[i])
		b, _ := strconv.Atoi(budgets[j])
		return a < b
	})
	pct := func(t accuracy.Tally) string {
		if t.Total == 0 {
			return "-"
		}
		return fmt.Sprintf("%.1f", 100*t.Share())
	}
	for _, set := range setNames {
		fmt.Printf("\n**%s** (held out)\n\n", set)
		fmt.Print("| network | params | training | value class | policy top | value 1-ply |")
		for _, n := range budgets {
			fmt.Printf(" search %s |", n)
		}
		fmt.Print("\n|---|---:|---|---:|---:|---:|")
		fmt.Println(strings.Repeat("---:|", len(budgets)))
		for _, r := range rs {
			raw := r.Raw[set]
			v := raw.ValueNearest
			if r.ValueRule == "discounted" {
				v = raw.ValueDiscounted
			}
			training := "self-play (shipped)"
			if r.Train != nil {
				tc := r.Train.Config
				training = fmt.Sprintf("%s/%s, %.0f min, %.1fM pos", tc.Targets.Value, tc.Targets.Policy, r.Train.Seconds/60, float64(r.Train.Samples)/1e6)
				if tc.Layouts == LayoutsReferee {
					training += ", referee layouts"
				}
			}
			fmt.Printf("| %s | %d | %s | %s | %s | %s |", r.Name, r.Params, training, pct(v.All), pct(raw.Policy.All), pct(raw.OnePly.All))
			for _, n := range budgets {
				fmt.Printf(" %s |", pct(r.Search[n][set].All))
			}
			fmt.Println()
		}
	}
	fmt.Println("\n**uniform** (5000 positions drawn uniformly from the table, critical or not: the fit on the training distribution)")
	fmt.Println()
	fmt.Println("| network | value class | value mse | value class won / drawn / lost | policy top |")
	fmt.Println("|---|---:|---:|---|---:|")
	for _, r := range rs {
		raw := r.Raw["uniform"]
		v := raw.ValueNearest
		if r.ValueRule == "discounted" {
			v = raw.ValueDiscounted
		}
		fmt.Printf("| %s | %s | %.3f | %s / %s / %s | %s |\n", r.Name, pct(v.All), raw.ValueMSE, pct(v.Won), pct(v.Drawn), pct(v.Lost), pct(raw.Policy.All))
	}
	fmt.Println("\n**by result** (real-games / random; won and drawn positions)")
	fmt.Println()
	fmt.Println("| network | policy top won | policy top drawn | search 800 won | search 800 drawn |")
	fmt.Println("|---|---|---|---|---|")
	for _, r := range rs {
		var cells []string
		for _, get := range []func(set string) string{
			func(set string) string { return pct(r.Raw[set].Policy.Won) },
			func(set string) string { return pct(r.Raw[set].Policy.Drawn) },
			func(set string) string { return pct(r.Search["800"][set].Won) },
			func(set string) string { return pct(r.Search["800"][set].Drawn) },
		} {
			cells = append(cells, get(accuracy.RealGames)+" / "+get(accuracy.Random))
		}
		fmt.Printf("| %s | %s |\n", r.Name, strings.Join(cells, " | "))
	}
	return nil
}

func init() {
	// The table is 240 MB in memory and garbage is small: collect less
	// often.
	debug.SetGCPercent(200)
}

// ---- layouts ----

// loadLayouts reads the table of every layout the referee draws, the
// open board's being t.
func loadLayouts(t *solver.Table, dir string) (map[uint64]*solver.Table, error) {
	out := map[uint64]*solver.Table{}
	t0 := time.Now()
	for _, cells := range refereeLayouts(t.Size()) {
		if len(cells) == 0 {
			out[0] = t
			continue
		}
		path := layoutFile(dir, t.Size(), cells)
		lt, err := solver.Read(path)
		if err != nil {
			return nil, fmt.Errorf("%w (solve the layouts: bash experiments/ceiling/run.sh layouts)", err)
		}
		if blockedKey(lt.Blocked()) != blockedKey(cells) {
			return nil, fmt.Errorf("%s is the table of %s", path, lt.Describe())
		}
		out[blockedKey(cells)] = lt
	}
	fmt.Fprintf(os.Stderr, "loaded the tables of %d layouts in %.0fs\n", len(out), time.Since(t0).Seconds())
	return out, nil
}

func layoutsCmd(args []string) error {
	fs := flag.NewFlagSet("layouts", flag.ContinueOnError)
	dir := fs.String("layout-tables", "checkpoints/ceiling/tables", "folder of the layouts' tables")
	size := fs.Int("size", 5, "board size")
	if err := fs.Parse(args); err != nil {
		return err
	}
	for _, cells := range refereeLayouts(*size)[1:] {
		fmt.Println(slider.FormatCells(cells), layoutFile(*dir, *size, cells))
	}
	return nil
}
