package main

import (
	"context"
	"fmt"
	"time"

	"github.com/sliderzero/sliderzero/env/games"
	"github.com/sliderzero/sliderzero/model"
	"github.com/sliderzero/sliderzero/model/learn"
	"github.com/sliderzero/sliderzero/train"
)

// benchLearn prints the training step's speed, Gorgonia's own graph
// against the fused one, for the default network of the game flags'
// game, its residual form and a convolutional trunk.
func benchLearn(ctx context.Context, io stdio, gf gameFlags, d time.Duration) error {
	cfg := train.DefaultConfig()
	cfg.Game = gf.spec
	g, err := games.New(cfg.Game)
	if err != nil {
		return err
	}
	def := cfg.Net.Arch(g)
	archs := []model.Arch{def, model.NewArch(model.KindResMLP, def.Width, def.Depth, g), model.NewArch(model.KindConv, 32, 2, g)}
	peak := model.PeakMACs(d)
	fmt.Fprintf(io.out, "training step on one core, %s kernels; default batch %d\n", model.Kernels(), cfg.BatchSize)
	type row struct {
		arch      model.Arch
		graph     string
		batch     int
		rate, ref float64
	}
	var rows []row
	for _, a := range archs {
		ref, err := learn.StepSpeed(a, cfg.BatchSize, true, d)
		if err != nil {
			return err
		}
		rows = append(rows, row{a, "gorgonia", cfg.BatchSize, ref, ref})
		for _, batch := range []int{64, 128, 256, 512} {
			if ctx.Err() != nil {
				return ctx.Err()
			}
			rate, err := learn.StepSpeed(a, batch, false, d)
			if err != nil {
				return err
			}
			rows = append(rows, row{a, "fused", batch, rate, ref})
		}
	}
	if after := model.PeakMACs(d); peak > 0 && after > 0 {
		fmt.Fprintf(io.out, "one core's multiply-add peak %.1f GMAC/s before, %.1f after\n", peak/1e9, after/1e9)
		peak = (peak + after) / 2
	}
	fmt.Fprintf(io.out, "%-44s %-9s %6s %12s %8s %8s\n", "network", "graph", "batch", "samples/s", "ratio", "peak")
	for _, r := range rows {
		share := "-"
		if peak > 0 {
			share = fmt.Sprintf("%.1f%%", 100*r.rate*float64(learn.StepMACs(r.arch))/peak)
		}
		fmt.Fprintf(io.out, "%-44s %-9s %6d %12.0f %7.2fx %8s\n", r.arch, r.graph, r.batch, r.rate, r.rate/r.ref, share)
	}
	return nil
}
