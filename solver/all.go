package solver

// The games' exact solvers: one line each. A solver's package registers
// it (registry.RegisterSolver) when imported; only the packages that
// judge play import this one, never those that learn (boundary_test.go).
import (
	_ "github.com/sliderzero/sliderzero/env/connect4/solve"
	_ "github.com/sliderzero/sliderzero/env/hex/solve"
	_ "github.com/sliderzero/sliderzero/env/kalah/solve"
	_ "github.com/sliderzero/sliderzero/env/slider/solve"
)
