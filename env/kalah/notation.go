package kalah

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/sliderzero/sliderzero/env"
)

func (g *Game) SideName(s env.Side) string {
	if s == North {
		return "N"
	}
	return "S"
}

// ParseSide reads S or South, N or North, in any case.
func (g *Game) ParseSide(text string) (env.Side, error) {
	switch strings.ToUpper(strings.TrimSpace(text)) {
	case "S", "SOUTH":
		return South, nil
	case "N", "NORTH":
		return North, nil
	}
	return env.NoSide, fmt.Errorf("unknown side %s: want S (South) or N (North)", env.Quote(text))
}

// ActionString writes a move as its pit's number, 1 to m from the
// mover's left.
func (s *State) ActionString(a int) string {
	if a < 0 || a >= s.g.pits {
		return fmt.Sprintf("action(%d)", a)
	}
	return strconv.Itoa(a + 1)
}

// ParseAction reads a pit's number, 1 to m from the mover's left, and
// checks that the pit has seeds.
func (s *State) ParseAction(text string) (int, error) {
	if s.Outcome().Over {
		return 0, fmt.Errorf("the game is over")
	}
	t := strings.TrimSpace(text)
	if len(t) != 1 || t[0] < '1' || int(t[0]-'1') >= s.g.pits {
		return 0, fmt.Errorf("malformed move %s: want a pit, 1 to %d from the mover's left", env.Quote(text), s.g.pits)
	}
	a := int(t[0] - '1')
	if s.pits[s.toMove][a] == 0 {
		return 0, fmt.Errorf("illegal move %s: %s's pit %d is empty", t, s.g.SideName(s.toMove), a+1)
	}
	return a, nil
}

// String is the one-line position: the board counter-clockwise from
// South's first pit (South's pits from its left, South's store, North's
// pits from its left, North's store), separated by '/', the pits by ',';
// a space; the side to move: "3,3,3,3/0/3,3,3,3/0 S".
func (s *State) String() string {
	var b strings.Builder
	for _, side := range [2]env.Side{South, North} {
		for i := 0; i < s.g.pits; i++ {
			if i > 0 {
				b.WriteByte(',')
			}
			b.WriteString(strconv.Itoa(int(s.pits[side][i])))
		}
		fmt.Fprintf(&b, "/%d", s.store[side])
		if side == South {
			b.WriteByte('/')
		}
	}
	b.WriteByte(' ')
	b.WriteString(s.g.SideName(s.toMove))
	return b.String()
}

// ParseState reads the one-line form. The counts must add up to the
// game's seeds (2 x pits x seeds), and a side to move with no seeds in
// its pits must leave none in the other's either: the game ended, and the
// rules swept them into their store. The ply count starts at 0.
func (g *Game) ParseState(text string) (env.State, error) {
	f := strings.Fields(text)
	if len(f) != 2 {
		return nil, fmt.Errorf("malformed position %s: want South's pits, South's store, North's pits and North's store separated by '/', a space and the side to move (%s)", env.Quote(text), g.Start(nil))
	}
	side, err := g.ParseSide(f[1])
	if err != nil {
		return nil, fmt.Errorf("malformed position: %w", err)
	}
	parts := strings.Split(f[0], "/")
	if len(parts) != 4 {
		return nil, fmt.Errorf("malformed position %s: %d parts separated by '/', want 4 (South's pits, its store, North's pits, its store)", env.Quote(f[0]), len(parts))
	}
	s := &State{g: g, toMove: side}
	sum := 0
	for k, who := range [2]env.Side{South, North} {
		name := g.SideName(who)
		pits := strings.Split(parts[2*k], ",")
		if len(pits) != g.pits {
			return nil, fmt.Errorf("malformed position: %s has %d pits, want %d separated by ','", name, len(pits), g.pits)
		}
		for i, p := range pits {
			n, err := g.count(p)
			if err != nil {
				return nil, fmt.Errorf("malformed position: %s's pit %d: %w", name, i+1, err)
			}
			s.pits[who][i] = uint8(n)
			sum += n
		}
		n, err := g.count(parts[2*k+1])
		if err != nil {
			return nil, fmt.Errorf("malformed position: %s's store: %w", name, err)
		}
		s.store[who] = uint8(n)
		sum += n
	}
	if sum != g.total() {
		return nil, fmt.Errorf("invalid position: %d seeds, but %s has %d (2 x %d pits x %d seeds)", sum, g.Describe(), g.total(), g.pits, g.seeds)
	}
	if left := s.seedsOf(side.Other()); s.seedsOf(side) == 0 && left > 0 {
		return nil, fmt.Errorf("invalid position: %s is to move with no seeds in its pits, so the game is over and %s's %d seeds belong in its store", g.SideName(side), g.SideName(side.Other()), left)
	}
	return s, nil
}

// count reads a count of seeds: digits, at most the game's seeds.
func (g *Game) count(text string) (int, error) {
	n, err := strconv.Atoi(text)
	if err != nil || text == "" || text[0] < '0' || text[0] > '9' || len(text) > 3 {
		return 0, fmt.Errorf("%s is not a count of seeds", env.Quote(text))
	}
	if n > g.total() {
		return 0, fmt.Errorf("%d seeds, more than the game's %d", n, g.total())
	}
	return n, nil
}

// Board writes three rows of pits+2 cells: North's pits on top (its pit 1
// on the right, above South's last), the stores in the middle row at the
// ends (North's on the left, as S7 or N12: a store's side and count),
// South's pits at the bottom from its pit 1 on the left; "." is no place.
func (s *State) Board() string {
	m := s.g.pits
	var b strings.Builder
	b.WriteString(".")
	for c := 1; c <= m; c++ {
		fmt.Fprintf(&b, " %d", s.pits[North][m-c])
	}
	fmt.Fprintf(&b, " .\nN%d", s.store[North])
	b.WriteString(strings.Repeat(" .", m))
	fmt.Fprintf(&b, " S%d\n.", s.store[South])
	for i := 0; i < m; i++ {
		fmt.Fprintf(&b, " %d", s.pits[South][i])
	}
	b.WriteString(" .\n")
	return b.String()
}

// Looks draws a store as a disc of its side labelled with its count; the
// pits' counts are shown as they are.
func (g *Game) Looks() map[string]env.Look {
	looks := make(map[string]env.Look, 2*(g.total()+1))
	for n := 0; n <= g.total(); n++ {
		label := strconv.Itoa(n)
		looks["S"+label] = env.Look{Side: South, Label: label}
		looks["N"+label] = env.Look{Side: North, Label: label}
	}
	return looks
}

// Frame implements env.Framed: a grid, and no move leaves the board.
func (g *Game) Frame() env.Frame { return env.Frame{Style: env.StyleGrid} }

// MoveShape is a click on the pit sown.
func (s *State) MoveShape(a int) env.MoveShape {
	if a < 0 || a >= s.g.pits {
		return env.MoveShape{Button: s.ActionString(a)}
	}
	if s.toMove == North {
		return env.MoveShape{To: &env.Cell{Col: s.g.pits - a, Row: 2}}
	}
	return env.MoveShape{To: &env.Cell{Col: a + 1, Row: 0}}
}

// Display draws the board with each side's pit numbers, from its own
// left, and says whose turn it is.
func (s *State) Display() string {
	m := s.g.pits
	var b strings.Builder
	b.WriteString("     ")
	for c := 1; c <= m; c++ {
		fmt.Fprintf(&b, "%4d", m-c+1)
	}
	b.WriteString("   North's pits\n     ")
	for c := 1; c <= m; c++ {
		fmt.Fprintf(&b, "%4d", s.pits[North][m-c])
	}
	fmt.Fprintf(&b, "\n N%3d%s  %2d S\n     ", s.store[North], strings.Repeat("    ", m), s.store[South])
	for i := 0; i < m; i++ {
		fmt.Fprintf(&b, "%4d", s.pits[South][i])
	}
	b.WriteString("\n     ")
	for i := 0; i < m; i++ {
		fmt.Fprintf(&b, "%4d", i+1)
	}
	b.WriteString("   South's pits\n")
	switch o := s.Outcome(); {
	case o.Over && o.Winner == env.NoSide:
		fmt.Fprintf(&b, "The game is over: a draw, %d to %d.\n", s.store[South], s.store[North])
	case o.Over:
		fmt.Fprintf(&b, "The game is over: %s wins, %d to %d.\n", s.g.SideName(o.Winner), s.store[o.Winner], s.store[o.Winner.Other()])
	default:
		fmt.Fprintf(&b, "%s to move.\n", s.g.SideName(s.toMove))
	}
	return b.String()
}

// HowToPlay tells a person at a terminal the goal, the board and the
// notation (env.Explained).
func (g *Game) HowToPlay() string {
	return fmt.Sprintf(`Kalah: South (S, below) and North (N, above) each have %d pits and a store on their right. A move takes all the seeds of one of your pits and sows them one a place counter-clockwise: your next pits, your store, the opponent's pits (never its store), and round again.
Last seed in your store: you move again. Last seed in an empty pit of yours with seeds opposite: both go to your store. When the side to move has no seeds in its pits, the game ends and the other side puts its seeds in its store; the larger store wins.
A move: the pit's number, 1 to %d from your left (South's pit 1 is the bottom left, North's the top right).`, g.pits, g.pits)
}
