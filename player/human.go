package player

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/sliderzero/sliderzero/env"
)

// ErrQuit is returned by a human player who asks to stop the game.
var ErrQuit = errors.New("the player quit")

// ErrUndo is returned by a human player who asks to take back their last
// move (and the opponent's reply): the game runner goes back to that
// player's previous turn.
var ErrUndo = errors.New("the player asked to undo")

// Human reads moves from a keyboard. A malformed or illegal move is
// explained and asked for again.
type Human struct {
	in  *bufio.Scanner
	out io.Writer
}

// NewHuman returns a player that reads moves from in and prompts on out.
func NewHuman(in io.Reader, out io.Writer) *Human {
	return &Human{in: bufio.NewScanner(in), out: out}
}

func (h *Human) String() string { return "human" }

func (h *Human) Move(ctx context.Context, s env.State) (int, error) {
	side := s.Game().SideName(s.ToMove())
	for {
		if err := ctx.Err(); err != nil {
			return 0, err
		}
		fmt.Fprintf(h.out, "%s to move (your move; 'help', 'moves', 'undo', 'quit'): ", side)
		if !h.in.Scan() {
			if err := h.in.Err(); err != nil {
				return 0, fmt.Errorf("reading a move: %w", err)
			}
			// The input ended (a script without 'quit', Ctrl-D): the
			// person left; the game has no result, as with 'quit'.
			return 0, fmt.Errorf("the input ended: %w", ErrQuit)
		}
		line := strings.TrimSpace(h.in.Text())
		switch strings.ToLower(line) {
		case "":
			continue
		case "quit", "exit":
			return 0, ErrQuit
		case "undo", "takeback":
			return 0, ErrUndo
		case "help", "?":
			fmt.Fprintf(h.out, "%s\n", howToPlay(s.Game()))
			fmt.Fprintf(h.out, "Commands: a move in the notation above; 'moves' lists the legal ones; 'undo' takes back your last move and the reply; 'quit' abandons the game.\n")
			fallthrough
		case "moves":
			var names []string
			for _, a := range s.LegalActions(nil) {
				names = append(names, s.ActionString(a))
			}
			fmt.Fprintf(h.out, "legal moves: %s\n", strings.Join(names, " "))
			continue
		}
		a, err := s.ParseAction(line)
		if err != nil {
			fmt.Fprintf(h.out, "%v; try again.\n", err)
			continue
		}
		return a, nil
	}
}

// howToPlay is the game's own summary of its goal, pieces and notation
// (env.Explained), or what every game has.
func howToPlay(g env.Game) string {
	if e, ok := g.(env.Explained); ok {
		return strings.TrimSpace(e.HowToPlay())
	}
	return fmt.Sprintf("%s: sides %s and %s.", g.Describe(), g.SideName(0), g.SideName(1))
}
