package envtest

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/sliderzero/sliderzero/env"
)

// brokenGame is TakeAway with one deliberate defect, to show that the
// conformance suite fails games that break the contract.
type brokenGame struct {
	*TakeAway
	defect string
	starts int // games started, for the seed defect
}

type brokenState struct {
	*State
	g *brokenGame
}

func (g *brokenGame) wrap(s env.State) env.State { return &brokenState{State: s.(*State), g: g} }

func (g *brokenGame) Start(rng *rand.Rand) env.State {
	s := g.TakeAway.Start(rng).(*State)
	if g.defect == "seed" {
		g.starts++
		s.stones += g.starts % 3 // not from the seeded stream
	}
	return g.wrap(s)
}

func (g *brokenGame) ParseState(text string) (env.State, error) {
	s, err := g.TakeAway.ParseState(text)
	if err != nil {
		return nil, err
	}
	return g.wrap(s), nil
}

func (g *brokenGame) ParseSide(text string) (env.Side, error) {
	if g.defect == "sides" {
		return 0, nil
	}
	return g.TakeAway.ParseSide(text)
}

func (s *brokenState) Game() env.Game { return s.g }

func (s *brokenState) Clone() env.State {
	if s.g.defect == "apply" {
		return s // shares the position
	}
	return s.g.wrap(s.State.Clone())
}

func (s *brokenState) CopyFrom(src env.State) { s.State.CopyFrom(src.(*brokenState).State) }

func (s *brokenState) LegalActions(dst []int) []int {
	switch {
	case s.g.defect == "terminal" && s.Outcome().Over:
		return append(dst, 0)
	case s.g.defect == "legal" && s.stones >= 3:
		return append(s.State.LegalActions(dst), 2)
	}
	return s.State.LegalActions(dst)
}

func (s *brokenState) Apply(a int) {
	if s.g.defect == "playout" && s.stones-a-1 < 1 {
		s.ply++ // the last stone is never taken
		return
	}
	s.State.Apply(a)
}

func (s *brokenState) ActionString(a int) string {
	if s.g.defect == "notation" {
		return fmt.Sprintf("take%d", a+1)
	}
	return s.State.ActionString(a)
}

func (s *brokenState) Hash() uint64 {
	if s.g.defect == "hash" {
		return s.State.Hash() ^ uint64(s.ply)<<20
	}
	return s.State.Hash()
}

func (s *brokenState) Encode(dst []float32) {
	s.State.Encode(dst)
	if s.g.defect == "encoding" {
		dst[:len(dst)+1][len(dst)] = 1
	}
}

func (s *brokenState) Board() string {
	if s.g.defect == "draw" {
		return "a b\nc\n"
	}
	return s.State.Board()
}

// recorder collects a suite's failures instead of failing the test.
type recorder struct {
	testing.TB
	errors []string
}

func (r *recorder) Helper() {}
func (r *recorder) Errorf(format string, a ...any) {
	r.errors = append(r.errors, fmt.Sprintf(format, a...))
}

func TestConformanceOfTakeAway(t *testing.T) {
	for _, g := range []env.Game{&TakeAway{Stones: 9}, &TakeAway{Stones: 9, Double: true}} {
		t.Log(Conformance(t, g, Options{Games: 50}))
	}
}

// TestConformanceFailsBrokenGames plants one defect at a time in a copy of
// TakeAway; the suite must catch each under its own check, and pass the
// copy without a defect.
func TestConformanceFailsBrokenGames(t *testing.T) {
	defects := []string{"seed", "sides", "apply", "terminal", "legal", "playout", "notation", "hash", "encoding", "draw"}
	caught := 0
	for _, d := range append([]string{""}, defects...) {
		rec := &recorder{TB: t}
		r := Conformance(rec, &brokenGame{TakeAway: &TakeAway{Stones: 9}, defect: d}, Options{Games: 20, MaxPlies: 200})
		checks, failures := r.Total()
		switch {
		case d == "" && failures > 0:
			t.Errorf("the copy without a defect fails: %s", strings.Join(rec.errors, "; "))
		case d == "":
		case r.Failures[d] == 0:
			t.Errorf("defect %q not caught by its check (%d of %d checks failed: %v)", d, failures, checks, r.Failures)
		default:
			caught++
			t.Logf("defect %q: %d of %d checks failed, e.g. %s", d, failures, checks, rec.errors[0])
		}
	}
	t.Logf("%d of %d planted defects caught", caught, len(defects))
}
