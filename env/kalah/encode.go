package kalah

import "fmt"

// The network's input: 2m+3 planes of 2 rows x m columns, from the side
// to move's point of view. Row 0 is its pits from its left; row 1 the
// opponent's pits opposite them (column c holds the opponent's pit m-c,
// counted from the opponent's left), so that a pit and the pit it
// captures from share a column. Planes 0 to 2m hold a thermometer of each
// pit's count (plane k: 1 when the pit has more than k seeds), which
// tells where its last seed falls up to a whole lap of the board (2m+1
// places); plane 2m+1 the count over all the game's seeds; plane 2m+2 the
// stores over all the game's seeds, the mover's across row 0 and the
// opponent's across row 1.

// planes counts the input's planes.
func (g *Game) planes() int { return 2*g.pits + 3 }

// Encode writes the input above.
func (s *State) Encode(dst []float32) {
	m := s.g.pits
	cells := 2 * m
	dst = dst[:s.g.planes()*cells]
	clear(dst)
	me, you := s.toMove, s.toMove.Other()
	total := float32(s.g.total())
	laps := 2*m + 1
	for row, side := range [2]int{int(me), int(you)} {
		for c := 0; c < m; c++ {
			pit := c
			if row == 1 {
				pit = m - 1 - c
			}
			n := int(s.pits[side][pit])
			cell := row*m + c
			for k := 0; k < min(n, laps); k++ {
				dst[k*cells+cell] = 1
			}
			dst[laps*cells+cell] = float32(n) / total
			dst[(laps+1)*cells+cell] = float32(s.store[side]) / total
		}
	}
}

// InputDoc implements env.InputDoc.
func (g *Game) InputDoc() string {
	m := g.pits
	return fmt.Sprintf("%d planes of 2 rows x %d columns, from the side to move's point of view: row 0 its pits from its left (column c is its pit c+1), "+
		"row 1 the opponent's pits opposite them (column c is the opponent's pit %d-c, counted from the opponent's left). "+
		"Planes 0 to %d: 1 when the pit holds more than k seeds (plane k), else 0; plane %d: the pit's seeds / %d (all the game's seeds); "+
		"plane %d: the stores / %d, the mover's across row 0 and the opponent's across row 1. "+
		"The input of plane p, row r, column c is p*%d + r*%d + c. Action a sows the mover's pit a+1.",
		g.planes(), m, m, 2*m, 2*m+1, g.total(), 2*m+2, g.total(), 2*m, m)
}
