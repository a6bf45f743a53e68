package solver

import (
	"context"
	"fmt"
	"math/rand/v2"
	"strconv"
	"sync"
	"time"

	"github.com/sliderzero/sliderzero/env"
	"github.com/sliderzero/sliderzero/env/registry"
	"github.com/sliderzero/sliderzero/player"
)

// Players builds the solver's perfect players, the player kind "solver",
// for one command: it loads each table once however many players use it
// (a 5x5 table takes seconds to read and a quarter of a gigabyte), and
// the players of games solved when asked share what they settle. The
// zero value is ready; it is safe for concurrent use.
type Players struct {
	mu     sync.Mutex
	loaded map[string]registry.Table
	cache  *Cache
}

// Scores is the cache the command's perfect players share.
func (p *Players) Scores() *Cache {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.cache == nil {
		p.cache = NewCache()
	}
	return p.cache
}

// Table loads a table file once (ReadTable).
func (p *Players) Table(path string) (registry.Table, error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if t, ok := p.loaded[path]; ok {
		return t, nil
	}
	t, err := ReadTable(path)
	if err != nil {
		return nil, err
	}
	if p.loaded == nil {
		p.loaded = map[string]registry.Table{}
	}
	p.loaded[path] = t
	return t, nil
}

// PlayerKind is the perfect player as a kind of player (Player builds
// it), for a player.Factory.
func (p *Players) PlayerKind() player.Kind {
	return player.Kind{Name: "solver", Usage: "solver:table=FILE | solver[:time=T,nodes=N,mb=M]",
		Help: "perfect play: from an exact table (sliderzero solve) on that table's board only, or in games solved when asked (Connect Four) each position solved then, with time=T (or a budget of N nodes a move's score, the same on every machine) the best proven bound when it runs out, and a table of M megabytes (default 180); the shortest win, else a draw, else the longest loss",
		New: func(sp player.Spec, g env.Game, o player.Options) (player.Player, error) {
			return p.Player(sp, g, o.Seed)
		}}
}

// Player builds the perfect player: solver:table=FILE (or
// solver:FILE) on a game solved into tables, and
// solver[:time=T,nodes=N,mb=M] on a game solved when asked (Connect
// Four), which solves each position when asked, within T a move or N
// nodes a move's score if given (then playing the best proven bound),
// with a table of M megabytes.
func (p *Players) Player(sp player.Spec, g env.Game, seed uint64) (player.Player, error) {
	rng := rand.New(rand.NewPCG(seed, 0x501))
	if Solvable(g) {
		return p.searching(sp, g, rng)
	}
	path := sp.Arg
	for k, v := range sp.Options {
		switch k {
		case "table":
			if path != "" && path != v {
				return nil, player.BadSpec(fmt.Errorf("player solver: two tables, %s and %s", path, v))
			}
			path = v
		case "time", "visits", "name":
		default:
			return nil, player.BadSpec(fmt.Errorf("player solver: unknown option %s", k))
		}
	}
	if path == "" {
		return nil, fmt.Errorf("player solver needs a table on %s: solver:table=FILE (make one with sliderzero solve)", g.Name())
	}
	t, err := p.Table(path)
	if err != nil {
		return nil, fmt.Errorf("player solver: %w", err)
	}
	if !t.Plays(g) {
		return nil, fmt.Errorf("player solver: the table is for %s; the game is %s", t.Describe(), g.Describe())
	}
	return NewTablePlayer(t, sp.String(), rng), nil
}

// searching builds the perfect player of a game solved when asked.
func (p *Players) searching(sp player.Spec, g env.Game, rng *rand.Rand) (player.Player, error) {
	var limit time.Duration
	mb := 0
	var nodes uint64
	for k, v := range sp.Options {
		switch k {
		case "time":
			d, err := player.ParseSeconds(v)
			if err != nil {
				return nil, player.BadSpec(fmt.Errorf("player solver: time=%s: %w", v, err))
			}
			limit = d
		case "mb":
			n, err := strconv.Atoi(v)
			if err != nil || n < 1 || n > MaxTableMB() {
				return nil, player.BadSpec(fmt.Errorf("player solver: mb=%s: want megabytes of table, 1 to %d (a quarter of this machine's memory)", env.Excerpt(v, 20), MaxTableMB()))
			}
			mb = n
		case "nodes":
			n, err := strconv.ParseUint(v, 10, 64)
			if err != nil || n < 1 || n > MaxNodes {
				return nil, player.BadSpec(fmt.Errorf("player solver: nodes=%s: want a whole number from 1 to %d", env.Excerpt(v, 20), uint64(MaxNodes)))
			}
			nodes = n
		case "visits", "name":
		default:
			return nil, player.BadSpec(fmt.Errorf("player solver: unknown option %s (it takes time=, nodes= and mb=)", k))
		}
	}
	if sp.Arg != "" {
		return nil, player.BadSpec(fmt.Errorf("player solver: %s solves positions itself and takes no table", g.Name()))
	}
	x, _, err := ExactWithBudget(g, mb, nodes)
	if err != nil {
		return nil, err
	}
	return NewPerfect(p.Scores().Cached(x), sp.String(), limit, rng), nil
}

// TablePlayer plays perfectly from a table (player.Player): the shortest
// win, else a draw, else the longest loss, with a random choice among
// equal moves. It refuses a position the table does not cover.
type TablePlayer struct {
	table registry.Table
	spec  string
	rng   *rand.Rand
}

// NewTablePlayer returns a perfect player over t; spec is its name in
// records.
func NewTablePlayer(t registry.Table, spec string, rng *rand.Rand) *TablePlayer {
	return &TablePlayer{table: t, spec: spec, rng: rng}
}

func (p *TablePlayer) String() string { return p.spec }

// Move plays a best move.
func (p *TablePlayer) Move(_ context.Context, s env.State) (int, error) {
	return p.table.BestMove(s, p.rng)
}
