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
		fmt.Fprintf(h.out, "%s to move (your move, 'moves' to list them, 'quit' to stop): ", side)
		if !h.in.Scan() {
			if err := h.in.Err(); err != nil {
				return 0, fmt.Errorf("reading a move: %w", err)
			}
			return 0, fmt.Errorf("reading a move: %w", io.ErrUnexpectedEOF)
		}
		line := strings.TrimSpace(h.in.Text())
		switch strings.ToLower(line) {
		case "":
			continue
		case "quit", "exit":
			return 0, ErrQuit
		case "moves", "help", "?":
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
