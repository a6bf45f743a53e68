// The folder the server reads from: paths from requests resolved inside
// it or refused, files listed, and messages that name them.

package web

import (
	"errors"
	"fmt"
	"io/fs"
	"net/http"
	"os"
	"path/filepath"
	"strings"

	"github.com/sliderzero/sliderzero/env"
)

// rootDir is the server's root: absolute, its symbolic links resolved.
type rootDir string

// relativeError is err's message on one line, for a page: paths under the
// root are named as requests name them (the root's own place on this
// machine is none of a page's business).
func (root rootDir) relativeError(err error) string {
	msg := strings.ReplaceAll(err.Error(), "\n", " ")
	msg = strings.ReplaceAll(msg, string(root)+string(filepath.Separator), "")
	// Bounded: a message quotes what it refuses.
	return env.Excerpt(strings.ReplaceAll(msg, string(root), "the root"), 400)
}

// resolve turns a path from a request into a file under the root, or
// refuses it: absolute paths, backslashes and NULs at once, and, through
// os.Root (which follows symbolic links only while they stay inside), any
// path that leads outside the root.
func (root rootDir) resolve(rel string) (string, error) {
	switch {
	case rel == "":
		return "", badRequest("no path given")
	case strings.ContainsAny(rel, "\\\x00"), filepath.IsAbs(rel), strings.HasPrefix(rel, "/"):
		return "", &httpError{http.StatusForbidden, fmt.Errorf("path %q is not a relative path under the root", rel)}
	}
	r, err := os.OpenRoot(string(root))
	if err != nil {
		return "", err
	}
	defer r.Close()
	clean := filepath.Clean(rel)
	if _, err := r.Stat(clean); err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			return "", &httpError{http.StatusNotFound, fmt.Errorf("%s: no such file under the root", rel)}
		}
		return "", &httpError{http.StatusForbidden, fmt.Errorf("path %q leads outside the root", rel)}
	}
	// The file's own path, links resolved, for the packages that open it
	// by name (a player file, a run's folder): inside the root, as the
	// Stat through it just showed.
	full, err := filepath.EvalSymlinks(filepath.Join(string(root), clean))
	if err != nil {
		return "", &httpError{http.StatusNotFound, fmt.Errorf("%s: no such file under the root", rel)}
	}
	return full, nil
}

// relative is a root file's path as requests name it.
func (root rootDir) relative(full string) string {
	rel, err := filepath.Rel(string(root), full)
	if err != nil {
		return full
	}
	return filepath.ToSlash(rel)
}

// notMade are folders that hold what the project's tests or tools ship,
// not what a user made: `serve --root .` in a clone offers no test run.
var notMade = map[string]bool{"testdata": true, "vendor": true, "node_modules": true}

// walk lists files under the root that keep says to, at most MaxListed
// and maxDepth folders deep, without following links out of the root,
// nor into hidden folders or those of notMade.
func (root rootDir) walk(keep func(path string, d fs.DirEntry) bool) []string {
	var out []string
	filepath.WalkDir(string(root), func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return nil
		}
		rel := root.relative(path)
		if d.IsDir() && path != string(root) && (strings.Count(rel, "/") >= maxDepth || strings.HasPrefix(d.Name(), ".") || notMade[d.Name()]) {
			return filepath.SkipDir
		}
		if keep(path, d) {
			out = append(out, rel)
			if len(out) >= MaxListed {
				return filepath.SkipAll
			}
		}
		return nil
	})
	return out
}
