// The measure, report and layouts commands.

package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"runtime/debug"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/sliderzero/sliderzero/accuracy"
	"github.com/sliderzero/sliderzero/env/slider"
	solver "github.com/sliderzero/sliderzero/env/slider/solve"
	"github.com/sliderzero/sliderzero/model"
	"github.com/sliderzero/sliderzero/player"
)

func measureCmd(ctx context.Context, args []string) error {
	fs := flag.NewFlagSet("measure", flag.ContinueOnError)
	var c common
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
