package catsdogs

import "math/bits"

// The feature planes, after the four board planes, in games built with
// features (the option of that name). They are worked out from the rules
// alone and say what the network would otherwise have to count from the
// board: which Dogs the Cats can take, which captures put three Cats in a
// line (and so lose), where two Cats already share a line, and three
// counts of the whole position.
const (
	// PlaneCapturable holds, on each Dog, the Cats that can take it (a
	// quarter each).
	PlaneCapturable = numPlanes + iota
	// PlaneLosing marks the Dogs whose capture, by some Cat, puts three
	// Cats in a row or column.
	PlaneLosing
	// PlanePaired holds, on each cell, the most Cats any of its row and
	// column holds, a third each, where that is two or more.
	PlanePaired
	// PlaneCounts holds three numbers in its first three cells, the same
	// under every symmetry (TransformInput leaves the plane as it is):
	// the Cats' captures, those of them that do not lose at once (each
	// a sixteenth) and the pairs of Cats sharing a line (a tenth each).
	PlaneCounts
	numFeaturePlanes
)

// The cells of PlaneCounts.
const (
	countCaptures = iota
	countSafe
	countPairs
)

// encodeFeatures writes the feature planes into dst, the whole input
// (board planes first), whose feature planes are already zero.
func (s *State) encodeFeatures(dst []float32) {
	g := s.g
	var captures, safe, pairs int
	for d := 0; d < numDirs; d++ {
		step := dy[d]*Size + dx[d]
		for m := shift(s.cats&g.canMove[d], d) & s.dogs; m != 0; m &= m - 1 {
			to := bits.TrailingZeros64(m)
			dst[PlaneCapturable*cells+to] += 0.25
			captures++
			after := s.cats&^(uint64(1)<<(to-step)) | uint64(1)<<to
			if g.lineOfThree(after) {
				dst[PlaneLosing*cells+to] = 1
			} else {
				safe++
			}
		}
	}
	var rowCats, colCats [Size]int
	for i := 0; i < Size; i++ {
		rowCats[i] = bits.OnesCount64(s.cats & g.rows[i])
		colCats[i] = bits.OnesCount64(s.cats & g.cols[i])
		pairs += rowCats[i]*(rowCats[i]-1)/2 + colCats[i]*(colCats[i]-1)/2
	}
	for y := 0; y < Size; y++ {
		for x := 0; x < Size; x++ {
			if n := max(rowCats[y], colCats[x]); n >= 2 {
				dst[PlanePaired*cells+y*Size+x] = float32(n) / 3
			}
		}
	}
	counts := dst[PlaneCounts*cells:]
	counts[countCaptures] = float32(captures) / 16
	counts[countSafe] = float32(safe) / 16
	counts[countPairs] = float32(pairs) / 10
}

// lineOfThree reports whether three or more of the cats share a row or
// column.
func (g *Game) lineOfThree(cats uint64) bool {
	for i := 0; i < Size; i++ {
		if bits.OnesCount64(cats&g.rows[i]) >= 3 || bits.OnesCount64(cats&g.cols[i]) >= 3 {
			return true
		}
	}
	return false
}
