package main

import (
	"context"
	"flag"
	"fmt"

	"github.com/sliderzero/sliderzero/train/report"
)

const reportAbout = `Writes, into a training run's folder, PNG plots of its losses, policy
entropy, Elo against time and against games, score per baseline and speeds,
and report.md, a summary that embeds them and states the configuration,
the machine and the totals.

Example: sliderzero report --run checkpoints/slider5-20261122-062154`

func runReport(ctx context.Context, args []string, io stdio) error {
	fs := flag.NewFlagSet("report", flag.ContinueOnError)
	dir := fs.String("run", "", "the run's folder")
	if err := parseFlags(fs, args, io, reportAbout); err != nil {
		return ignoreHelp(err)
	}
	if *dir == "" {
		return fmt.Errorf("report: --run DIR is required")
	}
	path, err := report.Write(*dir)
	if err != nil {
		return err
	}
	fmt.Fprintf(io.out, "report written: %s\n", path)
	return nil
}
