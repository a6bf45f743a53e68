// solve for a game whose positions are solved when asked (Connect
// Four): positions read a line at a time, scored by the game's exact
// solver (solver.ScoreLines), the results written as they come.

package main

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"time"

	"github.com/sliderzero/sliderzero/env/games"
	"github.com/sliderzero/sliderzero/env/registry"
	"github.com/sliderzero/sliderzero/solver"
	"github.com/sliderzero/sliderzero/store"
)

// linesOptions are solve's flags for scoring positions.
type linesOptions struct {
	in, out string
	limit   time.Duration
	weak    bool
	force   bool
	tableMB *int
}

// solvePositions answers each position of the input with its score and
// every move's (see solveAbout).
func solvePositions(ctx context.Context, std stdio, spec registry.Spec, o linesOptions) error {
	if err := checkSeconds("solve", "--time", o.limit); err != nil {
		return err
	}
	if o.out != "" {
		if err := checkOutput("--out", o.out, o.force, o.in); err != nil {
			return err
		}
	}
	g, err := games.New(spec)
	if err != nil {
		return fmt.Errorf("solve: %w", err)
	}
	x, _, err := solver.Exact(g, *o.tableMB)
	if err != nil {
		return fmt.Errorf("solve: %w", err)
	}
	in, total, closeIn, err := openPositions(o.in, interruptible(ctx, std.in))
	if err != nil {
		return err
	}
	defer closeIn()
	w, finish, abort, err := openResults(o.out, std.out)
	if err != nil {
		return err
	}
	defer abort()
	var bar *countBar
	if total >= 0 {
		bar = newCountBar(std.err, total, "positions")
	}
	st, err := solver.ScoreLines(ctx, x, solver.PositionReader(g), in, w, solver.LineOptions{Limit: o.limit, Weak: o.weak, Errors: std.err,
		Answered: func() {
			if bar != nil {
				bar.Add(1)
			}
		}})
	if bar != nil {
		bar.Finish()
	}
	interrupted := err != nil && ctx.Err() != nil
	if err != nil && !interrupted {
		return fmt.Errorf("solve: %w", err)
	}
	// Interrupted, the lines answered are kept, the cut one with its
	// bounds.
	if err := finish(); err != nil {
		return err
	}
	reportLines(std.err, st, o.weak)
	if interrupted {
		return fmt.Errorf("solve interrupted after %d positions (the last with the bounds proven so far)", st.Answered)
	}
	if st.Bad > 0 {
		return fmt.Errorf("solve: %d of %d lines were not positions to solve (see above)", st.Bad, st.Bad+st.Answered)
	}
	return nil
}

// openPositions opens the positions' file (standard input for ""), and
// counts its positions for the progress bar (-1 for standard input).
func openPositions(path string, stdin io.Reader) (in io.Reader, total int, close func(), err error) {
	if path == "" {
		return stdin, -1, func() {}, nil
	}
	f, err := store.Open(path)
	if err != nil {
		return nil, 0, nil, fmt.Errorf("--in: %w", err)
	}
	if total, err = solver.CountLines(f); err == nil {
		_, err = f.Seek(0, io.SeekStart)
	}
	if err != nil {
		f.Close()
		return nil, 0, nil, fmt.Errorf("--in %s: %w", path, err)
	}
	return f, total, func() { f.Close() }, nil
}

// interruptible is r whose reads end when ctx does: a read of a terminal
// waits for a line the user may never type, and Ctrl-C must end it (the
// read itself is left to the program's end).
func interruptible(ctx context.Context, r io.Reader) io.Reader {
	return readerFunc(func(p []byte) (int, error) {
		if err := ctx.Err(); err != nil {
			return 0, err
		}
		type result struct {
			n   int
			err error
		}
		done := make(chan result, 1)
		buf := make([]byte, len(p))
		go func() {
			n, err := r.Read(buf)
			done <- result{n, err}
		}()
		select {
		case res := <-done:
			return copy(p, buf[:res.n]), res.err
		case <-ctx.Done():
			return 0, ctx.Err()
		}
	})
}

type readerFunc func(p []byte) (int, error)

func (f readerFunc) Read(p []byte) (int, error) { return f(p) }

// reportLines prints the totals to standard error.
func reportLines(w io.Writer, st solver.LineStats, weak bool) {
	if st.Answered == 0 {
		fmt.Fprintf(w, "no position solved (%d bad lines)\n", st.Bad)
		return
	}
	what := "exact scores"
	if weak {
		what = "win, draw or loss"
	}
	plural := "s"
	if st.Answered == 1 {
		plural = ""
	}
	fmt.Fprintf(w, "solved %d position%s (%s", st.Answered, plural, what)
	if st.TimedOut > 0 {
		fmt.Fprintf(w, "; %d cut by --time", st.TimedOut)
	}
	if st.Interrupted > 0 {
		fmt.Fprintf(w, "; the last cut by the interrupt")
	}
	if st.Bad > 0 {
		fmt.Fprintf(w, "; %d bad lines", st.Bad)
	}
	mean := st.Elapsed / time.Duration(st.Answered)
	fmt.Fprintf(w, ") in %s: mean %s a position, %d nodes, %.2fM nodes/s\n",
		roundDuration(st.Elapsed), roundDuration(mean), st.Nodes, float64(st.Nodes)/max(st.Elapsed.Seconds(), 1e-9)/1e6)
}

// openResults is where the results go: standard output as they come, or
// a temporary file beside path that finish renames into place (abort,
// which is harmless after finish, removes it).
func openResults(path string, stdout io.Writer) (w io.Writer, finish func() error, abort func(), err error) {
	if path == "" {
		return stdout, func() error { return nil }, func() {}, nil
	}
	f, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+".tmp*")
	if err != nil {
		return nil, nil, nil, fmt.Errorf("--out %s: %w", path, err)
	}
	bw := bufio.NewWriter(f)
	done := false
	abort = func() {
		if !done {
			f.Close()
			os.Remove(f.Name())
		}
	}
	finish = func() error {
		err := errors.Join(bw.Flush(), f.Chmod(0o644), f.Sync(), f.Close())
		if err == nil {
			// the name may have become something else meanwhile
			err = checkOutput("--out", path, true)
		}
		if err == nil {
			err = os.Rename(f.Name(), path)
		}
		if err != nil {
			os.Remove(f.Name())
			done = true
			return fmt.Errorf("writing %s: %w", path, err)
		}
		done = true
		return nil
	}
	return bw, finish, abort, nil
}
