package mcts

// Uniform is a Network that knows nothing and costs nothing: equal
// logits, value 0, and no estimate of the plies to the end, as from a
// network without the plies head. Timing a search with it times the
// search alone (sliderzero bench --search, BenchmarkSearch).
type Uniform struct{ Actions int }

// Run implements Network.
func (c Uniform) Run(batch int, input, logits, values, plies []float32) {
	clear(logits[:batch*c.Actions])
	clear(values[:batch])
	if plies != nil { // nil when the caller wants no plies (Network)
		for i := range plies[:batch] {
			plies[i] = -1
		}
	}
}
