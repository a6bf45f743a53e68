package solver

import (
	"context"
	"math/rand/v2"
	"testing"

	"github.com/sliderzero/sliderzero/env"
	"github.com/sliderzero/sliderzero/env/connect4"
	c4solve "github.com/sliderzero/sliderzero/env/connect4/solve"
)

func playC4(t *testing.T, moves string) env.State {
	t.Helper()
	s := connect4.New().Start(nil)
	for _, m := range moves {
		a, err := s.ParseAction(string(m))
		if err != nil {
			t.Fatal(err)
		}
		s.Apply(a)
	}
	return s
}

// The perfect player takes the quickest win, and, lost, resists longest.
func TestPerfectPlaysTheQuickestWinAndTheSlowestLoss(t *testing.T) {
	for seed := uint64(0); seed < 1; seed++ {
		p := NewPerfect(c4solve.NewExact(8, 0), "solver", 0, rand.New(rand.NewPCG(seed, 1)))
		// X has three on the bottom row, a1-c1: d1 wins at once; other
		// moves may still win, later.
		s := playC4(t, "112233")
		if a, err := p.Move(context.Background(), s); err != nil || a != 3 {
			t.Errorf("seed %d: X played %d (%v), want the win in column d", seed, a, err)
		}
		if len(p.Last) == 0 {
			t.Errorf("no scores kept")
		}
	}
}

// On positions of random games, won and lost, the perfect player's move
// has the best exact score of all moves: the quickest win, the slowest
// loss.
func TestPerfectPlaysTheBestScore(t *testing.T) {
	rng := rand.New(rand.NewPCG(9, 9))
	judge := c4solve.NewExact(16, 0)
	p := NewPerfect(c4solve.NewExact(16, 0), "solver", 0, rand.New(rand.NewPCG(1, 1)))
	checked := map[int]int{}
	for n := 0; n < 30; {
		s := connect4.New().Start(nil)
		for s.Ply() < 16+rng.IntN(12) && !s.Outcome().Over {
			moves := s.LegalActions(nil)
			s.Apply(moves[rng.IntN(len(moves))])
		}
		if s.Outcome().Over {
			continue
		}
		scores, err := env.ScoreMoves(context.Background(), judge, s, nil, false)
		if err != nil {
			t.Fatal(err)
		}
		best, _ := env.BestMoves(scores)
		a, err := p.Move(context.Background(), s)
		if err != nil {
			t.Fatal(err)
		}
		for _, m := range scores {
			if m.Action == a && m.Score != best {
				t.Errorf("%s: played %s scoring %v, the best is %v", s, s.ActionString(a), m.Score, best)
			}
		}
		checked[best.Lo]++
		n++
	}
	wins, losses := 0, 0
	for sc, k := range checked {
		if sc > 0 {
			wins += k
		} else if sc < 0 {
			losses += k
		}
	}
	if wins == 0 || losses == 0 {
		t.Errorf("the positions were not both won and lost: %v", checked)
	}
}

// counting counts the questions that reach a solver.
type counting struct {
	x     env.ExactSolver
	calls int
}

func (c *counting) ScoreMove(ctx context.Context, s env.State, a int, weak bool) (env.Bounds, error) {
	c.calls++
	return c.x.ScoreMove(ctx, s, a, weak)
}

// A cached answer costs no search; a strong answer serves a weak question.
func TestCacheAnswersAgain(t *testing.T) {
	inner := &counting{x: c4solve.NewExact(8, 0)}
	c := NewCache()
	x := c.Cached(inner)
	s := playC4(t, "4433221")
	strong, err := env.ScoreMoves(context.Background(), x, s, nil, false)
	if err != nil {
		t.Fatal(err)
	}
	n := inner.calls
	again, _ := env.ScoreMoves(context.Background(), c.Cached(&counting{x: c4solve.NewExact(8, 0)}), s, nil, false)
	weak, _ := env.ScoreMoves(context.Background(), x, s, nil, true)
	if inner.calls != n || len(again) != len(strong) {
		t.Errorf("%d questions reached the solver after the first %d", inner.calls-n, n)
	}
	for i := range strong {
		cl, _ := strong[i].Score.Class()
		if again[i] != strong[i] || weak[i].Score != (env.Bounds{Lo: cl, Hi: cl}) {
			t.Errorf("move %d: %v, again %v, weak %v", i, strong[i], again[i], weak[i])
		}
	}
}
