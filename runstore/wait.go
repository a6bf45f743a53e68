package runstore

import (
	"context"
	"errors"
	"fmt"
	"io"
	"sync"
	"time"
)

// A bucket's server can be away for a while (restarted, upgraded, its
// network cut) while the processes that meet at it go on: with a patience
// set (WaitForStorage), an operation on a bucket that fails for any reason
// other than a missing or unfit object is tried again, less often as the
// wait goes on, until it succeeds or the patience runs out, with a line
// when the wait starts, every half minute while it lasts, and when the
// storage answers again. Every operation may be repeated: a write puts
// the same whole object under the same key, a move of an object already
// moved finds it gone (ErrNotFound).
//
// A folder's errors (permission, a full disk) are returned at once: they
// are not the kind that ends by itself.

// waiter is a store's patience and where its lines go.
type waiter struct {
	patience time.Duration
	log      io.Writer
	mu       sync.Mutex // one line at a time
	// first and max delay between tries, and between "still waiting"
	// lines; variables for the tests.
	delay, maxDelay, every time.Duration
}

// WaitForStorage makes the store's bucket operations wait up to patience
// for a storage that fails (0: fail at once, the default), writing what
// it does to log (nil: nowhere). It has no effect on a folder.
func (s *Store) WaitForStorage(patience time.Duration, log io.Writer) {
	s.wait = &waiter{patience: patience, log: log, delay: 500 * time.Millisecond, maxDelay: 10 * time.Second, every: 30 * time.Second}
}

func (w *waiter) logf(format string, args ...any) {
	if w.log == nil {
		return
	}
	w.mu.Lock()
	defer w.mu.Unlock()
	fmt.Fprintf(w.log, "%s "+format+"\n", append([]any{time.Now().UTC().Format("2006-01-02T15:04:05Z")}, args...)...)
}

// worthWaiting reports whether err may end by itself: not an answer
// about the object (missing, unfit) nor the caller's own stop.
func worthWaiting(ctx context.Context, err error) bool {
	return err != nil && ctx.Err() == nil && !errors.Is(err, ErrNotFound) && !errors.Is(err, ErrUnfit) &&
		!errors.Is(err, context.Canceled) && !errors.Is(err, context.DeadlineExceeded)
}

// do runs op, and for a bucket with a patience tries it again while it
// fails with an error worth waiting for. what names the operation in the
// lines ("writing shards/a-000001.msgpack").
func (s *Store) do(ctx context.Context, what string, op func() error) error {
	err := op()
	w := s.wait
	if s.dir != "" || w == nil || w.patience <= 0 {
		return err
	}
	if !worthWaiting(ctx, err) {
		return stopped(ctx, err)
	}
	start := time.Now()
	w.logf("storage %s: %s failed: %s; waiting for the storage, trying again for up to %s", s.location, what, excerpt(err), w.patience)
	delay, lastLine := w.delay, start
	for {
		left := w.patience - time.Since(start)
		if left <= 0 {
			w.logf("storage %s: gave up %s after waiting %s", s.location, what, w.patience)
			return fmt.Errorf("%w (the storage failed for the %s this process waits)", err, w.patience)
		}
		t := time.NewTimer(min(delay, left))
		select {
		case <-t.C:
		case <-ctx.Done():
			t.Stop()
			return ctx.Err()
		}
		delay = min(2*delay, w.maxDelay)
		if err = op(); !worthWaiting(ctx, err) {
			if ctx.Err() == nil {
				w.logf("storage %s answers again after %.0f s: %s goes on", s.location, time.Since(start).Seconds(), what)
			}
			return stopped(ctx, err)
		}
		if time.Since(lastLine) >= w.every {
			lastLine = time.Now()
			w.logf("storage %s: still waiting (%.0f s so far): %s", s.location, time.Since(start).Seconds(), excerpt(err))
		}
	}
}

// stopped is err, or, when the caller's context ended while the
// operation failed, the context's error with err beside it: the caller
// stopped the wait, and must be able to tell (a failure that raced the
// deadline was seen as the storage's under the race detector).
func stopped(ctx context.Context, err error) error {
	if err != nil && ctx.Err() != nil && !errors.Is(err, ctx.Err()) {
		return fmt.Errorf("%w (%v)", ctx.Err(), err)
	}
	return err
}

// excerpt is the start of an error's text, for a log line.
func excerpt(err error) string {
	s := err.Error()
	if len(s) > 300 {
		s = s[:300] + "..."
	}
	return s
}
