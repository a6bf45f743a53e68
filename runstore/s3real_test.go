//go:build cloud

package runstore

import (
	"bytes"
	"context"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/sliderzero/sliderzero/runstore/s3test"
)

// lockedBuffer is a log written by the store's waits while the test reads.
type lockedBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (l *lockedBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *lockedBuffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}

// The store against a real S3 server, SeaweedFS on loopback (skipped
// without its weed binary): the same operations as TestStores, then the
// server stopped while a write waits for it and started again with what
// it held: the write goes through, with its lines, and what was written
// before is still there.
func TestStoresRealS3(t *testing.T) {
	w := s3test.StartWeed(t, "conformance")
	checkStore(t, w.URL)
	ctx := context.Background()
	s, err := Open(ctx, w.URL)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	var log lockedBuffer
	s.WaitForStorage(time.Minute, &log)
	if err := s.Write(ctx, "shards/before-000001.msgpack", []byte("before")); err != nil {
		t.Fatal(err)
	}
	w.Stop()
	done := make(chan error, 1)
	go func() { done <- s.Write(ctx, "shards/during-000001.msgpack", []byte("during")) }()
	// The server stays away until the write has given up on the driver's
	// own tries and waits.
	for start := time.Now(); !strings.Contains(log.String(), "waiting for the storage"); time.Sleep(100 * time.Millisecond) {
		if time.Since(start) > time.Minute {
			t.Fatalf("the write does not wait for the stopped server:\n%s", log.String())
		}
	}
	start := time.Now()
	w.Start()
	t.Logf("the server answers again %.1f s after its start", time.Since(start).Seconds())
	if err := <-done; err != nil {
		t.Fatalf("the write during the outage: %v\n%s", err, log.String())
	}
	out := log.String()
	if !strings.Contains(out, "waiting for the storage") || !strings.Contains(out, "answers again after") {
		t.Errorf("no lines of the wait:\n%s", out)
	}
	for k, want := range map[string]string{"shards/before-000001.msgpack": "before", "shards/during-000001.msgpack": "during"} {
		if data, err := s.Read(ctx, k, 100); err != nil || string(data) != want {
			t.Errorf("%s after the restart: %q, %v", k, data, err)
		}
	}
	t.Logf("the wait:\n%s", out)
}
