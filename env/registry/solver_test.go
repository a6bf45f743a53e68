package registry

import (
	"context"
	"slices"
	"testing"

	"github.com/sliderzero/sliderzero/env"
)

// A solver is of one kind, registered once; the tools find it by the
// game's name, in any case.
func TestRegisterSolver(t *testing.T) {
	searched := func(env.Game, int, uint64) env.ExactSolver { return nil }
	tables := &Tables{
		Solve: func(context.Context, env.Game, func(int64, int64)) (Table, error) { return nil, nil },
		Read:  func(string) (Table, error) { return nil, nil },
	}
	RegisterSolver("solvertest-a", Solver{Scale: "a", New: searched})
	RegisterSolver("solvertest-b", Solver{Scale: "b", Tables: tables})
	if s, ok := SolverOf("SolverTest-A"); !ok || s.Scale != "a" {
		t.Errorf("SolverOf: %+v, %v", s, ok)
	}
	if _, ok := SolverOf("solvertest-c"); ok {
		t.Error("a game without a solver has one")
	}
	if got := Solved(); !slices.Contains(got, "solvertest-a") || !slices.Contains(got, "solvertest-b") {
		t.Errorf("Solved: %v", got)
	}
	for name, s := range map[string]Solver{
		"solvertest-a": {New: searched},                 // twice
		"solvertest-d": {},                              // neither kind
		"solvertest-e": {New: searched, Tables: tables}, // both
		"solvertest-f": {Tables: &Tables{}},             // tables that cannot solve or read
	} {
		func() {
			defer func() {
				if recover() == nil {
					t.Errorf("%s: registered", name)
				}
			}()
			RegisterSolver(name, s)
		}()
	}
}
