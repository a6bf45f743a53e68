package rating

import (
	"fmt"
	"math"
)

// Table holds the games of a tournament between named players.
type Table struct {
	Names []string
	// games[i][j] is the number of games between i and j; points[i][j] the
	// points i scored against j (a tie is half a point).
	games  [][]float64
	points [][]float64
}

// NewTable returns an empty table for the players.
func NewTable(names []string) *Table {
	t := &Table{Names: append([]string(nil), names...)}
	n := len(names)
	t.games, t.points = make([][]float64, n), make([][]float64, n)
	for i := range t.games {
		t.games[i], t.points[i] = make([]float64, n), make([]float64, n)
	}
	return t
}

// Add records a result of player i against player j.
func (t *Table) Add(i, j int, r Result) {
	n := float64(r.Games())
	pi := float64(r.Wins) + float64(r.Ties)/2
	t.games[i][j] += n
	t.games[j][i] += n
	t.points[i][j] += pi
	t.points[j][i] += n - pi
}

// Result returns i's results against j as a score and a game count.
func (t *Table) Result(i, j int) (points, games float64) { return t.points[i][j], t.games[i][j] }

// Rating is a fitted Elo rating with its 95% interval.
type Rating struct {
	Name      string
	Elo       float64
	Lo, Hi    float64
	Games     float64
	Score     float64 // mean score over the player's games
	Anchor    bool
	Reachable bool // connected to the anchor by games; if not, the rating means nothing
}

// priorGames is the weight of the virtual tie added between every pair of
// players who met, so that a player who won (or lost) every game gets a
// finite rating. Half a game is weak next to real matches of tens of games.
const priorGames = 0.5

// Fit fits Bradley-Terry ratings by maximum likelihood (ties as half
// points), anchored so that player anchor has Elo 0. Intervals come from
// the inverse of the Fisher information with the anchor held fixed.
func (t *Table) Fit(anchor int) ([]Rating, error) {
	n := len(t.Names)
	if anchor < 0 || anchor >= n {
		return nil, fmt.Errorf("anchor %d out of range", anchor)
	}
	games, points := make([][]float64, n), make([][]float64, n)
	for i := range games {
		games[i], points[i] = make([]float64, n), make([]float64, n)
		for j := range games[i] {
			games[i][j], points[i][j] = t.games[i][j], t.points[i][j]
			if i != j && t.games[i][j] > 0 {
				games[i][j] += priorGames
				points[i][j] += priorGames / 2
			}
		}
	}
	reach := reachable(games, anchor)
	// Minorisation-maximisation (Hunter 2004): gamma_i = S_i / sum_j n_ij/(gamma_i+gamma_j).
	gamma := make([]float64, n)
	for i := range gamma {
		gamma[i] = 1
	}
	for iter := 0; iter < 10000; iter++ {
		change := 0.0
		for i := 0; i < n; i++ {
			if !reach[i] {
				continue
			}
			var s, d float64
			for j := 0; j < n; j++ {
				if j == i || games[i][j] == 0 {
					continue
				}
				s += points[i][j]
				d += games[i][j] / (gamma[i] + gamma[j])
			}
			if d == 0 {
				continue
			}
			next := s / d
			change = math.Max(change, math.Abs(math.Log(next/gamma[i])))
			gamma[i] = next
		}
		a := gamma[anchor]
		for i := range gamma {
			gamma[i] /= a
		}
		if change < 1e-10 {
			break
		}
	}
	r := make([]float64, n)
	for i := range r {
		r[i] = math.Log(gamma[i])
	}
	se := standardErrors(games, r, anchor, reach)
	const toElo = 400 / math.Ln10
	out := make([]Rating, n)
	for i := range out {
		var g, p float64
		for j := 0; j < n; j++ {
			g += t.games[i][j]
			p += t.points[i][j]
		}
		score := 0.0
		if g > 0 {
			score = p / g
		}
		e := r[i] * toElo
		out[i] = Rating{Name: t.Names[i], Elo: e, Lo: e - 1.959964*se[i]*toElo, Hi: e + 1.959964*se[i]*toElo,
			Games: g, Score: score, Anchor: i == anchor, Reachable: reach[i]}
		if !reach[i] {
			out[i].Elo, out[i].Lo, out[i].Hi = math.NaN(), math.Inf(-1), math.Inf(1)
		}
	}
	return out, nil
}

// reachable marks the players connected to the anchor through games.
func reachable(games [][]float64, anchor int) []bool {
	seen := make([]bool, len(games))
	stack := []int{anchor}
	seen[anchor] = true
	for len(stack) > 0 {
		i := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		for j, g := range games[i] {
			if g > 0 && !seen[j] {
				seen[j] = true
				stack = append(stack, j)
			}
		}
	}
	return seen
}

// standardErrors returns the standard error of each log-rating relative to
// the anchor (0 for the anchor itself).
func standardErrors(games [][]float64, r []float64, anchor int, reach []bool) []float64 {
	n := len(r)
	var idx []int // the free players: reachable, not the anchor
	for i := 0; i < n; i++ {
		if i != anchor && reach[i] {
			idx = append(idx, i)
		}
	}
	m := len(idx)
	info := make([][]float64, m)
	for a, i := range idx {
		info[a] = make([]float64, m)
		for j := 0; j < n; j++ {
			if j == i || games[i][j] == 0 {
				continue
			}
			p := 1 / (1 + math.Exp(r[j]-r[i]))
			w := games[i][j] * p * (1 - p)
			info[a][a] += w
			for b, k := range idx {
				if k == j {
					info[a][b] -= w
				}
			}
		}
	}
	cov, ok := invert(info)
	se := make([]float64, n)
	for i := range se {
		if i != anchor {
			se[i] = math.Inf(1)
		}
	}
	if ok {
		for a, i := range idx {
			se[i] = math.Sqrt(math.Max(cov[a][a], 0))
		}
	}
	return se
}

// invert inverts a small symmetric matrix by Gauss-Jordan elimination.
func invert(a [][]float64) ([][]float64, bool) {
	n := len(a)
	m := make([][]float64, n)
	for i := range m {
		m[i] = make([]float64, 2*n)
		copy(m[i], a[i])
		m[i][n+i] = 1
	}
	for c := 0; c < n; c++ {
		p := c
		for r := c + 1; r < n; r++ {
			if math.Abs(m[r][c]) > math.Abs(m[p][c]) {
				p = r
			}
		}
		if math.Abs(m[p][c]) < 1e-12 {
			return nil, false
		}
		m[c], m[p] = m[p], m[c]
		pv := m[c][c]
		for k := range m[c] {
			m[c][k] /= pv
		}
		for r := 0; r < n; r++ {
			if r == c || m[r][c] == 0 {
				continue
			}
			f := m[r][c]
			for k := range m[r] {
				m[r][k] -= f * m[c][k]
			}
		}
	}
	out := make([][]float64, n)
	for i := range out {
		out[i] = m[i][n:]
	}
	return out, true
}
