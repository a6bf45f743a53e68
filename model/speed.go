package model

import (
	"fmt"
	"math/rand/v2"
	"time"

	"github.com/sliderzero/sliderzero/model/internal/kernel"
)

// Kernels names the instruction set of the forward pass's kernels
// ("avx512", "avx2"), or "gonum" where the exact gonum pass runs.
func Kernels() string {
	if kernel.Available() {
		return kernel.Name()
	}
	return "gonum"
}

// PeakMACs measures, for about d, the one-core peak of the kernels'
// fused multiply-add: independent chains on registers. It returns
// multiply-adds a second, 0 where no kernel runs.
func PeakMACs(d time.Duration) float64 {
	if !kernel.Available() {
		return 0
	}
	var macs int64
	t0 := time.Now()
	for time.Since(t0) < d {
		macs += kernel.Peak(10000)
	}
	return float64(macs) / time.Since(t0).Seconds()
}

// LayerSpeed is the measured speed of one dense layer shape at one batch
// size: multiply-adds a second, counting the layer's own In x Out per
// position (not the padding the kernels compute).
type LayerSpeed struct {
	Layer string
	In    int
	Out   int
	Batch int
	MACs  float64
}

// LayerSpeeds measures each distinct layer shape of a (its trunk, and its
// two heads as the one layer the fast pass runs) at each batch size, for
// about d each, on random weights and inputs: the kernels where they run,
// else gonum. The first layer is measured dense, as if its input were not
// sparse; a convolution with its im2col, reading the encoding's layout.
func LayerSpeeds(a Arch, batches []int, d time.Duration) ([]LayerSpeed, error) {
	w, err := NewWeights(a, rand.New(rand.NewPCG(1, 2)))
	if err != nil {
		return nil, err
	}
	net, err := NewNet(w)
	if err != nil {
		return nil, err
	}
	f := net.NewForward() // a convolution's scratch
	layers := append([]dense(nil), net.trunk...)
	layers = append(layers, net.heads)
	seen := map[string]bool{}
	var out []LayerSpeed
	rng := rand.New(rand.NewPCG(3, 4))
	for _, l := range layers {
		key := fmt.Sprintf("%dx%d", l.In, l.Out)
		if seen[key] {
			continue
		}
		seen[key] = true
		for _, batch := range batches {
			x := make([]float32, batch*l.In)
			for i := range x {
				x[i] = float32(rng.NormFloat64())
			}
			y := make([]float32, batch*max(l.outPad, l.Out))
			if c := l.Conv; c != nil && net.fast {
				y = make([]float32, batch*c.H*c.W*l.outPad) // cell by cell
			}
			n, t0 := 0, time.Now()
			for time.Since(t0) < d {
				for k := 0; k < 64; k++ {
					switch {
					case net.fast && l.Conv != nil:
						// Timed reading the encoding's layout, as the
						// first convolution does.
						f.convolveFast(&l, batch, x, l.In, true, 0, nil, y)
					case net.fast:
						kernel.Dense(batch, l.outPad, l.In, x, l.In, l.wp, l.outPad, y, l.outPad, l.bp, nil, l.ReLU)
					case l.Name == "heads":
						apply(&net.policy, batch, x, nil, y, nil)
					default:
						apply(&l, batch, x, nil, y, &f.col)
					}
				}
				n += 64
			}
			macs := float64(n) * float64(batch*l.MACs()) / time.Since(t0).Seconds()
			out = append(out, LayerSpeed{Layer: l.Name, In: l.In, Out: l.Out, Batch: batch, MACs: macs})
		}
	}
	return out, nil
}
