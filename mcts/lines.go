package mcts

import "sort"

// Line is a move at the root as an analysis shows it: its visits, its
// value for the root's side to move, the plies to the end the search
// expects after it (negative when the network does not estimate them), and
// the principal variation that starts with it (the most visited reply at
// each step).
type Line struct {
	Action int
	Visits int
	Value  float32
	Plies  float32
	PV     []int
}

// Lines returns up to top of the root's visited moves, most visited first,
// each with a principal variation of at most depth plies.
func (t *Tree) Lines(top, depth int) []Line {
	if len(t.nodes) == 0 || t.nodes[0].firstChild < 0 {
		return nil
	}
	first := t.nodes[0].firstChild
	var idx []int32
	for k := int32(0); k < t.nodes[0].numChild; k++ {
		if t.nodes[first+k].visits > 0 {
			idx = append(idx, first+k)
		}
	}
	sort.SliceStable(idx, func(a, b int) bool { return t.nodes[idx[a]].visits > t.nodes[idx[b]].visits })
	if len(idx) > top {
		idx = idx[:top]
	}
	me := t.rootSide
	out := make([]Line, 0, len(idx))
	for _, i := range idx {
		n := &t.nodes[i]
		v := n.q()
		if n.mover != me {
			v = -v
		}
		plies := float32(-1)
		if t.counts {
			plies = n.moves + 1
		}
		out = append(out, Line{Action: int(n.action), Visits: int(n.visits), Value: v, Plies: plies, PV: t.nodes.pv(i, depth)})
	}
	return out
}

// pv follows the most visited child from node i, its own action first.
func (a arena) pv(i int32, depth int) []int {
	line := []int{int(a[i].action)}
	for len(line) < depth {
		n := a[i]
		if n.firstChild < 0 {
			break
		}
		best := int32(-1)
		for k := n.firstChild; k < n.firstChild+n.numChild; k++ {
			if a[k].visits > 0 && (best < 0 || a[k].visits > a[best].visits) {
				best = k
			}
		}
		if best < 0 {
			break
		}
		line = append(line, int(a[best].action))
		i = best
	}
	return line
}
