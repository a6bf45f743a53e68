package slider

import (
	"testing"

	"github.com/sliderzero/sliderzero/env/envtest"
)

// The conformance suite on the open 5x5 board, on the layouts and first
// players training draws, and on the smallest and largest boards.
func TestConformance(t *testing.T) {
	for _, cfg := range []Config{{Size: 5}, {Size: 5, RandomBlocked: true, RandomFirst: true}, {Size: MinSize, First: V}, {Size: MaxSize, RandomBlocked: true}} {
		t.Log(envtest.Conformance(t, MustNew(cfg), envtest.Options{}))
	}
}

func FuzzConformance(f *testing.F) {
	envtest.FuzzParse(f, MustNew(Config{Size: 5, RandomBlocked: true}))
}
