package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/sliderzero/sliderzero/env"
	"github.com/sliderzero/sliderzero/env/games"
	"github.com/sliderzero/sliderzero/mcts"
	"github.com/sliderzero/sliderzero/model"
	"github.com/sliderzero/sliderzero/player"
	"github.com/sliderzero/sliderzero/store"
	"github.com/sliderzero/sliderzero/train/runfolder"
)

const exportAbout = `Turns a checkpoint (or a run's weights.msgpack) into a player file: one
versioned, checksummed file with the game and its configuration, the
network's weights (no optimiser state), default search settings and the
training metadata (steps, games, date, and the Elo last measured against
the training ladder, if any). Use it anywhere a player spec is accepted as
player:FILE (play, match, tournament, engine), or from Go with
player.Open.

--format safetensors instead writes the network alone as a safetensors
file (from a checkpoint, weights file or player file), with the game, its
input encoding in words and the layer list in its metadata, for programs
outside the project: examples/python/run.py runs one with Python's
standard library alone.

Given a player file as --checkpoint, it writes a copy with the search
defaults that --sims, --time, --gumbel and --cpuct set and the file's own
for the rest (the network and its training record unchanged).

Example: sliderzero export --checkpoint checkpoints/slider5/checkpoint.msgpack --out slider5.player
         sliderzero export --checkpoint checkpoints/connect4.player --format safetensors --out connect4.safetensors
         sliderzero export --checkpoint checkpoints/slider-5x5.player --sims 51200 --out slider-5x5-slow.player`

func runExport(ctx context.Context, args []string, io stdio) error {
	fs := flag.NewFlagSet("export", flag.ContinueOnError)
	ck := fs.String("checkpoint", "", "checkpoint.msgpack or weights.msgpack of a run")
	out := fs.String("out", "", "the player file to write")
	sims := fs.Int("sims", 200, "default simulations per move")
	movetime := fs.String("time", "", "default time per move instead of simulations (e.g. 1s)")
	gumbel := fs.Bool("gumbel", false, "search with Gumbel root search by default")
	cpuct := fs.Float64("cpuct", mcts.DefaultParams().CPUCT, "default exploration constant of the PUCT search (how much the prior counts against the value)")
	game := fs.String("game", "", "check that the checkpoint is of this game ("+strings.Join(games.Names(), ", ")+"); the file says which it is")
	format := fs.String("format", "player", "what to write: player (a player file) or safetensors (the network alone, for other languages)")
	if err := parseFlags(fs, args, io, exportAbout); err != nil {
		return ignoreHelp(err)
	}
	if *ck == "" || *out == "" {
		return usageError{fmt.Errorf("export: --checkpoint and --out are required")}
	}
	if err := checkWritable(*out); err != nil {
		return fmt.Errorf("export: %w", err)
	}
	switch *format {
	case "player":
	case "safetensors":
		return exportSafetensors(*ck, *out, *game, io)
	default:
		return usageError{fmt.Errorf("export: --format %s: want player or safetensors", env.Quote(*format))}
	}
	if !(*cpuct > 0) {
		return usageError{fmt.Errorf("export: --cpuct %g: want a positive number", *cpuct)}
	}
	set := map[string]bool{}
	fs.Visit(func(f *flag.Flag) { set[f.Name] = true })
	search := mcts.DefaultParams()
	pf, err := player.LoadPlayerFile(*ck)
	if err == nil { // a player file: its defaults, less what the flags set
		search = pf.Search
		if *game != "" && pf.Game.Name != *game {
			return fmt.Errorf("export: %s is a %s player, not %s", *ck, pf.Game.Name, *game)
		}
	}
	if pf == nil || set["sims"] {
		search.Sims, search.Time = *sims, 0
	}
	if pf == nil || set["gumbel"] {
		search.Gumbel = *gumbel
	}
	if pf == nil || set["cpuct"] {
		search.CPUCT = *cpuct
	}
	if *movetime != "" {
		d, err := player.ParseSeconds(*movetime)
		if err != nil {
			return fmt.Errorf("--time: %w", err)
		}
		search.Sims, search.Time = 0, d
	}
	if search.Sims < 1 && search.Time < time.Millisecond {
		return usageError{fmt.Errorf("export: the default search needs --sims of at least 1 or a --time")}
	}
	if pf != nil {
		pf.Search = search
		if err := player.Rewrite(pf, *out); err != nil {
			return fmt.Errorf("export: %w", err)
		}
		return exported(io, *out, pf)
	}
	// The Elo of the run's last evaluation, when the checkpoint is in a run.
	var elo *float64
	if ms, err := runfolder.ReadMetrics(filepath.Dir(*ck)); err == nil {
		for i := len(ms) - 1; i >= 0; i-- {
			if ms[i].Elo != nil {
				elo = ms[i].Elo
				break
			}
		}
	}
	if *game != "" {
		f, err := model.LoadNetFile(*ck)
		if err != nil {
			return err
		}
		if f.Game.Name != *game {
			return fmt.Errorf("export: %s is a %s checkpoint, not %s", *ck, f.Game.Name, *game)
		}
	}
	pf, err = player.Export(*ck, *out, search, elo)
	if err != nil {
		return err
	}
	return exported(io, *out, pf)
}

// exported says what export wrote.
func exported(io stdio, out string, pf *player.PlayerFile) error {
	st, _ := os.Stat(out)
	fmt.Fprintf(io.out, "player written: %s (%d KB): %s, %s, step %d, %d games", out, st.Size()/1024,
		pf.Game, pf.Weights.Arch, pf.Steps, pf.Games)
	if pf.Elo != nil {
		fmt.Fprintf(io.out, ", Elo %+.0f", *pf.Elo)
	}
	budget := fmt.Sprintf("%d simulations", pf.Search.Sims)
	if pf.Search.Time > 0 {
		budget = pf.Search.Time.String()
	}
	fmt.Fprintf(io.out, "; searches %s a move by default\n", budget)
	return nil
}

// exportSafetensors writes the network of a checkpoint, weights file or
// player file as safetensors, with the game and its input in words.
func exportSafetensors(from, out, gameName string, io stdio) error {
	var spec games.Spec
	var w *model.Weights
	if f, err := model.LoadNetFile(from); err == nil {
		spec, w = f.Game, f.Weights
	} else if pf, perr := player.LoadPlayerFile(from); perr == nil {
		spec, w = pf.Game, pf.Weights
	} else {
		return fmt.Errorf("export: %w", err)
	}
	if gameName != "" && spec.Name != gameName {
		return fmt.Errorf("export: %s is of %s, not %s", from, spec.Name, gameName)
	}
	g, err := games.New(spec)
	if err != nil {
		return fmt.Errorf("export: %s: %w", from, err)
	}
	specJSON, _ := json.Marshal(spec)
	meta := map[string]string{"game": string(specJSON), "game_description": g.Describe(), "source": filepath.Base(from)}
	if doc, ok := g.(env.InputDoc); ok {
		meta["input"] = doc.InputDoc()
	}
	data, err := w.Safetensors(meta)
	if err != nil {
		return fmt.Errorf("export: %w", err)
	}
	if err := store.WriteAtomic(out, data); err != nil {
		return fmt.Errorf("export: %w", err)
	}
	fmt.Fprintf(io.out, "network written: %s (%d KB, safetensors): %s, %s\n", out, len(data)/1024, g.Describe(), w.Arch)
	return nil
}
