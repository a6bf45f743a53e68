package runstore

import (
	"bytes"
	"context"
	"errors"
	"strings"
	"sync"
	"testing"
	"time"
)

// flaky is a bucket whose server is away for its first down calls.
type flaky struct {
	mu    sync.Mutex
	down  int
	calls int
	data  map[string][]byte
}

var errRefused = errors.New("dial tcp 127.0.0.1:8333: connect: connection refused")

func (f *flaky) fail() error {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.calls++
	if f.calls <= f.down {
		return errRefused
	}
	return nil
}

func (f *flaky) write(_ context.Context, key string, data []byte) error {
	if err := f.fail(); err != nil {
		return err
	}
	f.data[key] = data
	return nil
}

func (f *flaky) read(_ context.Context, key string, _ int64) ([]byte, error) {
	if err := f.fail(); err != nil {
		return nil, err
	}
	d, ok := f.data[key]
	if !ok {
		return nil, ErrNotFound
	}
	return d, nil
}

func (f *flaky) list(context.Context, string) ([]string, bool, error) {
	if err := f.fail(); err != nil {
		return nil, false, err
	}
	var keys []string
	for k := range f.data {
		keys = append(keys, k)
	}
	return keys, false, nil
}

func (f *flaky) delete(context.Context, string) error       { return f.fail() }
func (f *flaky) move(context.Context, string, string) error { return f.fail() }
func (f *flaky) close() error                               { return nil }

func flakyStore(down int, patience time.Duration) (*Store, *flaky, *bytes.Buffer) {
	f := &flaky{down: down, data: map[string][]byte{}}
	s := &Store{b: f, location: "s3://runs/x"}
	var log bytes.Buffer
	s.WaitForStorage(patience, &log)
	s.wait.delay, s.wait.maxDelay, s.wait.every = time.Millisecond, 4*time.Millisecond, 0
	return s, f, &log
}

// A bucket whose server is away for a while: each operation waits for it
// with a line when it starts waiting and when the storage answers again,
// and then succeeds.
func TestWaitForStorage(t *testing.T) {
	ctx := context.Background()
	s, f, log := flakyStore(5, time.Minute)
	if err := s.Write(ctx, "shards/a-000001.msgpack", []byte("x")); err != nil {
		t.Fatalf("the write did not wait for the storage: %v", err)
	}
	out := log.String()
	for _, want := range []string{"writing shards/a-000001.msgpack failed: dial tcp", "waiting for the storage", "still waiting", "answers again after"} {
		if !strings.Contains(out, want) {
			t.Errorf("no %q in the lines:\n%s", want, out)
		}
	}
	f.calls, f.down = 0, 3
	if keys, err := s.List(ctx, "shards/"); err != nil || len(keys) != 1 {
		t.Errorf("list: %v, %v", keys, err)
	}
	f.calls, f.down = 0, 2
	if _, err := s.Read(ctx, "shards/missing", 10); !errors.Is(err, ErrNotFound) || f.calls != 3 {
		t.Errorf("a missing object after the wait: %v after %d calls", err, f.calls)
	}
	// A missing object is an answer: not waited for.
	f.calls, f.down = 0, 0
	if _, err := s.Read(ctx, "shards/missing", 10); !errors.Is(err, ErrNotFound) || f.calls != 1 {
		t.Errorf("a missing object: %v after %d calls", err, f.calls)
	}
}

// The wait ends with the patience, with a line and the storage's error,
// or with the caller's context.
func TestWaitForStorageGivesUp(t *testing.T) {
	ctx := context.Background()
	s, _, log := flakyStore(1<<30, 30*time.Millisecond)
	err := s.Write(ctx, "k", nil)
	if !errors.Is(err, errRefused) || !strings.Contains(err.Error(), "the storage failed for the 30ms this process waits") {
		t.Errorf("after the patience: %v", err)
	}
	if !strings.Contains(log.String(), "gave up writing k after waiting 30ms") {
		t.Errorf("no line on giving up:\n%s", log)
	}
	s, _, _ = flakyStore(1<<30, time.Hour)
	ctx, cancel := context.WithTimeout(ctx, 20*time.Millisecond)
	defer cancel()
	if err := s.Write(ctx, "k", nil); !errors.Is(err, context.DeadlineExceeded) {
		t.Errorf("a wait the caller ended: %v", err)
	}
	// Without a patience, and for a folder, an error is returned at once.
	s, f, _ := flakyStore(1, 0)
	if err := s.Write(context.Background(), "k", nil); !errors.Is(err, errRefused) || f.calls != 1 {
		t.Errorf("no patience: %v after %d calls", err, f.calls)
	}
}
