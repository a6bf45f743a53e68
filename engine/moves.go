// The game and its moves: game, boardsize, clear_board, position, play,
// genmove, undo and the commands that show the position.

package engine

import (
	"fmt"
	"strings"
	"time"

	"github.com/sliderzero/sliderzero/env"
	"github.com/sliderzero/sliderzero/env/games"
	"github.com/sliderzero/sliderzero/env/registry"
)

// gameCmd switches to another game: game NAME [key=value ...], with the
// settings the game declares, as the command line's game flags give them.
func (e *Engine) gameCmd(args []string) (string, error) {
	if len(args) == 0 {
		return "", fmt.Errorf("usage: game NAME [key=value ...] (NAME: %s)", strings.Join(registry.Names(), ", "))
	}
	given := map[string]string{}
	for _, kv := range args[1:] {
		k, v, ok := strings.Cut(kv, "=")
		if !ok || k == "" {
			return "", fmt.Errorf("game option %q: want key=value", kv)
		}
		if _, dup := given[k]; dup {
			return "", fmt.Errorf("game option %s given twice", k)
		}
		given[k] = v
	}
	// The ply cap is the engine's (none unless configured), in every game.
	spec, err := games.Configure(registry.Spec{Name: args[0]}.With(registry.PlyCapKey, e.spec.Text(registry.PlyCapKey)), given)
	if err != nil {
		return "", err
	}
	return "", e.startGame(spec, nil)
}

func (e *Engine) boardsize(args []string) (string, error) {
	if err := wantArgs(args, 1, "boardsize N"); err != nil {
		return "", err
	}
	// A new board of that size (GTP's boardsize is the game's size
	// setting, which a game without one refuses), with the game's other
	// settings at their defaults (a layout for one size may not fit
	// another).
	spec, err := games.Configure(registry.Spec{Name: e.spec.Name}.With(registry.PlyCapKey, e.spec.Text(registry.PlyCapKey)), map[string]string{"size": args[0]})
	if err != nil {
		return "", err
	}
	return "", e.startGame(spec, nil)
}

func (e *Engine) clearBoard([]string) (string, error) {
	return "", e.startGame(e.spec, nil)
}

// position sets a position of the current game. A position that carries
// settings of its own (a Slider board of another size, its blocked cells)
// switches the game to them.
func (e *Engine) position(args []string) (string, error) {
	if len(args) == 0 {
		return "", fmt.Errorf("usage: position POS [moves MOVE...]")
	}
	// The moves played from the position, when given, are the game's
	// history: the ply count and the repetition rule see them.
	var moves []string
	for i, a := range args {
		if a == "moves" {
			args, moves = args[:i], args[i+1:]
			break
		}
	}
	if len(args) == 0 {
		return "", fmt.Errorf("usage: position POS [moves MOVE...]")
	}
	text := strings.Join(args, " ")
	spec, err := games.SpecOf(text, e.spec)
	if err != nil {
		return "", err
	}
	g := e.game
	if !spec.Equal(e.spec) {
		var err error
		if g, err = games.New(spec); err != nil {
			return "", err
		}
	}
	s, err := g.ParseState(text)
	if err != nil {
		return "", err
	}
	// Check every move before changing anything: a failed command changes
	// nothing.
	check := s.Clone()
	for i, m := range moves {
		if check.Outcome().Over {
			return "", fmt.Errorf("move %d (%s): the game is over", i+1, env.Quote(m))
		}
		a, err := check.ParseAction(m)
		if err != nil {
			return "", fmt.Errorf("move %d: %v", i+1, err)
		}
		check.Apply(a)
	}
	if err := e.startGame(spec, s); err != nil {
		return "", err
	}
	for _, m := range moves {
		a, _ := e.state.ParseAction(m)
		e.apply(a, e.repetition)
	}
	return "", nil
}

func (e *Engine) play(args []string) (string, error) {
	if err := wantArgs(args, 2, "play COLOUR MOVE"); err != nil {
		return "", err
	}
	if _, err := e.checkTurn(e.game, args[0]); err != nil {
		return "", err
	}
	a, err := e.state.ParseAction(args[1])
	if err != nil {
		return "", err
	}
	e.apply(a, e.repetition)
	return "", nil
}

func (e *Engine) genmove(args []string) (string, error) {
	if err := wantArgs(args, 1, "genmove COLOUR"); err != nil {
		return "", err
	}
	side, err := e.checkTurn(e.game, args[0])
	if err != nil {
		return "", err
	}
	ctx, cancel := e.moveContext(e.ctx, side)
	defer cancel()
	t0 := time.Now()
	a, err := e.player.Move(ctx, e.searchState(e.repetition))
	e.spend(side, time.Since(t0))
	if err != nil {
		return "", err
	}
	if !env.IsLegal(e.state, a) {
		return "", fmt.Errorf("the player chose action %d, which is not legal", a)
	}
	move := e.state.ActionString(a)
	e.apply(a, e.repetition)
	return move, nil
}

func (e *Engine) undoCmd([]string) (string, error) {
	return "", e.back()
}

func (e *Engine) legalMoves([]string) (string, error) {
	if e.over() {
		return "", nil
	}
	var names []string
	for _, a := range e.state.LegalActions(nil) {
		names = append(names, e.state.ActionString(a))
	}
	return strings.Join(names, " "), nil
}

func (e *Engine) showboard([]string) (string, error) {
	return strings.TrimSuffix(e.state.Board(), "\n") + "\n" + e.game.SideName(e.state.ToMove()), nil
}

func (e *Engine) result([]string) (string, error) {
	o := e.state.Outcome()
	switch {
	case e.repTie:
		return "tie", nil
	case !o.Over:
		return "none", nil
	case o.Winner == env.NoSide:
		return "tie", nil
	}
	return e.game.SideName(o.Winner), nil
}
