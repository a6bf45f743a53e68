package main

import (
	"context"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/sliderzero/sliderzero/env/registry"
	"github.com/sliderzero/sliderzero/train"

	"github.com/sliderzero/sliderzero/train/report"
	"github.com/sliderzero/sliderzero/train/runfolder"
)

const reportAbout = `Writes, into a training run's folder, PNG plots of its losses, policy
entropy, Elo against time and against games, score per baseline and speeds,
and report.md, a summary that embeds them and states the configuration,
the machine and the totals.

With --compare, it draws several runs' curves on shared charts instead:
Elo against training time and, where measured, accuracy against perfect
play, into --out (default: the first run's folder).

Example: sliderzero report --run checkpoints/slider5-20261122-062154`

func runReport(ctx context.Context, args []string, io stdio) error {
	fs := flag.NewFlagSet("report", flag.ContinueOnError)
	dir := fs.String("run", "", "the run's folder")
	compare := fs.String("compare", "", "instead: runs' folders, separated by commas, whose Elo curves to draw on one chart")
	out := fs.String("out", "", "with --compare: the folder for the charts (default: the first run's folder)")
	game := fs.String("game", "", "check that the run is of this game ("+strings.Join(registry.Names(), ", ")+"); the run says which it is")
	if err := parseFlags(fs, args, io, reportAbout); err != nil {
		return ignoreHelp(err)
	}
	if *compare != "" {
		dirs := strings.Split(*compare, ",")
		if *out == "" {
			*out = dirs[0]
		}
		files, err := report.Compare(dirs, *out)
		if err != nil {
			return err
		}
		for _, f := range files {
			fmt.Fprintf(io.out, "chart written: %s\n", f)
		}
		return nil
	}
	if *dir == "" {
		return usageError{fmt.Errorf("report: --run DIR is required")}
	}
	if _, err := os.Stat(filepath.Join(*dir, runfolder.MetricsFile)); os.IsNotExist(err) {
		return fmt.Errorf("report: %s holds no run's metrics (no %s): give a run's folder, as train printed it, once a round is done", *dir, runfolder.MetricsFile)
	}
	if *game != "" {
		cfg, err := train.LoadConfig(filepath.Join(*dir, runfolder.ConfigFile))
		if err != nil {
			return err
		}
		if cfg.Game.Name != *game {
			return fmt.Errorf("report: %s is a %s run, not %s", *dir, cfg.Game.Name, *game)
		}
	}
	path, err := report.Write(*dir)
	if err != nil {
		return err
	}
	fmt.Fprintf(io.out, "report written: %s\n", path)
	findings, err := report.Health(*dir)
	for _, f := range findings {
		fmt.Fprintln(io.out, f)
	}
	return err
}
