package main

import (
	"bytes"
	"errors"
	"fmt"
	"math/rand/v2"
	"os"
	"strconv"
	"sync"
	"time"

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
	// cache keeps what the perfect players of games that solve their own
	// positions settled, shared by the command's games.
	cache *solver.Cache
}

func (t *tables) scores() *solver.Cache {
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.cache == nil {
		t.cache = solver.NewCache()
	}
	return t.cache
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

// players is the command's factory of players: package player's kinds and
// the solver's perfect player, which reads its tables through t.
func (t *tables) players() *player.Factory {
	f, err := player.NewFactory(player.Kind{Name: "solver", Usage: "solver:table=FILE | solver[:time=T,nodes=N,mb=M]",
		Help: "perfect play: from an exact table (sliderzero solve) on that table's board only, or in games with an exact solver of their own (Connect Four) each position solved when asked, with time=T (or a budget of N nodes a move's score, the same on every machine) the best proven bound when it runs out, and a table of M megabytes (default 180); the shortest win, else a draw, else the longest loss",
		New: func(sp player.Spec, g env.Game, o player.Options) (player.Player, error) {
			return t.solverPlayer(sp, g, o.Seed)
		}})
	if err != nil {
		panic(err) // the names are the program's own
	}
	return f
}

// solverPlayer builds the perfect player: solver:table=FILE (or
// solver:FILE) on a solved Slider board, and solver[:time=T,nodes=N,mb=M]
// for games with an exact solver of their own (Connect Four), which
// solves each position when asked, within T a move or N nodes a move's
// score if given (then playing the best proven bound), with a table of M
// megabytes; the command's perfect players share what they settle.
func (t *tables) solverPlayer(sp player.Spec, g env.Game, seed uint64) (player.Player, error) {
	rng := rand.New(rand.NewPCG(seed, 0x501))
	if solver.Solvable(g) {
		var limit time.Duration
		mb := 0
		var nodes uint64
		for k, v := range sp.Options {
			switch k {
			case "time":
				d, err := player.ParseSeconds(v)
				if err != nil {
					return nil, fmt.Errorf("player solver: time=%s: %w", v, err)
				}
				limit = d
			case "mb":
				n, err := strconv.Atoi(v)
				if err != nil || n < 1 || n > 1<<16 {
					return nil, fmt.Errorf("player solver: mb=%s: want megabytes of table, 1 to 65536", env.Excerpt(v, 20))
				}
				mb = n
			case "nodes":
				n, err := strconv.ParseUint(v, 10, 64)
				if err != nil || n < 1 {
					return nil, fmt.Errorf("player solver: nodes=%s: want a whole number of at least 1", env.Excerpt(v, 20))
				}
				nodes = n
			case "visits", "name":
			default:
				return nil, fmt.Errorf("player solver: unknown option %s (it takes time=, nodes= and mb=)", k)
			}
		}
		if sp.Arg != "" {
			return nil, fmt.Errorf("player solver: %s solves positions itself and takes no table", g.Name())
		}
		x, _, err := solver.ExactWithBudget(g, mb, nodes)
		if err != nil {
			return nil, err
		}
		return solver.NewPerfect(t.scores().Cached(x), sp.String(), limit, rng), nil
	}
	path := sp.Arg
	for k, v := range sp.Options {
		switch k {
		case "table":
			if path != "" && path != v {
				return nil, fmt.Errorf("player solver: two tables, %s and %s", path, v)
			}
			path = v
		case "time", "visits", "name":
		default:
			return nil, fmt.Errorf("player solver: unknown option %s", k)
		}
	}
	if path == "" {
		return nil, fmt.Errorf("player solver needs a table on %s: solver:table=FILE (make one with sliderzero solve)", g.Name())
	}
	tab, err := t.get(path)
	if err != nil {
		return nil, fmt.Errorf("player solver: %w", err)
	}
	sg, ok := slider.Of(g)
	if !ok {
		return nil, fmt.Errorf("player solver: a table plays Slider, not %s", g.Name())
	}
	cfg := sg.Config()
	if sg.Size() != tab.Size() || cfg.RandomBlocked || slider.FormatCells(cfg.Blocked) != slider.FormatCells(tab.Blocked()) {
		return nil, fmt.Errorf("player solver: the table is for %s; the game is %s", tab.Describe(), g.Describe())
	}
	return solver.NewPlayer(tab, sp.String(), rng), nil
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
