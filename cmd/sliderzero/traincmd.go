package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"time"

	"github.com/schollz/progressbar/v3"
	"golang.org/x/term"

	"github.com/sliderzero/sliderzero/env/games"
	"github.com/sliderzero/sliderzero/env/registry"
	"github.com/sliderzero/sliderzero/runstore"
	"github.com/sliderzero/sliderzero/train"
	"github.com/sliderzero/sliderzero/train/evaluate"
)

const trainAbout = `Learns a game by self-play. A run lives in a folder (checkpoints/<name>/
by default): config.json, checkpoint.msgpack (written atomically every
checkpoint_minutes and at exit), weights.msgpack (the latest network, for
players), shards/ (the producers' games), weights/ (the networks published
to the producers), snapshots/ and metrics.jsonl. This process's producers
play beside the learner; sliderzero selfplay --run <folder> adds more.

With no flags it trains Slider 5x5 on the built-in configuration for ten
minutes. Stop it any time with Ctrl-C (it saves a checkpoint) or even kill
it: --resume DIR continues from the last checkpoint.

Examples:
  sliderzero train
  sliderzero train --config experiments/slider5/config.json --run slider5
  sliderzero train --resume checkpoints/slider5 --minutes 20
  sliderzero train --preset smoke
  sliderzero train --game catsdogs --minutes 30
  sliderzero train --print-config > my.json`

// trainFlags are train's flags.
type trainFlags struct {
	fs                                         *flag.FlagSet
	gf                                         gameFlags
	configPath, preset, runName, resume        *string
	logFormat, selfplay, shared                *string
	resumeExisting, printConfig, quiet, rounds *bool
	minutes                                    *float64
	storageWait                                *time.Duration
	workers                                    *int
	seed                                       *uint64
}

func (f *trainFlags) register() {
	fs := f.fs
	f.gf.register(fs, true)
	f.configPath = fs.String("config", "", "configuration file (JSON; see --print-config); default: the built-in one")
	f.preset = fs.String("preset", "", "a built-in configuration by name instead of --config: "+presetHelp())
	f.runName = fs.String("run", "", "run folder, or a name for checkpoints/<name> (default: checkpoints/<game><the settings its players learn>-<date>, such as slider5-20250102-150405)")
	f.resume = fs.String("resume", "", "continue the run in this folder from its last checkpoint")
	f.resumeExisting = fs.Bool("resume-existing", false, "with --run: resume the run if the folder holds one, else create it (for services that restart)")
	f.minutes = fs.Float64("minutes", -1, "train this many more minutes (default: the configuration's limit)")
	f.workers = fs.Int("workers", -1, "self-play workers (default: the configuration's, 0 = one per core)")
	f.seed = fs.Uint64("seed", 1, "seed of a new run (when not given: the configuration's, which is 1 in the built-in one)")
	f.printConfig = fs.Bool("print-config", false, "print the configuration (the built-in one, or --config's), with the settings it leaves to the game chosen as a run would, and exit")
	f.quiet = fs.Bool("quiet", false, "no progress bars or log lines")
	f.logFormat = fs.String("log-format", "text", "text (for people: a progress bar on a terminal, a line per evaluation) or json (for programs: every round's metrics and every note, one JSON object a line)")
	f.rounds = fs.Bool("every-round", false, "log a line for every round (by default: on a terminal the progress bar shows the rounds and lines are written for evaluations; elsewhere about one a minute, and every evaluation; metrics.jsonl keeps every round)")
	f.selfplay = fs.String("selfplay", "internal", "internal (this process's producers play, and sliderzero selfplay processes on the run folder may add to them) or external (only sliderzero selfplay processes play; this one learns from their shards)")
	f.shared = fs.String("shared", "", "with --selfplay external: where the producers and the learner meet, a folder or a bucket URL (default: the run folder)")
	f.storageWait = storageWaitVar(fs)
}

func runTrain(ctx context.Context, args []string, io stdio) error {
	f := &trainFlags{fs: flag.NewFlagSet("train", flag.ContinueOnError)}
	f.register()
	if err := parseFlags(f.fs, args, io, trainAbout); err != nil {
		return ignoreHelp(err)
	}
	if err := f.check(); err != nil {
		return err
	}
	notes := io.err
	if *f.quiet {
		notes = nil
	}
	run, examiner, err := f.open(ctx, io, notes)
	if run == nil || err != nil {
		return beforeTraining(err)
	}
	defer run.Close()
	if *f.printConfig {
		_, err := io.out.Write(run.Config().JSON())
		return err
	}
	if err := f.prepare(ctx, run, examiner, io, notes); err != nil {
		return beforeTraining(err)
	}
	if *f.selfplay == "external" {
		st, err := f.useShared(ctx, run, io)
		if err != nil {
			return err
		}
		defer st.Close()
	}
	st := run.State()
	fmt.Fprintf(io.err, "run %s: %s, network %s (%d parameters), step %d, %d games so far\n",
		run.Dir(), run.Game().Describe(), st.Weights.Arch, st.Weights.NumParams(), st.Steps, st.Games)
	err = run.Train(ctx)
	if errors.Is(err, context.Canceled) {
		// Nothing is lost (the checkpoint is saved), but the run did not
		// reach its limit: a script must not go on as if it had.
		return fmt.Errorf("train interrupted; continue with: sliderzero train --resume %s", run.Dir())
	}
	if err == nil {
		whatNext(io.err, run)
	}
	return err
}

// check refuses flags that take no such value, or do not go together.
func (f *trainFlags) check() error {
	if *f.logFormat != "text" && *f.logFormat != "json" {
		return usageError{fmt.Errorf("train: --log-format %q: want text or json", *f.logFormat)}
	}
	var bad error
	f.fs.Visit(func(fl *flag.Flag) {
		switch {
		case fl.Name == "minutes" && *f.minutes < 0, fl.Name == "workers" && *f.workers < 0:
			if bad == nil {
				bad = usageError{fmt.Errorf("train: --%s %s: want a value of at least 0", fl.Name, fl.Value)}
			}
		case fl.Name == "minutes" && *f.minutes > maxMinutes, fl.Name == "workers" && *f.workers > maxParallel:
			if bad == nil {
				bad = usageError{fmt.Errorf("train: --%s %s: want at most %d", fl.Name, fl.Value, map[string]int{"minutes": maxMinutes, "workers": maxParallel}[fl.Name])}
			}
		}
	})
	if bad != nil {
		return bad
	}
	switch {
	case *f.selfplay != "internal" && *f.selfplay != "external":
		return usageError{fmt.Errorf("train: --selfplay %q: want internal or external", *f.selfplay)}
	case *f.selfplay == "internal" && *f.shared != "":
		return usageError{fmt.Errorf("train: --shared needs --selfplay external")}
	case *f.resumeExisting && (*f.runName == "" || *f.resume != ""):
		return fmt.Errorf("train: --resume-existing goes with --run DIR, not --resume")
	}
	return nil
}

// open resumes the run (--resume, or --resume-existing on a folder that
// holds one) or creates it; a new run's accuracy examiner is made before
// its folder. With --print-config on a new run it prints the
// configuration and returns no run.
func (f *trainFlags) open(ctx context.Context, io stdio, notes io.Writer) (*train.Run, evaluate.Examiner, error) {
	if *f.resumeExisting {
		dir := namedRun(*f.runName)
		if _, err := os.Stat(filepath.Join(dir, train.CheckpointFile)); err == nil {
			*f.resume = dir
		}
	}
	if *f.resume != "" {
		conflict := false
		f.fs.Visit(func(fl *flag.Flag) {
			switch {
			case fl.Name == "config", fl.Name == "preset", fl.Name == "run", fl.Name == "seed", f.gf.isGameFlag(fl.Name):
				conflict = conflict || !*f.resumeExisting
			}
		})
		if conflict {
			return nil, nil, fmt.Errorf("train: --resume continues a run with its own configuration; --config, --run, --seed and the game flags do not apply")
		}
		run, err := train.Resume(*f.resume)
		return run, nil, err
	}
	cfg, err := f.config()
	if err != nil || *f.printConfig {
		if err == nil {
			_, err = io.out.Write(cfg.Resolved().JSON())
		}
		return nil, nil, err
	}
	dir := *f.runName
	if dir == "" {
		dir = fmt.Sprintf("%s%s-%s", cfg.Game.Name, learnedValues(cfg.Game), time.Now().Format("20060102-150405"))
	}
	dir = namedRun(dir)
	if err := train.CheckNewFolder(dir); err != nil {
		return nil, nil, err
	}
	// The examiner first: its table may take minutes to solve, and an
	// interrupt then must leave no run folder behind.
	g, err := games.New(cfg.Game)
	if err != nil {
		return nil, nil, err
	}
	examiner, err := newExaminer(ctx, cfg, g, evalWorkers(cfg), notes)
	if err != nil {
		return nil, nil, err
	}
	run, err := train.Create(dir, cfg)
	return run, examiner, err
}

// config is a new run's configuration: the preset's or --config's, with
// the workers, game flags, seed and minutes given.
func (f *trainFlags) config() (train.Config, error) {
	if *f.configPath != "" && *f.preset != "" {
		return train.Config{}, usageError{fmt.Errorf("train: --config and --preset both choose the configuration; give one")}
	}
	cfg, err := train.Preset(*f.preset)
	if err != nil {
		return cfg, usageError{fmt.Errorf("train: --preset: %w", err)}
	}
	if *f.configPath != "" {
		if cfg, err = train.LoadConfig(*f.configPath); err != nil {
			return cfg, err
		}
	}
	if *f.workers >= 0 {
		cfg.Workers = *f.workers
	}
	// Game flags given on the command line replace the configuration's
	// game (the others keep their defaults for that game).
	if f.gameGiven() {
		if err := f.gf.resolve(); err != nil {
			return cfg, err
		}
		cfg = cfg.WithGame(f.gf.spec)
		if err := cfg.Check(); err != nil {
			return cfg, err
		}
	}
	if flagGiven(f.fs, "seed") {
		cfg.Seed = *f.seed
	}
	if *f.minutes >= 0 && !*f.printConfig {
		cfg.Minutes = *f.minutes // so that the run's config.json says so
	}
	return cfg, nil
}

// gameGiven says whether a game flag was given.
func (f *trainFlags) gameGiven() bool {
	given := false
	f.fs.Visit(func(fl *flag.Flag) { given = given || f.gf.isGameFlag(fl.Name) })
	return given
}

// beforeTraining is an error met before training began: an interrupt
// says so (no run folder was left), and the command fails as any
// interrupted command does.
func beforeTraining(err error) error {
	if err != nil && errors.Is(err, context.Canceled) {
		return fmt.Errorf("train interrupted before training began")
	}
	return err
}

// prepare sets the run's limits, its log and progress, its players and
// its examiner (made now for a resumed run).
func (f *trainFlags) prepare(ctx context.Context, run *train.Run, examiner evaluate.Examiner, io stdio, notes io.Writer) error {
	if *f.minutes >= 0 {
		c := run.Config()
		run.SetLimits(run.State().Elapsed/60+*f.minutes, c.Steps, c.Games)
	}
	if *f.logFormat == "json" && !*f.quiet {
		run.Log, run.JSON = io.err, true
	}
	if !*f.quiet && !run.JSON {
		prog := newProgress(io.err)
		run.Log, run.Progress = prog.lines(), prog
		switch {
		case *f.rounds:
		case prog.tty:
			// The bar shows the rounds; lines are for evaluations.
			run.RoundLinesEvery = -1
		default:
			run.RoundLinesEvery = time.Minute
		}
	}
	if run.Finished() {
		return fmt.Errorf("train: %s has reached its limit (%.1f training minutes, step %d, %d games); add --minutes M to train longer",
			run.Dir(), run.State().Elapsed/60, run.State().Steps, run.State().Games)
	}
	run.Players = new(tables).players()
	if examiner == nil {
		var err error
		if examiner, err = newExaminer(ctx, run.Config(), run.Game(), evalWorkers(run.Config()), notes); err != nil {
			return err
		}
	}
	run.Examiner = examiner
	return nil
}

// useShared makes the run learn from external self-play's shards in --shared (else the run's folder).
func (f *trainFlags) useShared(ctx context.Context, run *train.Run, io stdio) (*runstore.Store, error) {
	loc := namedRun(*f.shared)
	if loc == "" {
		loc = run.Dir()
	}
	st, err := runstore.Open(ctx, loc)
	if err != nil {
		return nil, err
	}
	st.WaitForStorage(*f.storageWait, io.err)
	if err := run.UseSharedStorage(ctx, st); err != nil {
		st.Close()
		return nil, err
	}
	fmt.Fprintf(io.err, "training from the shards of external self-play in %s (start it with: sliderzero selfplay --run %s)\n", loc, loc)
	return st, nil
}

// evalWorkers is the games an evaluation plays at once: the run's
// workers, or every core.
func evalWorkers(cfg train.Config) int {
	if cfg.Workers == 0 {
		return runtime.NumCPU()
	}
	return cfg.Workers
}

// whatNext tells a user whose run ended the commands that use what it
// learned.
func whatNext(w io.Writer, run *train.Run) {
	dir, name := run.Dir(), filepath.Base(run.Dir())
	flags := gameFlagsOf(run.Config().Game)
	fmt.Fprintf(w, `the run is over. Next:
  its curves:  sliderzero report --run %[1]s
  a player:    sliderzero export --checkpoint %[1]s/checkpoint.msgpack --out %[2]s.player
  play it:     sliderzero play%[3]s --p1 human --p2 player:%[2]s.player
  measure it:  sliderzero match%[3]s --a player:%[2]s.player --b alphabeta:time=0.1 --games 100
  train on:    sliderzero train --resume %[1]s --minutes 10
`, dir, name, flags)
}

// gameFlagsOf writes a game spec as the flags that choose it for its
// players: the game and the settings a player learns (those of its input
// alone not: a player sees any game of its rules through its own input).
func gameFlagsOf(spec registry.Spec) string {
	s := " --game " + spec.Name
	opts, _ := games.Options(spec.Name)
	for _, o := range opts {
		if v := spec.Text(o.Key); o.Learned && !o.Input && v != "" {
			s += " --" + o.Key + " " + v
		}
	}
	return s
}

// learnedValues are the values of the settings a player of spec learns,
// for a run's name ("slider5"): a run's players play that game only.
func learnedValues(spec registry.Spec) string {
	var vals []string
	opts, _ := games.Options(spec.Name)
	for _, o := range opts {
		if v := spec.Text(o.Key); o.Learned && v != "" {
			vals = append(vals, v)
		}
	}
	return strings.Join(vals, "x")
}

// progress draws the phase at work as a bar on a terminal; elsewhere it
// stays quiet and the run's log lines tell the story. Phases nest: the
// run's own bar gives way to an evaluation's and comes back after it.
type progress struct {
	w        io.Writer
	tty      bool
	throttle time.Duration // between redraws of a bar
	phases   []*phase
}

// phase is one bar and what it has counted, to draw it again.
type phase struct {
	name, unit, note string
	total, done      int
	bar              *progressbar.ProgressBar
}

func newProgress(w io.Writer) *progress {
	p := &progress{w: w, throttle: 100 * time.Millisecond}
	if f, ok := w.(*os.File); ok && term.IsTerminal(int(f.Fd())) {
		p.tty = true
	}
	return p
}

// draw starts ph's bar where ph stands.
func (p *progress) draw(ph *phase) {
	if !p.tty {
		return
	}
	opts := []progressbar.Option{
		progressbar.OptionSetWriter(p.w),
		progressbar.OptionSetDescription(ph.label()),
		progressbar.OptionSetWidth(20),
		progressbar.OptionThrottle(p.throttle),
		progressbar.OptionClearOnFinish(),
	}
	if ph.unit == "" {
		// A share of the run: the label says the time done and left.
		opts = append(opts, progressbar.OptionSetPredictTime(false), progressbar.OptionShowElapsedTimeOnFinish())
	} else {
		opts = append(opts, progressbar.OptionShowCount(), progressbar.OptionShowIts(), progressbar.OptionSetItsString(ph.unit))
	}
	ph.bar = progressbar.NewOptions(ph.total, opts...)
	ph.bar.Set(ph.done)
}

func (ph *phase) label() string {
	if ph.note == "" {
		return ph.name
	}
	return ph.name + ": " + ph.note
}

// lines is a writer for log lines among the bars: the bar at work is
// cleared for each write and drawn again below it.
func (p *progress) lines() io.Writer { return lineWriter{p} }

type lineWriter struct{ p *progress }

func (l lineWriter) Write(b []byte) (int, error) {
	n := len(l.p.phases)
	if n == 0 || l.p.phases[n-1].bar == nil {
		return l.p.w.Write(b)
	}
	top := l.p.phases[n-1]
	top.bar.Clear()
	k, err := l.p.w.Write(b)
	l.p.draw(top)
	return k, err
}

func (p *progress) Phase(name, unit string, total int) {
	if n := len(p.phases); n > 0 && p.phases[n-1].bar != nil {
		p.phases[n-1].bar.Clear()
	}
	ph := &phase{name: name, unit: unit, total: total}
	p.phases = append(p.phases, ph)
	p.draw(ph)
}

func (p *progress) Add(n int, note string) {
	if len(p.phases) == 0 {
		return
	}
	ph := p.phases[len(p.phases)-1]
	ph.done += n
	if note != "" {
		ph.note = note
		if ph.bar != nil {
			ph.bar.Describe(ph.label())
		}
	}
	if ph.bar != nil {
		ph.bar.Add(n)
	}
}

func (p *progress) Done() {
	n := len(p.phases)
	if n == 0 {
		return
	}
	if ph := p.phases[n-1]; ph.bar != nil {
		ph.bar.Finish()
	}
	p.phases = p.phases[:n-1]
	if n > 1 {
		p.draw(p.phases[n-2])
	}
}

// namedRun is where a run given by name lives: a bare name (no folder, not
// a URL) is checkpoints/<name>, the same for train, its --shared and
// selfplay, so that the processes of one run find each other by its name.
func namedRun(loc string) string {
	if loc == "" || loc == "." || loc == ".." || strings.Contains(loc, "://") || filepath.Base(loc) != loc {
		return loc
	}
	return filepath.Join("checkpoints", loc)
}

// presetHelp lists the presets for --help.
func presetHelp() string {
	var parts []string
	for _, p := range train.Presets {
		parts = append(parts, p.Name+" ("+p.About+")")
	}
	return strings.Join(parts, "; ")
}
