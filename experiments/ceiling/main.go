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
//	go build -C experiments/ceiling # from the repository's root; then
//	experiments/ceiling/ceiling train --net mlp:128x3 --minutes 20
//	experiments/ceiling/ceiling measure --player checkpoints/slider-5x5.player
//	experiments/ceiling/ceiling report
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
	"os"
	"os/signal"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"time"

	"github.com/sliderzero/sliderzero/accuracy"
	solver "github.com/sliderzero/sliderzero/env/slider/solve"
	"github.com/sliderzero/sliderzero/experiments/ceiling/fitspec"
	"github.com/sliderzero/sliderzero/mcts"
	"github.com/sliderzero/sliderzero/model"
	"github.com/sliderzero/sliderzero/player"
	"github.com/sliderzero/sliderzero/store"
)

const usage = `Usage: experiments/ceiling/ceiling COMMAND [flags]
(built by go build -C experiments/ceiling, run from the repository's root)

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

func (c *common) simsList() ([]int, error) { return fitspec.ParseSims(c.sims) }

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
