package catsdogs

import (
	"testing"

	"github.com/sliderzero/sliderzero/env/envtest"
)

func BenchmarkPlayout(b *testing.B) { envtest.BenchmarkPlayouts(b, game) }
