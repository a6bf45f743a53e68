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
	"github.com/sliderzero/sliderzero/env/registry"
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

Its default search is the search's defaults with 200 simulations, and
whatever the search flags set: one flag for each search setting, named as
in a player spec (--sims, --time, --c_puct, --gumbel ...; --cpuct is
c_puct's old name). Given a player file as --checkpoint, it writes a copy
with the search defaults those flags set and the file's own for the rest
(the network and its training record unchanged).

Example: sliderzero export --checkpoint checkpoints/slider5/checkpoint.msgpack --out slider5.player
         sliderzero export --checkpoint checkpoints/connect4.player --format safetensors --out connect4.safetensors
         sliderzero export --checkpoint checkpoints/slider-5x5.player --sims 51200 --out slider-5x5-slow.player`

func runExport(ctx context.Context, args []string, io stdio) error {
	fs := flag.NewFlagSet("export", flag.ContinueOnError)
	ck := fs.String("checkpoint", "", "checkpoint.msgpack or weights.msgpack of a run")
	out := fs.String("out", "", "the player file to write")
	settings := searchFlags(fs)
	game := fs.String("game", "", "check that the checkpoint is of this game ("+strings.Join(registry.Names(), ", ")+"); the file says which it is")
	format := fs.String("format", "player", "what to write: player (a player file) or safetensors (the network alone, for other languages)")
	force := forceVar(fs)
	if err := parseFlags(fs, args, io, exportAbout); err != nil {
		return ignoreHelp(err)
	}
	if err := exportTargets(*ck, *out, *force); err != nil {
		return err
	}
	switch *format {
	case "player":
	case "safetensors":
		return exportSafetensors(*ck, *out, *game, io)
	default:
		return usageError{fmt.Errorf("export: --format %s: want player or safetensors", env.Quote(*format))}
	}
	search := mcts.DefaultParams()
	search.Sims = 200
	pf, err := player.LoadPlayerFile(*ck)
	if err == nil { // a player file: its defaults, less what the flags set
		search = pf.Search
		if *game != "" && pf.Game.Name != *game {
			return fmt.Errorf("export: %s is a %s player, not %s", *ck, pf.Game.Name, *game)
		}
	}
	if search, err = settings.apply(search); err != nil {
		return usageError{fmt.Errorf("export: %w", err)}
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
	if *game != "" {
		f, err := model.LoadNetFile(*ck)
		if err != nil {
			return err
		}
		if f.Game.Name != *game {
			return fmt.Errorf("export: %s is a %s checkpoint, not %s", *ck, f.Game.Name, *game)
		}
	}
	pf, err = player.Export(*ck, *out, search, lastElo(*ck))
	if err != nil {
		return err
	}
	return exported(io, *out, pf)
}

// exportTargets refuses a missing --checkpoint or --out, and an --out
// that must not be written: the checkpoint itself, or a file that exists
// without --force.
func exportTargets(ck, out string, force bool) error {
	if ck == "" || out == "" {
		return usageError{fmt.Errorf("export: --checkpoint and --out are required")}
	}
	if err := checkOutput("--out", out, force, ck); err != nil {
		return fmt.Errorf("export: %w", err)
	}
	return nil
}

// lastElo is the Elo of the last evaluation of the run a checkpoint is
// in, if any.
func lastElo(checkpoint string) *float64 {
	ms, err := runfolder.ReadMetrics(filepath.Dir(checkpoint))
	if err != nil {
		return nil
	}
	for i := len(ms) - 1; i >= 0; i-- {
		if ms[i].Elo != nil {
			return ms[i].Elo
		}
	}
	return nil
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
	spec, w, err := player.LoadNetwork(from)
	if err != nil {
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

// searchSettings are the search settings flags gave, by the setting's
// name, in the order given.
type searchSettings struct{ given [][2]string }

// searchFlags registers a flag for each search setting a player file
// keeps (threads is the machine's, not the file's), named as the setting
// is, and its old names.
func searchFlags(fs *flag.FlagSet) *searchSettings {
	ss := &searchSettings{}
	for _, s := range mcts.Settings() {
		if !s.Play || s.Name == "threads" {
			continue
		}
		names := []string{s.Name}
		for _, o := range s.Old {
			names = append(names, o.Name)
		}
		for i, name := range names {
			usage := "default search: " + s.Help + "; " + s.Range()
			if i > 0 {
				usage = "the old name of --" + s.Name
			}
			keep := func(v string) error {
				ss.given = append(ss.given, [2]string{name, v})
				return nil
			}
			if s.Type == mcts.Switch {
				fs.BoolFunc(name, usage, keep)
			} else {
				fs.Func(name, usage, keep)
			}
		}
	}
	return ss
}

// apply sets the settings given on p, checked; a budget given (sims or
// time) replaces both.
func (ss *searchSettings) apply(p mcts.Params) (mcts.Params, error) {
	var budget mcts.Params
	budgeted := false
	for _, kv := range ss.given {
		s, _, _ := mcts.LookupSetting(kv[0])
		target := &p
		if s.Name == "sims" || s.Name == "time" {
			target, budgeted = &budget, true
		}
		if err := target.Set(kv[0], kv[1]); err != nil {
			return p, fmt.Errorf("--%w", err)
		}
	}
	if budgeted {
		p.Sims, p.Time = budget.Sims, budget.Time
	}
	return p, p.Check()
}
