// Command shape checks the repository's shape promises (issue 36): no Go
// file over 500 lines outside generated code, no web script over 500
// lines, and no type outside env/ with more than 20 methods; and (issue
// 62) no function in cmd/ over 60 lines, and (games.go) no type assertion
// on a concrete game, player or env type and no game's name as a string
// literal outside env/. Run from the
// repository's root: go run ./.ci/shape
package main

import (
	"bufio"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"strings"
)

const (
	maxLines   = 500
	maxMethods = 20
	maxCmdFunc = 60
)

func main() {
	var faults []string
	methods := map[string]int{} // package dir + type name
	fset := token.NewFileSet()
	rules, err := loadGameRules()
	if err != nil {
		fmt.Fprintln(os.Stderr, "shape: the games:", err)
		os.Exit(1)
	}
	err = filepath.WalkDir(".", func(path string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			if name := d.Name(); path != "." && (strings.HasPrefix(name, ".") || name == "testdata" || name == "checkpoints") {
				return filepath.SkipDir
			}
			return nil
		}
		isGo := strings.HasSuffix(path, ".go")
		isScript := strings.HasPrefix(path, "web/static/") && strings.HasSuffix(path, ".js")
		if !isGo && !isScript {
			return nil
		}
		n, generated, err := lines(path)
		if err != nil {
			return err
		}
		if n > maxLines && !generated {
			faults = append(faults, fmt.Sprintf("%s: %d lines (at most %d)", path, n, maxLines))
		}
		if !isGo || strings.HasSuffix(path, "_test.go") || strings.HasPrefix(path, "env/") || strings.HasPrefix(path, "experiments/") {
			return nil
		}
		f, err := parser.ParseFile(fset, path, nil, parser.SkipObjectResolution)
		if err != nil {
			return err
		}
		if checked(path) {
			faults = append(faults, gameFaults(fset, path, f, rules)...)
		}
		for _, decl := range f.Decls {
			fn, ok := decl.(*ast.FuncDecl)
			if ok && strings.HasPrefix(path, "cmd/") {
				// A thin command: flags into options, then the library.
				if n := fset.Position(fn.End()).Line - fset.Position(fn.Pos()).Line + 1; n > maxCmdFunc {
					faults = append(faults, fmt.Sprintf("%s: %s is %d lines (at most %d in cmd/)", path, fn.Name.Name, n, maxCmdFunc))
				}
			}
			if !ok || fn.Recv == nil || len(fn.Recv.List) == 0 {
				continue
			}
			t := fn.Recv.List[0].Type
			if s, ok := t.(*ast.StarExpr); ok {
				t = s.X
			}
			if ix, ok := t.(*ast.IndexExpr); ok {
				t = ix.X
			}
			if id, ok := t.(*ast.Ident); ok {
				methods[filepath.Dir(path)+"."+id.Name]++
			}
		}
		return nil
	})
	if err != nil {
		fmt.Fprintln(os.Stderr, "shape:", err)
		os.Exit(1)
	}
	for typ, n := range methods {
		if n > maxMethods {
			faults = append(faults, fmt.Sprintf("%s: %d methods (at most %d outside env/)", typ, n, maxMethods))
		}
	}
	if len(faults) > 0 {
		for _, f := range faults {
			fmt.Fprintln(os.Stderr, f)
		}
		os.Exit(1)
	}
}

// lines counts a file's lines and reports whether it says it is generated.
func lines(path string) (int, bool, error) {
	f, err := os.Open(path)
	if err != nil {
		return 0, false, err
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	n, generated := 0, false
	for sc.Scan() {
		n++
		if strings.HasPrefix(sc.Text(), "// Code generated") && strings.Contains(sc.Text(), "DO NOT EDIT") {
			generated = true
		}
	}
	return n, generated, sc.Err()
}
