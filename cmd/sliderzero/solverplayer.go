package main

import (
	"bytes"
	"errors"
	"fmt"
	"io"
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

// players is the command's factory of players: package player's kinds and
// the solver's perfect player, which reads its tables through t.
func (t *tables) players() *player.Factory {
	f, err := player.NewFactory(t.PlayerKind())
	if err != nil {
		panic(err) // the names are the program's own
	}
	return f
}

// playerHelp describes the player specs the commands take.
func playerHelp() string { return new(tables).players().Help() }

// readPlayers reads the specs a flag gave, once, as players of g: each a
// setup that builds its players for the games to come.
func readPlayers(f *player.Factory, flagName string, specs []string, g env.Game, opts player.Options) ([]*player.Setup, error) {
	out := make([]*player.Setup, len(specs))
	for i, spec := range specs {
		s, err := f.Read(spec, g, opts)
		if err != nil {
			return nil, fmt.Errorf("%s %s: %w", flagName, spec, err)
		}
		out[i] = s
	}
	return out, nil
}

// checkRecords refuses, before any game is played, to overwrite a records
// file unless told to append to it (appendTo) or to replace it (force),
// and a records file that is one of the command's inputs.
func checkRecords(path string, appendTo, force bool, inputs ...string) error {
	if path == "" {
		return nil
	}
	if appendTo && force {
		return usageError{fmt.Errorf("--append adds the games to --records and --force replaces it: give one")}
	}
	if err := checkOutput("--records", path, true, inputs...); err != nil {
		return err
	}
	if appendTo || force {
		return nil
	}
	if _, err := os.Stat(path); err == nil {
		return fmt.Errorf("--records %s exists; give --append to add the games to it, --force to replace it, or name another file", path)
	}
	return nil
}

// openRecords is where a series writes its games as they are counted, so
// that it holds none in memory: a temporary file beside path, after the
// games already there when appending, that finish renames into place
// (abort, harmless after finish, removes it). With no path the games are
// dropped.
func openRecords(path string, appendTo bool) (write func(match.Record) error, finish func() error, abort func(), err error) {
	if path == "" {
		return func(match.Record) error { return nil }, func() error { return nil }, func() {}, nil
	}
	w, finish, abort, err := openResults(path, nil)
	if err != nil {
		return nil, nil, nil, err
	}
	if appendTo {
		if err := appendOld(w, path); err != nil {
			abort()
			return nil, nil, nil, err
		}
	}
	return func(rec match.Record) error { return match.WriteRecords(w, []match.Record{rec}) }, finish, abort, nil
}

// appendOld copies the records file at path, if there is one, to w, ending
// its last line.
func appendOld(w io.Writer, path string) error {
	f, err := store.Open(path)
	if errors.Is(err, store.ErrNotFound) {
		return nil
	}
	if err != nil {
		return err
	}
	defer f.Close()
	last := &lastByte{w: w}
	if _, err := io.Copy(last, f); err != nil {
		return fmt.Errorf("--records %s: %w", path, err)
	}
	if last.n > 0 && last.b != '\n' {
		_, err = w.Write([]byte{'\n'})
	}
	return err
}

// lastByte is a writer that remembers the last byte written through it.
type lastByte struct {
	w io.Writer
	b byte
	n int64
}

func (l *lastByte) Write(p []byte) (int, error) {
	if len(p) > 0 {
		l.b = p[len(p)-1]
	}
	n, err := l.w.Write(p)
	l.n += int64(n)
	return n, err
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
