package main

import (
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"path"
	"strconv"
	"strings"

	_ "github.com/sliderzero/sliderzero/env/games" // the games, registered
	"github.com/sliderzero/sliderzero/env/registry"
)

// Open extension points (issue 62): outside env/, code reaches games and
// players through interfaces and the registry, so it never asserts a
// concrete game's, player's or env's type, nor names a game in a string
// literal. Tests, experiments and the example programs (docs/example,
// examples/) are users of the project, and may.

const module = "github.com/sliderzero/sliderzero"

// gameRules is what the checks know of the games: their names (from the
// registry) and their packages (env/games/all.go's imports).
type gameRules struct {
	names    map[string]bool
	packages map[string]bool
}

func loadGameRules() (gameRules, error) {
	r := gameRules{names: map[string]bool{}, packages: map[string]bool{}}
	for _, n := range registry.Names() {
		r.names[strings.ToLower(n)] = true
	}
	f, err := parser.ParseFile(token.NewFileSet(), "env/games/all.go", nil, parser.ImportsOnly)
	if err != nil {
		return r, err
	}
	for _, imp := range f.Imports {
		p, _ := strconv.Unquote(imp.Path.Value)
		r.packages[p] = true
	}
	if len(r.names) < 2 || len(r.packages) < 2 {
		return r, fmt.Errorf("found %d games and %d game packages", len(r.names), len(r.packages))
	}
	return r, nil
}

// checked reports whether a file's code must pass gameFaults.
func checked(file string) bool {
	for _, p := range []string{"env/", "experiments/", "docs/example/", "examples/"} {
		if strings.HasPrefix(file, p) {
			return false
		}
	}
	return !strings.HasSuffix(file, "_test.go")
}

// gameFaults finds a file's type assertions (and type switch cases) on a
// game package's types or on a concrete type of package env or player,
// and its string literals that are a game's name.
func gameFaults(fset *token.FileSet, file string, f *ast.File, r gameRules) []string {
	local := map[string]string{} // a file's name of a package: its path
	for _, imp := range f.Imports {
		p, _ := strconv.Unquote(imp.Path.Value)
		name := path.Base(p)
		if imp.Name != nil {
			name = imp.Name.Name
		}
		local[name] = p
	}
	var faults []string
	at := func(n ast.Node, format string, args ...any) {
		faults = append(faults, fmt.Sprintf("%s: %s", fset.Position(n.Pos()), fmt.Sprintf(format, args...)))
	}
	concrete := func(t ast.Expr) {
		star, pointer := t.(*ast.StarExpr)
		if pointer {
			t = star.X
		}
		sel, ok := t.(*ast.SelectorExpr)
		if !ok {
			return
		}
		id, ok := sel.X.(*ast.Ident)
		if !ok {
			return
		}
		p := local[id.Name]
		if r.packages[p] || pointer && (p == module+"/env" || p == module+"/player") {
			at(t, "a type assertion on %s.%s: reach games and players through interfaces and the registry", id.Name, sel.Sel.Name)
		}
	}
	ast.Inspect(f, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.TypeAssertExpr:
			if n.Type != nil {
				concrete(n.Type)
			}
		case *ast.TypeSwitchStmt:
			for _, c := range n.Body.List {
				for _, t := range c.(*ast.CaseClause).List {
					concrete(t)
				}
			}
		case *ast.BasicLit:
			if n.Kind != token.STRING {
				break
			}
			if s, err := strconv.Unquote(n.Value); err == nil && r.names[strings.ToLower(s)] {
				at(n, "the game name %q: a game's name belongs to its package under env/ (ask the registry)", s)
			}
		}
		return true
	})
	return faults
}
