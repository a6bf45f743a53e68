// Package engine speaks the project's line protocol (docs/protocol.md,
// modelled on GTP) so that other programs can drive any player.
package engine

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/sliderzero/sliderzero/env"
	"github.com/sliderzero/sliderzero/player"
)

// ProtocolVersion is the version of docs/protocol.md implemented here.
const ProtocolVersion = "1"

// Rules is what the engine needs to know of a game beyond env.Game.
type Rules struct {
	// NewGame returns the game of a board size (boardsize, clear_board).
	NewGame func(size int) (env.Game, error)
	// ParsePosition reads a one-line position of any size (position).
	ParsePosition func(text string) (env.State, error)
	// Size is the board size of a game.
	Size func(env.Game) int
}

// Config starts an engine.
type Config struct {
	Name    string
	Version string
	Rules   Rules
	Game    env.Game    // the first game; its start position is the first position
	Player  player.Spec // the player that answers genmove
	Seed    uint64
	// Kinds are player kinds added to package player's (see
	// player.Options.Kinds).
	Kinds map[string]player.Kind
}

// Engine holds one game and the player that moves in it.
type Engine struct {
	cfg    Config
	state  env.State
	spec   player.Spec
	seed   uint64
	player player.Player // built for state's game; nil until needed
	ctx    context.Context
}

// New returns an engine at the start position of cfg.Game. It fails if the
// player spec cannot be built.
func New(cfg Config) (*Engine, error) {
	e := &Engine{cfg: cfg, spec: cfg.Player, seed: cfg.Seed}
	e.state = cfg.Game.Start(nil)
	p, err := player.FromSpec(e.spec, cfg.Game, player.Options{Seed: e.seed, Kinds: e.cfg.Kinds})
	if err != nil {
		return nil, err
	}
	e.player = p
	return e, nil
}

type command struct {
	name string
	run  func(e *Engine, args []string) (string, error)
}

// commands lists every command; list_commands prints them in this order.
var commands []command

func init() {
	commands = []command{
		{"protocol_version", func(*Engine, []string) (string, error) { return ProtocolVersion, nil }},
		{"name", func(e *Engine, _ []string) (string, error) { return e.cfg.Name, nil }},
		{"version", func(e *Engine, _ []string) (string, error) { return e.cfg.Version, nil }},
		{"list_commands", (*Engine).listCommands},
		{"known_command", (*Engine).knownCommand},
		{"boardsize", (*Engine).boardsize},
		{"clear_board", (*Engine).clearBoard},
		{"position", (*Engine).position},
		{"play", (*Engine).play},
		{"genmove", (*Engine).genmove},
		{"legal_moves", (*Engine).legalMoves},
		{"showboard", (*Engine).showboard},
		{"result", (*Engine).result},
		{"set", (*Engine).set},
		{"quit", func(*Engine, []string) (string, error) { return "", nil }},
	}
}

func lookup(name string) *command {
	for i := range commands {
		if commands[i].name == name {
			return &commands[i]
		}
	}
	return nil
}

// Run reads commands from in and writes responses to out until quit or
// the end of in. Only a failure to write, or ctx ending, returns an error.
func (e *Engine) Run(ctx context.Context, in io.Reader, out io.Writer) error {
	e.ctx = ctx
	sc := bufio.NewScanner(in)
	sc.Buffer(make([]byte, 64*1024), 1024*1024)
	w := bufio.NewWriter(out)
	for sc.Scan() {
		if err := ctx.Err(); err != nil {
			return err
		}
		line := strings.TrimSpace(strings.TrimSuffix(sc.Text(), "\r"))
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		fields := strings.Fields(line)
		id := ""
		if _, err := strconv.ParseUint(fields[0], 10, 64); err == nil {
			id, fields = fields[0], fields[1:]
		}
		var result string
		var err error
		name := ""
		if len(fields) == 0 {
			err = fmt.Errorf("missing command after id %s", id)
		} else if name = fields[0]; lookup(name) == nil {
			err = fmt.Errorf("unknown command: %s", name)
		} else {
			result, err = lookup(name).run(e, fields[1:])
		}
		if err != nil {
			fmt.Fprintf(w, "?%s %s\n\n", id, oneLine(err.Error()))
		} else if result == "" {
			fmt.Fprintf(w, "=%s\n\n", id)
		} else {
			fmt.Fprintf(w, "=%s %s\n\n", id, result)
		}
		if err := w.Flush(); err != nil {
			return err
		}
		if err == nil && name == "quit" {
			return nil
		}
	}
	if err := sc.Err(); err != nil {
		// A line too long to read is not bad input we can answer; say so
		// and stop, as the stream can no longer be framed.
		fmt.Fprintf(w, "? %s\n\n", oneLine(err.Error()))
		return w.Flush()
	}
	return w.Flush()
}

func oneLine(s string) string { return strings.ReplaceAll(s, "\n", " ") }

func wantArgs(args []string, n int, usage string) error {
	if len(args) != n {
		return fmt.Errorf("usage: %s", usage)
	}
	return nil
}

func (e *Engine) listCommands([]string) (string, error) {
	names := make([]string, len(commands))
	for i, c := range commands {
		names[i] = c.name
	}
	return strings.Join(names, "\n"), nil
}

func (e *Engine) knownCommand(args []string) (string, error) {
	if err := wantArgs(args, 1, "known_command NAME"); err != nil {
		return "", err
	}
	return strconv.FormatBool(lookup(args[0]) != nil), nil
}

// newGame switches to a new game, rebuilding the player for it first so
// that a failure leaves everything as it was.
func (e *Engine) newGame(s env.State) error {
	p := e.player
	if s.Game() != e.state.Game() {
		var err error
		if p, err = player.FromSpec(e.spec, s.Game(), player.Options{Seed: e.seed, Kinds: e.cfg.Kinds}); err != nil {
			return err
		}
	}
	e.state, e.player = s, p
	return nil
}

func (e *Engine) boardsize(args []string) (string, error) {
	if err := wantArgs(args, 1, "boardsize N"); err != nil {
		return "", err
	}
	n, err := strconv.Atoi(args[0])
	if err != nil {
		return "", fmt.Errorf("boardsize %q: want a whole number", args[0])
	}
	g, err := e.cfg.Rules.NewGame(n)
	if err != nil {
		return "", err
	}
	return "", e.newGame(g.Start(nil))
}

func (e *Engine) clearBoard(args []string) (string, error) {
	if err := wantArgs(args, 0, "clear_board"); err != nil {
		return "", err
	}
	return e.boardsize([]string{strconv.Itoa(e.cfg.Rules.Size(e.state.Game()))})
}

func (e *Engine) position(args []string) (string, error) {
	if len(args) == 0 {
		return "", fmt.Errorf("usage: position POS")
	}
	s, err := e.cfg.Rules.ParsePosition(strings.Join(args, " "))
	if err != nil {
		return "", err
	}
	return "", e.newGame(s)
}

// checkTurn parses a colour and checks that it is that colour's turn.
func (e *Engine) checkTurn(colour string) error {
	g := e.state.Game()
	side, err := g.ParseSide(colour)
	if err != nil {
		return err
	}
	if e.state.Outcome().Over {
		return fmt.Errorf("the game is over")
	}
	if side != e.state.ToMove() {
		return fmt.Errorf("it is %s's turn", g.SideName(e.state.ToMove()))
	}
	return nil
}

func (e *Engine) play(args []string) (string, error) {
	if err := wantArgs(args, 2, "play COLOUR MOVE"); err != nil {
		return "", err
	}
	if err := e.checkTurn(args[0]); err != nil {
		return "", err
	}
	a, err := e.state.ParseAction(args[1])
	if err != nil {
		return "", err
	}
	e.state.Apply(a)
	return "", nil
}

func (e *Engine) genmove(args []string) (string, error) {
	if err := wantArgs(args, 1, "genmove COLOUR"); err != nil {
		return "", err
	}
	if err := e.checkTurn(args[0]); err != nil {
		return "", err
	}
	a, err := e.player.Move(e.ctx, e.state)
	if err != nil {
		return "", err
	}
	if !env.IsLegal(e.state, a) {
		return "", fmt.Errorf("the player chose action %d, which is not legal", a)
	}
	move := e.state.ActionString(a)
	e.state.Apply(a)
	return move, nil
}

func (e *Engine) legalMoves(args []string) (string, error) {
	if err := wantArgs(args, 0, "legal_moves"); err != nil {
		return "", err
	}
	var names []string
	for _, a := range e.state.LegalActions(nil) {
		names = append(names, e.state.ActionString(a))
	}
	return strings.Join(names, " "), nil
}

func (e *Engine) showboard(args []string) (string, error) {
	if err := wantArgs(args, 0, "showboard"); err != nil {
		return "", err
	}
	return e.state.Board() + e.state.Game().SideName(e.state.ToMove()), nil
}

func (e *Engine) result(args []string) (string, error) {
	if err := wantArgs(args, 0, "result"); err != nil {
		return "", err
	}
	o := e.state.Outcome()
	switch {
	case !o.Over:
		return "none", nil
	case o.Winner == env.NoSide:
		return "tie", nil
	}
	return e.state.Game().SideName(o.Winner), nil
}

func (e *Engine) set(args []string) (string, error) {
	if err := wantArgs(args, 2, "set OPTION VALUE"); err != nil {
		return "", err
	}
	spec, seed := e.spec, e.seed
	switch name, v := args[0], args[1]; name {
	case "movetime":
		f, err := strconv.ParseFloat(v, 64)
		if err != nil || f < 0 {
			return "", fmt.Errorf("movetime %q: want a non-negative number of seconds", v)
		}
		spec = spec.WithBudget("time", v)
	case "visits":
		n, err := strconv.Atoi(v)
		if err != nil || n < 1 {
			return "", fmt.Errorf("visits %q: want a whole number of at least 1", v)
		}
		spec = spec.WithBudget("visits", v)
	case "seed":
		n, err := strconv.ParseUint(v, 10, 64)
		if err != nil {
			return "", fmt.Errorf("seed %q: want a non-negative whole number", v)
		}
		seed = n
	default:
		return "", fmt.Errorf("unknown option %s: want movetime, visits or seed", name)
	}
	p, err := player.FromSpec(spec, e.state.Game(), player.Options{Seed: seed, Kinds: e.cfg.Kinds})
	if err != nil {
		return "", err
	}
	e.spec, e.seed, e.player = spec, seed, p
	return "", nil
}
