package solve

import (
	"fmt"
	"strings"
	"unicode"

	"github.com/sliderzero/sliderzero/env"
	"github.com/sliderzero/sliderzero/env/connect4"
)

// ReadPosition reads a position to solve in one of the forms its users
// write: the columns played from the empty board as digits 1 to 7
// (4453, the field's test sets), the game's moves as letters a to g with
// or without spaces (ddec, d d e c), the game's one-line form, or - for
// the empty board. It refuses a finished game, saying why.
func ReadPosition(text string) (env.State, error) {
	if i := strings.IndexFunc(text, func(r rune) bool { return r != ' ' && unicode.IsSpace(r) || unicode.IsControl(r) }); i >= 0 {
		return nil, fmt.Errorf("malformed position %s: a tab or control character inside (separate moves with spaces)", env.Quote(text))
	}
	var st env.State
	var err error
	switch {
	case text == "-":
		st = connect4.New().Start(nil)
	case strings.Contains(text, "/"):
		st, err = connect4.New().ParseState(text)
	case strings.Trim(text, "0123456789") == "":
		if _, err = Standard.ParseMoves(text); err == nil {
			st, err = playMoves(letters(text))
		}
	default:
		st, err = playMoves(letters(text))
	}
	if err != nil {
		return nil, err
	}
	p, err := PositionOf(st)
	if err != nil {
		return nil, err
	}
	if Standard.LastWon(p) {
		side := "X"
		if p.Moves()%2 == 0 {
			side = "O"
		}
		return nil, fmt.Errorf("the game is over: %s has four in a row", side)
	}
	if Standard.Over(p) {
		return nil, fmt.Errorf("the game is over: the board is full")
	}
	return st, nil
}

// letters splits the game's moves: letters a to g (or digits), one a
// move, with or without spaces between them.
func letters(text string) []string {
	if strings.Contains(text, " ") {
		return strings.Fields(text)
	}
	var moves []string
	for _, r := range text {
		moves = append(moves, string(r))
	}
	return moves
}

// playMoves plays moves from the empty board.
func playMoves(moves []string) (env.State, error) {
	st := connect4.New().Start(nil)
	for i, m := range moves {
		a, err := st.ParseAction(m)
		if err != nil {
			return nil, fmt.Errorf("move %d: %w", i+1, err)
		}
		st.Apply(a)
	}
	return st, nil
}
