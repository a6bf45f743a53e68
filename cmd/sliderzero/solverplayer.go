package main

import (
	"bytes"
	"errors"
	"fmt"
	"os"

	"github.com/sliderzero/sliderzero/env"
	"github.com/sliderzero/sliderzero/match"
	"github.com/sliderzero/sliderzero/player"
	"github.com/sliderzero/sliderzero/solver"
	"github.com/sliderzero/sliderzero/store"
)

// tables builds the solver's perfect players for one command
// (solver.Players: each table loaded once, settled scores shared).
type tables struct{ solver.Players }

// playerKinds are the player kinds the command adds to package player's:
// the solver's perfect player.
func (t *tables) playerKinds() map[string]player.Kind {
	return map[string]player.Kind{"solver": t.Kind}
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
	if err := checkOutput("--records", path); err != nil {
		return err
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
