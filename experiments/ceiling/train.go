// The train command: a supervised fit of one network on exact targets.

package main

import (
	"context"
	"flag"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strconv"
	"time"

	"github.com/sliderzero/sliderzero/accuracy"
	_ "github.com/sliderzero/sliderzero/env/games" // the games, registered
	"github.com/sliderzero/sliderzero/env/registry"
	"github.com/sliderzero/sliderzero/experiments/ceiling/fitspec"
	"github.com/sliderzero/sliderzero/model"
	"github.com/sliderzero/sliderzero/model/learn"
	"github.com/sliderzero/sliderzero/store"
)

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

func trainCmd(ctx context.Context, args []string) error {
	fs := flag.NewFlagSet("train", flag.ContinueOnError)
	var c common
	c.register(fs)
	var tc trainConfig
	fs.StringVar(&tc.Net, "net", "mlp:128x3", "network: mlp:WIDTHxDEPTH (Depth dense layers), resmlp:WIDTHxDEPTH (Depth residual blocks) or conv:CHANNELSxBLOCKS (3x3 convolutions)")
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
	layoutDir := fs.String("layout-tables", "checkpoints/ceiling/tables", "folder of the blocked layouts' tables for --layouts referee (ceiling layouts lists them)")
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
	kind, width, depth, err := fitspec.ParseNet(tc.Net)
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
	tr, err := learn.NewTrainer(w, tc.Batch, learn.NewAdam(tc.WeightDecay))
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
	b := fitspec.NewBatch(tc.Batch, g.InputShape().Size(), g.ActionSize())
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
	nf := &model.NetFile{Game: registry.Spec{Name: "slider"}.With("size", strconv.Itoa(s.t.Size())).With("blocked", "none").With("first", "H"), Weights: fitted, Steps: step, Positions: stats.Samples}
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
