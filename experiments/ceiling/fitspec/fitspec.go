// Package fitspec holds what the ceiling diagnostic's commands
// (experiments/ceiling and experiments/ceiling/c4fit) share: how a network
// and a list of search budgets are written on the command line, and the
// training batch a supervised fit fills.
package fitspec

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/sliderzero/sliderzero/model"
	"github.com/sliderzero/sliderzero/model/learn"
)

// ParseNet reads "mlp:128x3", "resmlp:128x2" or "conv:32x4".
func ParseNet(s string) (kind string, width, depth int, err error) {
	kind, size, ok := strings.Cut(s, ":")
	ws, ds, ok2 := strings.Cut(size, "x")
	if ok && ok2 {
		if width, err = strconv.Atoi(ws); err == nil {
			depth, err = strconv.Atoi(ds)
		}
	}
	if !ok || !ok2 || err != nil || width < 1 || depth < 1 ||
		(kind != model.KindMLP && kind != model.KindResMLP && kind != model.KindConv) {
		return "", 0, 0, fmt.Errorf("--net %q: want KIND:WIDTHxDEPTH with KIND mlp, resmlp or conv, as mlp:128x3", s)
	}
	return kind, width, depth, nil
}

// ParseSims reads a comma-separated list of simulation budgets (empty
// entries skipped).
func ParseSims(s string) ([]int, error) {
	var out []int
	for _, f := range strings.Split(s, ",") {
		if f = strings.TrimSpace(f); f == "" {
			continue
		}
		n, err := strconv.Atoi(f)
		if err != nil || n < 1 {
			return nil, fmt.Errorf("--sims %q: want positive numbers", s)
		}
		out = append(out, n)
	}
	return out, nil
}

// NewBatch is an empty training batch of size positions.
func NewBatch(size, in, act int) *learn.Batch {
	return &learn.Batch{Size: size, Input: make([]float32, size*in), Policy: make([]float32, size*act),
		Legal: make([]float32, size*act), Value: make([]float32, size), Plies: make([]float32, size), Known: make([]float32, size)}
}
