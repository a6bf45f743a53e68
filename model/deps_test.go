package model

import (
	"go/build"
	"path/filepath"
	"strings"
	"testing"
)

// The network knows no game: nothing model imports, directly or through
// the project's other packages, is a game's package. It sees a game only
// through env's interfaces (the input's shape, the number of actions) and
// stores the game's settings as the registry's plain data.
func TestModelImportsNoGame(t *testing.T) {
	const module = "github.com/sliderzero/sliderzero"
	seen := map[string]bool{}
	var walk func(dir, path string)
	walk = func(dir, path string) {
		if seen[path] {
			return
		}
		seen[path] = true
		p, err := build.ImportDir(dir, 0)
		if err != nil {
			t.Fatalf("%s: %v", path, err)
		}
		for _, imp := range p.Imports {
			rest, ok := strings.CutPrefix(imp, module+"/")
			if !ok {
				continue
			}
			if strings.HasPrefix(rest, "env/") && rest != "env/registry" {
				t.Errorf("%s imports the game package %s", path, imp)
			}
			walk(filepath.Join("..", filepath.FromSlash(rest)), imp)
		}
	}
	walk(".", module+"/model")
	if !seen[module+"/store"] {
		t.Errorf("the walk missed model's own imports: %v", seen)
	}
}
