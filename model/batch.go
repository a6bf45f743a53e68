package model

// Batch is a training batch: Size positions' encodings, search policies
// (zero on illegal actions), legality masks (1 legal, 0 illegal) and
// outcomes in [-1, 1] for the side to move; for a network with the plies
// head, each position's plies to the game's end (Plies) and whether that
// is known (Known, 1 or 0: samples recorded before it was kept have none).
type Batch struct {
	Size   int
	Input  []float32
	Policy []float32
	Legal  []float32
	Value  []float32
	Plies  []float32
	Known  []float32
}
