package main

import (
	"bytes"
	"errors"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"sync"

	"github.com/sliderzero/sliderzero/env"
	"github.com/sliderzero/sliderzero/env/slider"
	"github.com/sliderzero/sliderzero/match"
	"github.com/sliderzero/sliderzero/player"
	"github.com/sliderzero/sliderzero/solver"
	"github.com/sliderzero/sliderzero/store"
)

// tables loads solver tables once per command, however many players use
// them: a 5x5 table takes seconds to read and a quarter of a gigabyte.
type tables struct {
	mu     sync.Mutex
	loaded map[string]*solver.Table
}

func (t *tables) get(path string) (*solver.Table, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	if tab, ok := t.loaded[path]; ok {
		return tab, nil
	}
	tab, err := solver.Read(path)
	if err != nil {
		return nil, err
	}
	if t.loaded == nil {
		t.loaded = map[string]*solver.Table{}
	}
	t.loaded[path] = tab
	return tab, nil
}

// playerKinds are the player kinds the command adds to package player's:
// the solver's perfect player.
func (t *tables) playerKinds() map[string]player.Kind {
	return map[string]player.Kind{"solver": t.solverPlayer}
}

// solverPlayer builds solver:table=FILE (or solver:FILE). Budgets are
// accepted and ignored: a table answers at once.
func (t *tables) solverPlayer(sp player.Spec, g env.Game, seed uint64) (player.Player, error) {
	path := sp.Arg
	for k, v := range sp.Options {
		switch k {
		case "table":
			if path != "" && path != v {
				return nil, fmt.Errorf("player solver: two tables, %s and %s", path, v)
			}
			path = v
		case "time", "visits":
		default:
			return nil, fmt.Errorf("player solver: unknown option %s", k)
		}
	}
	if path == "" {
		return nil, fmt.Errorf("player solver needs a table: solver:table=FILE (make one with sliderzero solve)")
	}
	tab, err := t.get(path)
	if err != nil {
		return nil, fmt.Errorf("player solver: %w", err)
	}
	sg, ok := g.(*slider.Game)
	if !ok {
		return nil, fmt.Errorf("player solver plays Slider, not %s", g.Name())
	}
	cfg := sg.Config()
	if sg.Size() != tab.Size() || cfg.RandomBlocked || slider.FormatCells(cfg.Blocked) != slider.FormatCells(tab.Blocked()) {
		return nil, fmt.Errorf("player solver: the table is for %s; the game is %s", tab.Describe(), g.Describe())
	}
	return solver.NewPlayer(tab, sp.String(), rand.New(rand.NewPCG(seed, 0x501))), nil
}

// factory builds match players with the added kinds.
func (t *tables) factory() match.PlayerFactory {
	kinds := t.playerKinds()
	return func(spec string, g env.Game, seed uint64) (player.Player, error) {
		return player.New(spec, g, player.Options{Seed: seed, Kinds: kinds})
	}
}

// checkRecords refuses, before any game is played, to overwrite a records
// file unless told to append to it.
func checkRecords(path string, appendTo bool) error {
	if path == "" {
		return nil
	}
	if fi, err := os.Stat(filepath.Dir(path)); err != nil || !fi.IsDir() {
		return fmt.Errorf("--records %s: the folder %s does not exist", path, filepath.Dir(path))
	}
	if appendTo {
		return nil
	}
	if _, err := os.Stat(path); err == nil {
		return fmt.Errorf("--records %s exists; give --append to add the games to it, or name another file", path)
	}
	return nil
}

// saveRecords writes the games to path atomically, after the games already
// there when appending.
func saveRecords(path string, appendTo bool, recs []match.Record) error {
	var buf bytes.Buffer
	if appendTo {
		old, err := store.ReadFile(path, store.MaxFileSize)
		if err != nil && !errors.Is(err, store.ErrNotFound) {
			return err
		}
		buf.Write(old)
		if len(old) > 0 && old[len(old)-1] != '\n' {
			buf.WriteByte('\n')
		}
	}
	if err := match.WriteRecords(&buf, recs); err != nil {
		return err
	}
	return store.WriteAtomic(path, buf.Bytes())
}
