package learn

import (
	"math/rand/v2"
	"time"

	"github.com/sliderzero/sliderzero/model"
)

// StepMACs is the multiply-adds one position costs a training step of a:
// the forward pass, the weights' gradients and the inputs' gradients of
// every layer but the first (the network's input needs none). A step's
// share of the processor's peak is its samples a second times this over
// model.PeakMACs.
func StepMACs(a model.Arch) int64 {
	trunk, policy, value := a.Layers()
	layers := append(trunk, policy, value)
	if l, ok := a.PliesHead(); ok {
		layers = append(layers, l)
	}
	var total int64
	for i, l := range layers {
		macs := int64(l.In) * int64(l.Out)
		if c := l.Conv; c != nil {
			macs = int64(c.H*c.W) * int64(c.In*model.ConvKernel*model.ConvKernel) * int64(c.Out)
		}
		total += 3 * macs
		if i == 0 {
			total -= macs
		}
	}
	return total
}

// StepSpeed trains a fresh network of arch a (seeded) on a fixed random
// batch of the given size for about d and returns the samples a second:
// with the fused graph, or (reference true) with Gorgonia's own ops, the
// graph the fused one replaced.
func StepSpeed(a model.Arch, batch int, reference bool, d time.Duration) (float64, error) {
	rng := rand.New(rand.NewPCG(1, 1))
	w, err := model.NewWeights(a, rng)
	if err != nil {
		return 0, err
	}
	tr, err := newTrainer(w, batch, NewAdam(1e-4), !reference)
	if err != nil {
		return 0, err
	}
	b := &Batch{Size: batch, Input: make([]float32, batch*a.Input), Policy: make([]float32, batch*a.Actions),
		Legal: make([]float32, batch*a.Actions), Value: make([]float32, batch),
		Plies: make([]float32, batch), Known: make([]float32, batch)}
	for i := range b.Input {
		b.Input[i] = float32(rng.IntN(2))
	}
	for i := 0; i < batch; i++ {
		for j := 0; j < a.Actions; j++ {
			b.Legal[i*a.Actions+j] = float32(rng.IntN(2))
		}
		b.Legal[i*a.Actions] = 1
		b.Policy[i*a.Actions] = 1
		b.Value[i] = float32(rng.IntN(3) - 1)
	}
	// One step first: the first run allocates what the rest reuse.
	if _, err := tr.Step(b, 1e-3); err != nil {
		return 0, err
	}
	steps := 0
	t0 := time.Now()
	for steps == 0 || time.Since(t0) < d {
		if _, err := tr.Step(b, 1e-3); err != nil {
			return 0, err
		}
		steps++
	}
	return float64(steps*batch) / time.Since(t0).Seconds(), nil
}
