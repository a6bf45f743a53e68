package solver

import (
	"go/build"
	"go/parser"
	"go/token"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"testing"
)

// TestTrainingNeverSeesTheSolver checks that the solvers only judge: the
// packages that learn, search and hold the network do not import them
// (package solver, every game's solver, the accuracy package built on
// them), directly or through others.
func TestTrainingNeverSeesTheSolver(t *testing.T) {
	const module = "github.com/sliderzero/sliderzero"
	_, here, _, _ := runtime.Caller(0)
	root := filepath.Dir(filepath.Dir(here))
	forbidden := map[string]bool{module + "/solver": true, module + "/solver/pns": true, module + "/accuracy": true,
		module + "/env/connect4/solve": true, module + "/env/slider/solve": true}
	// and every game's solver that all.go names
	all, err := parser.ParseFile(token.NewFileSet(), filepath.Join(root, "solver", "all.go"), nil, parser.ImportsOnly)
	if err != nil {
		t.Fatal(err)
	}
	for _, imp := range all.Imports {
		path, _ := strconv.Unquote(imp.Path.Value)
		forbidden[path] = true
	}
	if len(all.Imports) < 2 {
		t.Fatalf("solver/all.go names %d solvers", len(all.Imports))
	}
	deps := map[string][]string{}
	var walk func(path string)
	walk = func(path string) {
		if _, done := deps[path]; done {
			return
		}
		deps[path] = nil
		pkg, err := build.Import(path, root, 0)
		if err != nil {
			t.Fatalf("%s: %v", path, err)
		}
		for _, imp := range pkg.Imports {
			if strings.HasPrefix(imp, module) {
				deps[path] = append(deps[path], imp)
				walk(imp)
			}
		}
	}
	for _, top := range []string{"train", "train/report", "mcts", "mcts/uct", "model"} {
		walk(module + "/" + top)
	}
	for pkg, imports := range deps {
		for _, imp := range imports {
			if forbidden[imp] {
				t.Errorf("%s imports %s: training, search and the network must not depend on the solver", pkg, imp)
			}
		}
	}
	if len(deps) < 5 {
		t.Fatalf("walked only %d packages", len(deps))
	}
}
