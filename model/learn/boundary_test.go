package learn

import (
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
)

// What plays links no Gorgonia: the packages a program that only plays
// is made of (the engine, the web app, players and their search, the
// network's inference, matches, the solver and accuracy, and self-play
// with its replay window, which a producer elsewhere runs alone) do not
// depend on any gorgonia.org package, directly or through others, the
// project's or not. Training is this package's job alone.
func TestWhatPlaysLinksNoGorgonia(t *testing.T) {
	const module = "github.com/sliderzero/sliderzero"
	_, here, _, _ := runtime.Caller(0)
	root := filepath.Join(filepath.Dir(here), "..", "..")
	plays := []string{"engine", "web", "player", "mcts", "model", "match", "accuracy", "solver", "train/replay", "train/selfplay"}
	args := []string{"list", "-deps", "-f", "{{.ImportPath}}{{range .Imports}} {{.}}{{end}}", "./model/learn"}
	for _, p := range plays {
		args = append(args, "./"+p)
	}
	cmd := exec.Command("go", args...)
	cmd.Dir = root
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("go list: %v", err)
	}
	imports := map[string][]string{}
	for _, line := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		fields := strings.Fields(line)
		imports[fields[0]] = fields[1:]
	}
	// chain is the import path from top to a gorgonia.org package, or
	// nil when there is none (breadth first: a shortest one).
	chain := func(top string) []string {
		from := map[string]string{top: ""}
		queue := []string{top}
		for len(queue) > 0 {
			p := queue[0]
			queue = queue[1:]
			if strings.HasPrefix(p, "gorgonia.org/") {
				var path []string
				for ; p != ""; p = from[p] {
					path = append([]string{strings.TrimPrefix(p, module+"/")}, path...)
				}
				return path
			}
			for _, imp := range imports[p] {
				if _, seen := from[imp]; !seen {
					from[imp] = p
					queue = append(queue, imp)
				}
			}
		}
		return nil
	}
	if chain(module+"/model/learn") == nil {
		t.Fatalf("the walk found no Gorgonia under model/learn itself: it sees nothing (%d packages listed)", len(imports))
	}
	for _, p := range plays {
		if c := chain(module + "/" + p); c != nil {
			t.Errorf("%s links Gorgonia: %s", p, strings.Join(c, " -> "))
		}
	}
}
