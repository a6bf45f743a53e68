// Package player defines what a player is (given a position, choose a move
// within a budget), builds players from spec strings, and holds the
// classical baselines a trained agent is measured against.
package player

import (
	"context"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"sort"
	"strings"

	"github.com/sliderzero/sliderzero/env"
	"github.com/sliderzero/sliderzero/mcts"
)

// Player chooses moves. Move must not modify s, and returns early with its
// best move so far, or an error if it has none, when ctx is done.
// A Player is used by one goroutine at a time.
type Player interface {
	Move(ctx context.Context, s env.State) (int, error)
	// String is the spec that builds the player.
	String() string
}

// Errors a player's Move may wrap, for referees to tell forfeits apart.
var (
	// ErrTimeLimit: the player did not answer within its time limit.
	ErrTimeLimit = errors.New("no answer within the time limit")
	// ErrIllegalMove: the player answered a move that is not legal, or
	// not a move at all.
	ErrIllegalMove = errors.New("illegal move")
)

// Reporter is a player that can tell what its last search found: its value
// for the side that moved, and the visits it made.
type Reporter interface {
	LastSearch() (value float32, visits int)
}

// Analyzer is a player that can show its view of a position: its value
// for the side to move and the moves its search prefers.
type Analyzer interface {
	Analyze(ctx context.Context, s env.State, top int) (Analysis, error)
}

// Options are what building a player needs beyond its spec.
type Options struct {
	// Seed makes every random choice of the player reproducible.
	Seed uint64
	// In and Out are the keyboard and screen of a human player.
	In  io.Reader
	Out io.Writer
	// Kinds adds player kinds this package does not define, by name. The
	// command adds the solver's perfect player this way, so that packages
	// which build players (training among them) do not depend on it.
	Kinds map[string]Kind
	// Threads is how many threads a network player's search uses when
	// its spec does not say (threads=N): 0 or 1 for one. Interactive
	// commands give the machine's cores; matches, evaluations and
	// self-play, which run games side by side, keep one.
	Threads int
}

// CommandKinds names the kinds the sliderzero command adds through
// Options.Kinds (the solver's perfect player): a configuration may name
// them before the command supplies them, and is checked for their spelling
// only until then.
var CommandKinds = []string{"solver"}

// Kind builds a player of an added kind from its spec and seed.
type Kind func(sp Spec, game env.Game, seed uint64) (Player, error)

// Help describes the spec strings New accepts, for --help texts; "human"
// is left to the one command that takes it (play).
const Help = `Player specs: KIND or KIND:key=value,key=value
  random                     uniform over the legal moves
  greedy                     best move by the game's evaluation, one ply deep
  alphabeta[:depth=D,time=T,nodes=N]
                             iterative-deepening alpha-beta with a
                             transposition table (default depth=10; time and
                             nodes stop it earlier; one thread)
  mcts[:sims=N,time=T,c=C,threads=N]
                             plain UCT with random playouts (default
                             sims=1000); threads=N searches N trees at
                             once and adds up their root moves (with a
                             sims budget, the same moves on any timing)
  net:checkpoint=PATH[,sims=N,time=T,threads=N,gumbel=true,proofs=false,movesleft=false]
                             the network-guided search with a trained network
                             (a run's checkpoint.msgpack or weights.msgpack;
                             default sims=100); movesleft=false ignores the
                             network's plies to the end (movesleft_slope=S,
                             movesleft_effect=E and movesleft_threshold=T
                             tune its use: S of value a ply sooner, at most
                             E, once the value is decided beyond T; by
                             default 0.004, 0.05, 0.5, which 0 keeps);
                             proofs=false turns
                             the proofs of won and lost lines off, and
                             wincheck=false the look one move ahead at each
                             new leaf for a move that wins at once;
                             threads=N searches with N threads (play,
                             engine and serve default to every core, other
                             commands to one; more than one thread makes
                             seeded searches differ from run to run)
  player:FILE[,sims=N,time=T,threads=N,gumbel=true,proofs=false,movesleft=false]
                             an exported player file (sliderzero export),
                             with its own default search unless overridden
  engine:cmd=PROGRAM ARGS[,time=T,timeout=T]
                             another program speaking the engine protocol
                             (docs/protocol.md); it is told the game and
                             the position before each move, and loses the
                             game if it dies, answers garbage or an illegal
                             move, or is silent past timeout (default twice
                             time and a second, or 30s)
  solver:table=FILE          perfect play from an exact table (sliderzero
                             solve), on that table's board only: the
                             shortest win, else a draw, else the longest loss
  solver[:time=T,nodes=N,mb=M]
                             perfect play in games with an exact solver of
                             their own (Connect Four): each position solved
                             when asked; with time=T (or a budget of N nodes
                             a move's score, the same on every machine), the
                             best proven bound when it runs out (early
                             positions can take minutes); a table of M
                             megabytes (default 180)
Times are seconds (1.5) or durations (1s, 250ms). Every kind accepts time=
and visits= (the engine's movetime and visits); players that answer at once
ignore them. Every kind accepts name=NAME, the player's short name in
tables.`

// New builds a player for a game from a spec string.
func New(spec string, game env.Game, opts Options) (Player, error) {
	sp, err := ParseSpec(spec)
	if err != nil {
		return nil, err
	}
	return FromSpec(sp, game, opts)
}

// FromSpec builds a player from a parsed spec.
func FromSpec(sp Spec, game env.Game, opts Options) (Player, error) {
	o := newOptions(sp)
	o.lookup("name") // a short name for tables (DisplayName), any kind
	rng := rand.New(rand.NewPCG(opts.Seed, 0x5eed))
	var p Player
	switch sp.Kind {
	case "random", "greedy", "human":
		// They answer at once: budgets do not apply.
		o.duration(0, "time")
		o.int(0, 0, "visits")
		switch sp.Kind {
		case "random":
			p = &Random{spec: sp.String(), rng: rng}
		case "greedy":
			ev, err := evaluator(game, sp.Kind)
			if err != nil {
				return nil, err
			}
			p = &Greedy{spec: sp.String(), eval: ev, rng: rng}
		case "human":
			if opts.In == nil || opts.Out == nil {
				return nil, fmt.Errorf("player human needs a terminal; it cannot be used here")
			}
			p = NewHuman(opts.In, opts.Out)
		}
	case "alphabeta":
		ev, err := evaluator(game, sp.Kind)
		if err != nil {
			return nil, err
		}
		cfg := AlphaBetaConfig{
			Depth: o.int(0, 1, "depth"),
			Time:  o.duration(0, "time"),
			Nodes: o.int(0, 1, "nodes", "visits"),
		}
		if cfg.Depth == 0 && cfg.Time == 0 && cfg.Nodes == 0 {
			cfg.Depth = DefaultAlphaBetaDepth
		}
		p = NewAlphaBeta(sp.String(), game, ev, cfg, rng)
	case "mcts":
		cfg := UCTConfig{
			Sims:     o.int(0, 1, "sims", "visits"),
			Time:     o.duration(0, "time"),
			C:        o.float(0, "c"),
			MaxNodes: o.int(0, 1000, "max_nodes"),
			Threads:  o.int(max(opts.Threads, 1), 1, "threads"),
		}
		if cfg.Sims == 0 && cfg.Time == 0 {
			cfg.Sims = DefaultUCTSims
		}
		if cfg.Threads > mcts.MaxThreads {
			return nil, fmt.Errorf("player mcts: option threads=%d: want 1 to %d", cfg.Threads, mcts.MaxThreads)
		}
		p = NewUCT(sp.String(), cfg, rng)
	case "net":
		n, err := newNet(sp, o, game, opts.Threads, rng)
		if err != nil {
			return nil, err
		}
		p = n
	case "player":
		n, err := newFilePlayer(sp, o, game, opts.Threads, rng)
		if err != nil {
			return nil, err
		}
		p = n
	case "engine":
		x, err := newExternal(sp, o)
		if err != nil {
			return nil, err
		}
		p = x
	default:
		if k, ok := opts.Kinds[sp.Kind]; ok {
			return k(sp, game, opts.Seed)
		}
		known := []string{"human", "random", "greedy", "alphabeta", "mcts", "net", "player", "engine"}
		for name := range opts.Kinds {
			known = append(known, name)
		}
		sort.Strings(known[8:])
		return nil, specError{fmt.Errorf("unknown player kind %s: want one of %s", env.Quote(sp.Kind), strings.Join(known, ", "))}
	}
	if err := o.done(); err != nil {
		return nil, err
	}
	return p, nil
}

func evaluator(g env.Game, kind string) (env.Evaluator, error) {
	ev, ok := g.(env.Evaluator)
	if !ok {
		return nil, fmt.Errorf("player %s needs an evaluation function, and %s has none", kind, g.Name())
	}
	return ev, nil
}

// Random plays uniformly among the legal moves.
type Random struct {
	spec string
	rng  *rand.Rand
	buf  []int
}

func (r *Random) String() string { return r.spec }

func (r *Random) Move(_ context.Context, s env.State) (int, error) {
	r.buf = s.LegalActions(r.buf[:0])
	if len(r.buf) == 0 {
		return 0, fmt.Errorf("no legal move: the game is over")
	}
	return r.buf[r.rng.IntN(len(r.buf))], nil
}

// Greedy plays the move whose resulting position the game's evaluation
// likes best, taking a win at once; ties are broken at random.
type Greedy struct {
	spec string
	eval env.Evaluator
	rng  *rand.Rand
	buf  []int
}

func (g *Greedy) String() string { return g.spec }

func (g *Greedy) Move(_ context.Context, s env.State) (int, error) {
	g.buf = s.LegalActions(g.buf[:0])
	if len(g.buf) == 0 {
		return 0, fmt.Errorf("no legal move: the game is over")
	}
	me := s.ToMove()
	child := s.Clone()
	best, bestScore, ties := g.buf[0], 0.0, 0
	for i, a := range g.buf {
		child.CopyFrom(s)
		child.Apply(a)
		score := scoreFor(g.eval, child, me)
		switch {
		case i == 0 || score > bestScore:
			best, bestScore, ties = a, score, 1
		case score == bestScore:
			// Reservoir sampling keeps each tied move equally likely.
			ties++
			if g.rng.IntN(ties) == 0 {
				best = a
			}
		}
	}
	return best, nil
}

// winScore outranks every evaluation.
const winScore = 1e9

// scoreFor scores a position for side me: the outcome if it is over, else
// the evaluation turned to me's point of view.
func scoreFor(ev env.Evaluator, s env.State, me env.Side) float64 {
	if o := s.Outcome(); o.Over {
		return winScore * float64(o.Value(me))
	}
	v := ev.Evaluate(s)
	if s.ToMove() != me {
		v = -v
	}
	return v
}

// DisplayName is a spec's short name for tables: its name= option, or the
// spec itself.
func DisplayName(spec string) string {
	if sp, err := ParseSpec(spec); err == nil {
		if n := sp.Options["name"]; n != "" {
			return n
		}
	}
	return spec
}
