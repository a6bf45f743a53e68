package env

import (
	"context"
	"errors"
	"testing"
	"time"
)

// A search stops on its budget counted from its own first node, on its
// context, and on its deadline, and says which.
func TestSearchStop(t *testing.T) {
	errBudget := errors.New("budget")
	var s SearchStop
	s.SetBudget(10)
	s.Begin(context.Background(), 100)
	if s.Expired(109) || s.Stopped {
		t.Fatal("stopped before its budget")
	}
	if !s.Expired(110) || !s.Stopped || s.Err(110, errBudget) != errBudget {
		t.Fatalf("at its budget: stopped %v, %v", s.Stopped, s.Err(110, errBudget))
	}
	s.Begin(context.Background(), 110) // a new search: stopped no more
	if s.Stopped || s.Expired(115) {
		t.Fatal("a new search began stopped")
	}
	ctx, cancel := context.WithCancel(context.Background())
	s.SetBudget(0)
	s.Begin(ctx, 0)
	cancel()
	if !s.Expired(1) || !errors.Is(s.Err(1, errBudget), context.Canceled) {
		t.Fatalf("a cancelled search: %v", s.Err(1, errBudget))
	}
	ctx, cancel = context.WithDeadline(context.Background(), time.Now().Add(-time.Second))
	defer cancel()
	s.Begin(ctx, 0)
	if !s.Expired(1) || !errors.Is(s.Err(1, errBudget), context.DeadlineExceeded) {
		t.Fatalf("a search past its deadline: %v", s.Err(1, errBudget))
	}
}
