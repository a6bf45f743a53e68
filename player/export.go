package player

import (
	"cmp"
	"context"
	"fmt"
	"math/rand/v2"
	"sort"
	"time"

	"github.com/sliderzero/sliderzero/env"
	"github.com/sliderzero/sliderzero/env/games"
	"github.com/sliderzero/sliderzero/env/registry"
	"github.com/sliderzero/sliderzero/mcts"
	"github.com/sliderzero/sliderzero/model"
	"github.com/sliderzero/sliderzero/store"
)

// Kind and format version of exported player files. Version 2 keeps the
// search as mcts.Params; version 1 files (sims, time_ms, gumbel, c_puct)
// still load.
const (
	KindPlayer          = "player"
	PlayerFormatVersion = 2
)

// searchV1 is the search settings of a version 1 player file.
type searchV1 struct {
	Sims   int     `msgpack:"sims"`
	TimeMS int     `msgpack:"time_ms"`
	Gumbel bool    `msgpack:"gumbel"`
	CPUCT  float64 `msgpack:"c_puct"`
}

// PlayerFile is a trained player in one file: the game it plays, the
// network (inference weights only), the default search, and where it came
// from. It is written with a checksum and a format version (package store).
type PlayerFile struct {
	Game    registry.Spec  `msgpack:"game"`
	Weights *model.Weights `msgpack:"weights"`
	// Search is what the player searches with unless told otherwise.
	Search   mcts.Params `msgpack:"search"`
	Steps    int64       `msgpack:"steps"`
	Games    int64       `msgpack:"games"`
	Exported time.Time   `msgpack:"exported"`
	// Elo is the network's Elo against the training ladder when it was
	// last measured (random = 0), if known.
	Elo    *float64 `msgpack:"elo"`
	Source string   `msgpack:"source"` // the checkpoint it was exported from
}

// Export writes a player file from a checkpoint or weights file.
func Export(checkpoint, out string, search mcts.Params, elo *float64) (*PlayerFile, error) {
	f, err := model.LoadNetFile(checkpoint)
	if err != nil {
		return nil, err
	}
	if _, err := games.New(f.Game); err != nil {
		return nil, fmt.Errorf("%s: %w", checkpoint, err)
	}
	if search.Sims <= 0 && search.Time <= 0 {
		search.Sims = mcts.DefaultParams().Sims
	}
	search = search.WithDefaults()
	if err := search.Check(); err != nil {
		return nil, err
	}
	pf := &PlayerFile{Game: f.Game, Weights: f.Weights, Search: search, Steps: f.Steps, Games: f.Games,
		Exported: time.Now().UTC(), Elo: elo, Source: checkpoint}
	if err := store.Write(out, KindPlayer, PlayerFormatVersion, pf); err != nil {
		return nil, err
	}
	return pf, nil
}

// Rewrite writes a player file already loaded, with whatever default
// search the caller set in it, to out: how a player's defaults change
// without the checkpoint it came from (often not kept beside a shipped
// player). Its network, game and training record stay as they were.
func Rewrite(pf *PlayerFile, out string) error {
	if err := pf.Search.Check(); err != nil {
		return err
	}
	pf.Exported = time.Now().UTC()
	return store.Write(out, KindPlayer, PlayerFormatVersion, pf)
}

// LoadNetwork reads the network of a checkpoint, weights file or player
// file, whichever path holds, and the game it plays. The error, if none
// is readable, is the checkpoint reader's.
func LoadNetwork(path string) (registry.Spec, *model.Weights, error) {
	f, err := model.LoadNetFile(path)
	if err == nil {
		return f.Game, f.Weights, nil
	}
	if pf, perr := LoadPlayerFile(path); perr == nil {
		return pf.Game, pf.Weights, nil
	}
	return registry.Spec{}, nil, err
}

// LoadPlayerFile reads a player file, refusing (with a message that says
// which) a missing, truncated or corrupt file, one of a newer format, one
// that is not a player file, and one whose network does not fit its game.
func LoadPlayerFile(path string) (*PlayerFile, error) {
	data, err := store.ReadFile(path, store.MaxFileSize)
	if err != nil {
		return nil, err
	}
	return DecodePlayerFile(data, path)
}

// DecodePlayerFile is LoadPlayerFile on bytes already read; path says
// where they came from, for errors. It never panics, whatever the bytes.
func DecodePlayerFile(data []byte, path string) (*PlayerFile, error) {
	var pf PlayerFile
	version, err := store.Decode(data, path, KindPlayer, PlayerFormatVersion, &pf)
	if err != nil {
		return nil, err
	}
	if version == 1 {
		var old struct {
			Search searchV1 `msgpack:"search"`
		}
		if _, err := store.Decode(data, path, KindPlayer, PlayerFormatVersion, &old); err != nil {
			return nil, err
		}
		pf.Search = mcts.Params{Sims: old.Search.Sims, Time: time.Duration(old.Search.TimeMS) * time.Millisecond,
			Gumbel: old.Search.Gumbel, CPUCT: old.Search.CPUCT}.WithDefaults()
	}
	if err := pf.Search.Check(); err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	if pf.Weights == nil {
		return nil, fmt.Errorf("%s holds no network", path)
	}
	if pf.Steps < 0 || pf.Games < 0 {
		return nil, fmt.Errorf("%s claims %d training steps and %d games", path, pf.Steps, pf.Games)
	}
	if err := pf.Weights.Check(); err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	g, err := games.New(pf.Game)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	if err := pf.Weights.Arch.CheckGame(g); err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return &pf, nil
}

// Agent is a loaded player file, ready to choose moves. It is the API for
// embedding a trained player in another Go program. An Agent is not safe
// for concurrent use; load one per goroutine.
type Agent struct {
	file *PlayerFile
	game env.Game
	net  *model.Net
	rng  *rand.Rand
	last *Net
}

// Open loads a player file.
func Open(path string) (*Agent, error) {
	pf, err := LoadPlayerFile(path)
	if err != nil {
		return nil, err
	}
	g, _ := games.New(pf.Game)
	net, err := model.NewNet(pf.Weights)
	if err != nil {
		return nil, err
	}
	return &Agent{file: pf, game: g, net: net, rng: rand.New(rand.NewPCG(1, 2))}, nil
}

// Game is the game the agent plays, for building and parsing positions.
func (a *Agent) Game() env.Game { return a.game }

// File is what the agent was loaded from.
func (a *Agent) File() *PlayerFile { return a.file }

// CheckState reports whether s is a position of the agent's game, or of
// one with its rules and another input (games.SameRules), which the agent
// reads in its own.
func (a *Agent) CheckState(s env.State) error {
	g := s.Game()
	if g.Name() != a.game.Name() || a.file.Weights.Arch.CheckGame(g) != nil && !games.SameRules(a.game, g) {
		return fmt.Errorf("this player plays %s, not %s", games.Describe(a.game), games.Describe(g))
	}
	return nil
}

// Move chooses a move for the side to move in s within the budget.
func (a *Agent) Move(ctx context.Context, s env.State, b Budget) (int, error) {
	if err := a.CheckState(s); err != nil {
		return 0, err
	}
	p, err := a.player(b)
	if err != nil {
		return 0, err
	}
	return p.Move(ctx, s)
}

// Candidate is a move the search considered.
type Candidate struct {
	Move  string
	Share float64 // of the search's policy
	// Proof is what the search proved of the move for the side to move
	// ("win in 5", "loss in 4", "draw"), "" for nothing.
	Proof string
	// Action is the move's number in the game's action space.
	Action int
	// Visits, Value (for the side to move) and the principal variation
	// PV (moves in notation, this one first), where the search reports
	// them (Stream).
	Visits int
	Value  float32
	PV     []string
	// Plies is the plies to the end the search expects after the move,
	// 0 or less where it has no estimate (a network without the plies
	// head).
	Plies float32
}

// Analysis is the agent's view of a position after a search.
type Analysis struct {
	Value float32 // for the side to move, in [-1, 1]
	Best  []Candidate
	// Proof is what the search proved of the position for the side to
	// move ("win in 5"; "" for nothing).
	Proof string
	// Deepening, from an alpha-beta search, is its last finished depth;
	// Took is the search's time.
	Deepening *Deepening
	Took      time.Duration
}

// Analyze searches s and returns its value and the top candidate moves.
func (a *Agent) Analyze(ctx context.Context, s env.State, b Budget, top int) (Analysis, error) {
	if err := a.CheckState(s); err != nil {
		return Analysis{}, err
	}
	p, err := a.player(b)
	if err != nil {
		return Analysis{}, err
	}
	return p.Analyze(ctx, s, top)
}

func analysis(p *Net, s env.State, top int) Analysis {
	pi := make([]float32, s.Game().ActionSize())
	v := p.Analysis(pi)
	var cs []Candidate
	for _, act := range s.LegalActions(nil) {
		_, proof := p.LastProof(act)
		if pi[act] > 0 || proof != "" {
			cs = append(cs, Candidate{Move: s.ActionString(act), Action: act, Share: float64(pi[act]), Proof: proof})
		}
	}
	sort.SliceStable(cs, func(i, j int) bool { return cs[i].Share > cs[j].Share })
	if len(cs) > top {
		cs = cs[:top]
	}
	proof, _ := p.LastProof(-1)
	return Analysis{Value: v, Best: cs, Proof: proof}
}

// player returns a search player for a budget, reusing the last one (and
// its tree) when the budget is the same.
func (a *Agent) player(b Budget) (*Net, error) {
	cfg := a.searchConfig(b)
	if a.last != nil && a.last.tree.Params() == cfg.WithDefaults() {
		return a.last, nil
	}
	tree, err := mcts.NewTree(cfg, a.rng)
	if err != nil {
		return nil, err
	}
	a.last = &Net{spec: "agent", tree: tree, fwds: forwards(a.net, cfg.Threads), net: a.net, own: a.game}
	return a.last, nil
}

func (a *Agent) searchConfig(b Budget) mcts.Params {
	cfg := a.file.Search
	if b.Sims > 0 || b.Time > 0 {
		cfg.Sims, cfg.Time = b.Sims, b.Time
	}
	return cfg
}

// newFilePlayer builds the player of a "player:FILE" spec.
func newFilePlayer(sp Spec, o *options, game env.Game, opts Options, rng *rand.Rand) (*Net, error) {
	path := o.arg()
	if path == "" {
		return nil, fmt.Errorf("player file needs a file: player:FILE (made by sliderzero export)")
	}
	pf, net, err := filesOf(opts).Player(path)
	if err != nil {
		return nil, err
	}
	own, err := ownGame(pf.Weights, pf.Game, game)
	if err != nil || pf.Game.Name != game.Name() {
		g, _ := games.New(pf.Game)
		return nil, fmt.Errorf("%s plays %s, not %s", path, games.Describe(g), games.Describe(game))
	}
	base := pf.Search
	base.Threads = opts.Threads
	cfg, err := searchOptions(o, base)
	if err != nil {
		return nil, err
	}
	p, err := netPlayer(sp.String(), net, cmp.Or(own, game), cfg, rng)
	if err != nil {
		return nil, err
	}
	p.own = own
	return p, nil
}
