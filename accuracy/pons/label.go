package pons

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"time"

	"github.com/sliderzero/sliderzero/env"
	"github.com/sliderzero/sliderzero/env/connect4"
	"github.com/sliderzero/sliderzero/solver"
)

// Game is the game of the sets: Connect Four, 7x6, as the registry builds
// it by default.
func Game() env.Game { return connect4.New() }

// LabelOptions set a labelling run.
type LabelOptions struct {
	// Limit, when positive, labels only the set's first Limit positions.
	Limit int
	// Parallel is the number of positions solved at once, each by its
	// own solver.
	Parallel int
	// TableMB is each solver's table in megabytes (0: the solver's
	// default).
	TableMB int
	// Save, when set, keeps the labels as they grow: it is called at most
	// every SaveEvery while positions are labelled, and once at the end,
	// also when the run is interrupted or fails.
	Save      func(*Labels) error
	SaveEvery time.Duration
	// Progress, when set, hears of each position labelled.
	Progress func(done, total int)
}

// LabelStats say what a labelling run did.
type LabelStats struct {
	// Solved counts the positions solved, Deduced the lost ones labelled
	// without a search: in a position the set scores lost, every move
	// loses.
	Solved, Deduced int
	// Nodes are the positions the solvers searched.
	Nodes   uint64
	Elapsed time.Duration
}

// Label gives every legal move of the set's positions that l lacks its
// class, weakly solved by the project's exact solver (the one registered
// for Connect Four), and adds the rows to l. Each solved row is checked
// against the set's score of its position: a disagreement stops the run
// with an error. When ctx ends, the positions not finished are dropped
// and ctx's error returned; those finished are in l (and saved).
func Label(ctx context.Context, s *Set, l *Labels, o LabelOptions) (LabelStats, error) {
	t0 := time.Now()
	var st LabelStats
	g := Game()
	missing := l.Missing(s, o.Limit)
	var todo []int
	for _, i := range missing {
		e := s.Entries[i]
		if e.Class() != Loss {
			todo = append(todo, i)
			continue
		}
		r, err := lostRow(e)
		if err != nil {
			return st, err
		}
		l.Rows[i] = r
		st.Deduced++
		if o.Progress != nil {
			o.Progress(st.Deduced, len(missing))
		}
	}
	lb := &labelling{s: s, l: l, o: o, g: g, total: len(missing), done: st.Deduced, todo: todo, last: time.Now()}
	err := lb.run(ctx)
	st.Solved, st.Nodes = lb.solved, lb.nodes
	if o.Save != nil {
		if serr := o.Save(l); serr != nil {
			err = errors.Join(err, serr)
		}
	}
	st.Elapsed = time.Since(t0)
	return st, err
}

// lostRow is the row of a lost position: every legal move loses.
func lostRow(e Entry) (Row, error) {
	st, err := e.State()
	if err != nil {
		return Row{}, err
	}
	var r Row
	for c := range r {
		r[c] = Full
		if env.IsLegal(st, c) {
			r[c] = Loss
		}
	}
	return r, nil
}

// labelling is one run's shared state: the positions to solve, handed
// out in the set's order, and the rows found.
type labelling struct {
	s     *Set
	l     *Labels
	o     LabelOptions
	g     env.Game
	todo  []int
	total int

	mu           sync.Mutex
	next, done   int
	solved       int
	nodes        uint64
	last         time.Time
	firstFailure error
}

// run solves the positions on o.Parallel goroutines.
func (lb *labelling) run(ctx context.Context) error {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	var wg sync.WaitGroup
	for w := 0; w < max(1, lb.o.Parallel) && w < len(lb.todo); w++ {
		x, _, err := solver.Exact(lb.g, lb.o.TableMB)
		if err != nil {
			cancel()
			wg.Wait()
			return err
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			lb.work(ctx, x)
			if n, ok := x.(interface{ Nodes() uint64 }); ok {
				lb.mu.Lock()
				lb.nodes += n.Nodes()
				lb.mu.Unlock()
			}
		}()
	}
	wg.Wait()
	lb.mu.Lock()
	defer lb.mu.Unlock()
	if lb.firstFailure != nil {
		return lb.firstFailure
	}
	return ctx.Err()
}

// work solves positions until none is left, ctx ends or one fails.
func (lb *labelling) work(ctx context.Context, x env.ExactSolver) {
	for {
		lb.mu.Lock()
		if lb.next >= len(lb.todo) || lb.firstFailure != nil || ctx.Err() != nil {
			lb.mu.Unlock()
			return
		}
		i := lb.todo[lb.next]
		lb.next++
		lb.mu.Unlock()
		r, err := solveRow(ctx, x, lb.s.Entries[i])
		if ctx.Err() != nil {
			return // cut short: the position is dropped
		}
		lb.add(i, r, err)
	}
}

// add keeps a solved row (or the first failure), saving the labels when
// the last save is old enough.
func (lb *labelling) add(i int, r Row, err error) {
	lb.mu.Lock()
	defer lb.mu.Unlock()
	if err != nil {
		if lb.firstFailure == nil {
			lb.firstFailure = fmt.Errorf("%s line %d: %w", lb.s.Name, lb.s.Entries[i].Line, err)
		}
		return
	}
	lb.l.Rows[i] = r
	lb.solved++
	lb.done++
	if lb.o.Progress != nil {
		lb.o.Progress(lb.done, lb.total)
	}
	if lb.o.Save != nil && time.Since(lb.last) >= lb.o.SaveEvery && lb.done < lb.total {
		if err := lb.o.Save(lb.l); err != nil && lb.firstFailure == nil {
			lb.firstFailure = err
		}
		lb.last = time.Now()
	}
}

// solveRow weakly solves every legal move of the entry's position and
// checks the best against the set's score.
func solveRow(ctx context.Context, x env.ExactSolver, e Entry) (Row, error) {
	st, err := e.State()
	if err != nil {
		return Row{}, err
	}
	var r Row
	for c := range r {
		r[c] = Full
		if !env.IsLegal(st, c) {
			continue
		}
		b, err := x.ScoreMove(ctx, st, c, true)
		if err != nil {
			return Row{}, err
		}
		k, ok := b.Class()
		if !ok {
			return Row{}, fmt.Errorf("%s: column %d unsettled (%s)", e.Moves, c+1, b)
		}
		r[c] = Class(k)
	}
	return r, check(e, r)
}
