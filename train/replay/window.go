package replay

import (
	"math/rand/v2"

	"github.com/sliderzero/sliderzero/env"
	"github.com/sliderzero/sliderzero/model"
)

// Window is the sliding window of the most recent positions.
type Window struct {
	size    int
	samples []Sample // a ring once full
	next    int
}

// NewWindow returns an empty window of size positions.
func NewWindow(size int) *Window { return &Window{size: size} }

// Add appends positions, dropping the oldest beyond the window.
func (w *Window) Add(samples []Sample) {
	for _, s := range samples {
		if len(w.samples) < w.size {
			w.samples = append(w.samples, s)
			continue
		}
		w.samples[w.next] = s
		w.next = (w.next + 1) % w.size
	}
}

// Len is the number of positions in the window.
func (w *Window) Len() int { return len(w.samples) }

// Oldest returns the i-th position counting from the oldest.
func (w *Window) Oldest(i int) Sample { return w.samples[(w.next+i)%len(w.samples)] }

// Fill draws a batch uniformly from the window, or, with surprise k > 0,
// each position with a chance in proportion to 1 + k * its surprise
// (KataGo's surprise weighting: the positions whose search most
// misjudged the outcome are seen more often), by rejection. Indices count
// from the oldest position, so a window rebuilt from shards after a resume
// draws exactly the samples the uninterrupted run would have. For games
// with symmetries (sym non-nil) each sample is seen under a random one.
func (w *Window) Fill(rng *rand.Rand, b *model.Batch, inputSize, actions int, sym env.Symmetric, surprise float64) {
	clear(b.Policy)
	clear(b.Legal)
	n := len(w.samples)
	most := 1 + 2*surprise
	for i := 0; i < b.Size; i++ {
		s := &w.samples[(w.next+rng.IntN(n))%n]
		for surprise > 0 && rng.Float64()*most > 1+surprise*float64(s.Surprise) {
			s = &w.samples[(w.next+rng.IntN(n))%n]
		}
		k := 0
		if sym != nil {
			k = rng.IntN(sym.Symmetries())
		}
		dst := b.Input[i*inputSize : (i+1)*inputSize]
		if k == 0 {
			copy(dst, s.Input)
		} else {
			sym.TransformInput(k, s.Input, dst)
		}
		row := i * actions
		for j, a := range s.Actions {
			act := int(a)
			if k != 0 {
				act = sym.TransformAction(k, act)
			}
			b.Legal[row+act] = 1
			b.Policy[row+act] = s.Policy[j]
		}
		b.Value[i] = s.Value
		b.Plies[i], b.Known[i] = float32(s.Left), 0
		if s.Left > 0 {
			b.Known[i] = 1
		}
	}
}

// NewBatch allocates a training batch.
func NewBatch(size, inputSize, actions int) *model.Batch {
	return &model.Batch{
		Size:   size,
		Input:  make([]float32, size*inputSize),
		Policy: make([]float32, size*actions),
		Legal:  make([]float32, size*actions),
		Value:  make([]float32, size),
		Plies:  make([]float32, size),
		Known:  make([]float32, size),
	}
}
