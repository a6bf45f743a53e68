package mcts

import "testing"

// Uniform answers as a network without the plies head, and takes the
// nil plies slice the Network contract allows.
func TestUniformAnswers(t *testing.T) {
	logits, values, plies := []float32{3, 4, 5, 6}, []float32{1, 1}, []float32{7, 7}
	Uniform{Actions: 2}.Run(2, nil, logits, values, plies)
	for _, x := range append(logits, values...) {
		if x != 0 {
			t.Fatalf("logits %v, values %v: want zeros", logits, values)
		}
	}
	if plies[0] != -1 || plies[1] != -1 {
		t.Errorf("plies %v, want -1 (no estimate)", plies)
	}
	Uniform{Actions: 2}.Run(2, nil, logits, values, nil)
}
