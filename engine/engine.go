// Package engine speaks the project's line protocol (docs/protocol.md,
// modelled on GTP) so that other programs can drive any player, in any of
// the project's games.
package engine

import (
	"context"
	"fmt"
	"math/rand/v2"
	"strconv"
	"time"

	"github.com/sliderzero/sliderzero/env"
	"github.com/sliderzero/sliderzero/env/games"
	"github.com/sliderzero/sliderzero/env/registry"
	"github.com/sliderzero/sliderzero/player"
)

// ProtocolVersion is the version of docs/protocol.md implemented here.
const ProtocolVersion = "2"

// Limits on what a command may ask for, so that no request can make the
// engine run for ever or exhaust memory.
const (
	MaxLine     = 64 << 10 // bytes in a command line
	MaxVisits   = 10_000_000
	MaxMoveTime = time.Hour
	MaxGameTime = 24 * time.Hour
)

// noCap is the ply cap of the engine's games when none is configured: the
// referee decides when a game ends (the course's referee had no cap), and
// the engine answers genmove for as long as it is asked.
const noCap = registry.NoCap

// Config starts an engine.
type Config struct {
	Name    string
	Version string
	// Game is the first game. Its ply cap, when 0, means no cap.
	Game registry.Spec
	// Player answers genmove: a spec read once, with the threads a
	// network player searches with unless its spec says (set threads
	// changes them).
	Player *player.Setup
	Seed   uint64
}

// Engine holds one game and the player that moves in it.
type Engine struct {
	cfg  Config
	spec registry.Spec // the current game's
	game env.Game
	record
	setup  *player.Setup
	seed   uint64
	rng    *rand.Rand // draws random layouts
	player player.Player
	// repetition, when positive, ends a game in a tie when a position
	// occurs more than this many times, and the player's search knows it.
	repetition int
	gameClock
	ctx context.Context
}

// New returns an engine at the start position of cfg.Game. It fails if the
// game or the player spec cannot be built.
func New(cfg Config) (*Engine, error) {
	if cfg.Player == nil {
		return nil, fmt.Errorf("engine: no player")
	}
	e := &Engine{cfg: cfg, setup: cfg.Player, seed: cfg.Seed, rng: rand.New(rand.NewPCG(cfg.Seed, 0xe9)), ctx: context.Background()}
	spec := cfg.Game
	if spec.Text(registry.PlyCapKey) == "" {
		spec = spec.With(registry.PlyCapKey, strconv.Itoa(noCap))
	}
	if err := e.startGame(spec, nil); err != nil {
		return nil, err
	}
	return e, nil
}

// startGame switches to a new game from spec: from start if given, else
// from the game's start position. The player is rebuilt first, so that a
// failure leaves everything as it was.
func (e *Engine) startGame(spec registry.Spec, start env.State) error {
	g := e.game
	if e.game == nil || !spec.Equal(e.spec) {
		var err error
		if g, err = games.New(spec); err != nil {
			return err
		}
	}
	if start == nil {
		start = g.Start(e.rng)
	}
	p := e.player
	if p == nil || g != e.game {
		var err error
		if p, err = e.setup.New(g, e.seed); err != nil {
			return err
		}
	}
	e.spec, e.game, e.player = spec, g, p
	e.reset(start)
	e.restart()
	return nil
}

// State is the engine's current position.
func (e *Engine) State() env.State { return e.state }
