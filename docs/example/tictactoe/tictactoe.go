// Package tictactoe is the smallest complete game of docs/new-game.md:
// noughts and crosses on a 3x3 board, X first, three in a row wins. It
// keeps the whole env contract and the optional parts a front end and the
// classical players use, and it is tested by the conformance suite. It is
// not registered, so the commands do not list it; see the guide for the
// one line that would.
package tictactoe

import (
	"fmt"
	"math/rand/v2"
	"strings"

	"github.com/sliderzero/sliderzero/env"
	"github.com/sliderzero/sliderzero/env/registry"
)

// Game is tic-tac-toe; it has no settings.
type Game struct{}

// State is a position: the cells 0-8 (a1 b1 c1 a2 ... c3), 0 empty, 1 X,
// 2 O.
type State struct {
	g       *Game
	cells   [9]int8
	toMove  env.Side
	ply     int
	outcome env.Outcome
}

var lines = [8][3]int{{0, 1, 2}, {3, 4, 5}, {6, 7, 8}, {0, 3, 6}, {1, 4, 7}, {2, 5, 8}, {0, 4, 8}, {2, 4, 6}}

func (g *Game) Name() string          { return "tictactoe" }
func (g *Game) Describe() string      { return "tictactoe" } // no settings
func (g *Game) ActionSize() int       { return 9 }
func (g *Game) InputShape() env.Shape { return env.Shape{C: 2, H: 3, W: 3} }
func (g *Game) SideName(s env.Side) string {
	return [2]string{"X", "O"}[s]
}
func (g *Game) ParseSide(t string) (env.Side, error) {
	switch t {
	case "X":
		return 0, nil
	case "O":
		return 1, nil
	}
	return env.NoSide, fmt.Errorf("unknown side %s: want X or O", env.Quote(t))
}
func (g *Game) Start(*rand.Rand) env.State { return &State{g: g} }

// ParseState reads "X.O/.X./..O O": rows top first, then the side to move.
func (g *Game) ParseState(text string) (env.State, error) {
	f := strings.Fields(text)
	if len(f) != 2 || len(f[0]) != 11 || f[0][3] != '/' || f[0][7] != '/' {
		return nil, fmt.Errorf("malformed position %s: want three rows of three separated by '/', a space and the side to move", env.Quote(text))
	}
	side, err := g.ParseSide(f[1])
	if err != nil {
		return nil, err
	}
	s := &State{g: g, toMove: side}
	rows := strings.Split(f[0], "/")
	for i, row := range rows {
		for x := 0; x < 3; x++ {
			c := &s.cells[(2-i)*3+x]
			switch row[x] {
			case 'X':
				*c = 1
			case 'O':
				*c = 2
			case '.':
			default:
				return nil, fmt.Errorf("malformed position: %q is not X, O or \".\" (empty)", row[x])
			}
			if *c != 0 {
				s.ply++
			}
		}
	}
	if want := env.Side(s.ply % 2); side != want {
		return nil, fmt.Errorf("invalid position: %d pieces, so %s is to move", s.ply, g.SideName(want))
	}
	s.judge()
	if s.outcome.Over && s.outcome.Winner == side {
		return nil, fmt.Errorf("invalid position: %s has won and is to move", g.SideName(side))
	}
	return s, nil
}

// judge sets the outcome: a line of three wins, a full board ties.
func (s *State) judge() {
	for _, l := range lines {
		if c := s.cells[l[0]]; c != 0 && c == s.cells[l[1]] && c == s.cells[l[2]] {
			s.outcome = env.Outcome{Over: true, Winner: env.Side(c - 1)}
			return
		}
	}
	if s.ply == 9 {
		s.outcome = env.Outcome{Over: true, Winner: env.NoSide}
	}
}

func (s *State) Game() env.Game       { return s.g }
func (s *State) ToMove() env.Side     { return s.toMove }
func (s *State) Ply() int             { return s.ply }
func (s *State) Outcome() env.Outcome { return s.outcome }
func (s *State) LegalActions(dst []int) []int {
	if s.outcome.Over {
		return dst
	}
	for i, c := range s.cells {
		if c == 0 {
			dst = append(dst, i)
		}
	}
	return dst
}
func (s *State) Apply(a int) {
	s.cells[a] = int8(s.toMove) + 1
	s.ply++
	s.toMove = s.toMove.Other()
	s.judge()
}
func (s *State) Clone() env.State       { c := *s; return &c }
func (s *State) CopyFrom(src env.State) { *s = *src.(*State) }
func (s *State) Hash() uint64 {
	var h uint64
	for _, c := range s.cells {
		h = h*3 + uint64(c)
	}
	return env.Mix64(h<<1 | uint64(s.toMove))
}

// Encode: plane 0 the side to move's pieces, plane 1 the opponent's.
func (s *State) Encode(dst []float32) {
	clear(dst[:18])
	for i, c := range s.cells {
		if c != 0 {
			plane := 0
			if env.Side(c-1) != s.toMove {
				plane = 1
			}
			dst[plane*9+i] = 1
		}
	}
}
func (s *State) ActionString(a int) string { return fmt.Sprintf("%c%d", 'a'+a%3, a/3+1) }
func (s *State) ParseAction(t string) (int, error) {
	t = strings.TrimSpace(t)
	if len(t) != 2 || t[0] < 'a' || t[0] > 'c' || t[1] < '1' || t[1] > '3' {
		return 0, fmt.Errorf("malformed move %s: want a cell a1 to c3", env.Quote(t))
	}
	a := int(t[1]-'1')*3 + int(t[0]-'a')
	if s.outcome.Over || s.cells[a] != 0 {
		return 0, fmt.Errorf("illegal move %s: the cell is taken or the game is over", t)
	}
	return a, nil
}
func (s *State) String() string {
	b := []byte("...........")
	for i, c := range s.cells {
		b[(2-i/3)*4+i%3] = ".XO"[c]
	}
	b[3], b[7] = '/', '/'
	return string(b) + " " + s.g.SideName(s.toMove)
}

// Board is what front ends draw: rows top first, cells separated by
// spaces.
func (s *State) Board() string {
	var b strings.Builder
	for _, row := range strings.Split(s.String()[:11], "/") {
		b.WriteString(strings.Join(strings.Split(row, ""), " ") + "\n")
	}
	return b.String()
}
func (s *State) Display() string { return s.Board() + s.g.SideName(s.toMove) + " to move\n" }

// The optional parts: what a front end draws and clicks, and the
// evaluation the classical players (greedy, alphabeta) search with.
func (g *Game) Looks() map[string]env.Look {
	return map[string]env.Look{"X": {Side: 0, Label: "X"}, "O": {Side: 1, Label: "O"}}
}
func (s *State) MoveShape(a int) env.MoveShape {
	return env.MoveShape{To: &env.Cell{Col: a % 3, Row: a / 3}}
}
func (g *Game) Evaluate(st env.State) float64 {
	s := st.(*State)
	score := 0.0
	for _, l := range lines {
		mine, theirs := 0, 0
		for _, i := range l {
			switch {
			case s.cells[i] == int8(s.toMove)+1:
				mine++
			case s.cells[i] != 0:
				theirs++
			}
		}
		if theirs == 0 {
			score += float64(mine)
		}
		if mine == 0 {
			score -= float64(theirs)
		}
	}
	return score
}

// Registration is what makes the commands know the game: a package that
// calls Register from its init, imported by one line in env/games/all.go.
// The example offers it as a function, so that it stays out of the lists.
func Registration() registry.Game {
	return registry.Game{
		Name:  "tictactoe",
		Title: "Tic-tac-toe",
		New: func(s registry.Spec) (env.Game, error) {
			if s.Text("size") != "" {
				return nil, fmt.Errorf("tic-tac-toe has no size setting")
			}
			return &Game{}, nil
		},
	}
}
