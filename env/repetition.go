package env

// RepetitionCounter is implemented by games whose referee counts only some
// positions towards a repetition rule. The course's tournament server
// counted, in Slider, only the boards reached by a move on the board: not
// the start, not a position after a pass or after a piece left the board.
type RepetitionCounter interface {
	// CountsStart reports whether a game's first position counts.
	CountsStart() bool
	// CountsMove reports whether the position the action leads to counts
	// (asked of the position before the move).
	CountsMove(action int) bool
}

// NewHistory starts the counts of a game's positions for a repetition
// rule: the start counted, unless the game says it is not.
func NewHistory(start State) map[uint64]int {
	h := map[uint64]int{}
	if rc, ok := Unwrap(start).(RepetitionCounter); !ok || rc.CountsStart() {
		h[start.Hash()] = 1
	}
	return h
}

// CountsMove reports whether the position that action leads to from s
// counts towards a repetition rule: every one, unless the game says
// otherwise.
func CountsMove(s State, action int) bool {
	rc, ok := Unwrap(s).(RepetitionCounter)
	return !ok || rc.CountsMove(action)
}

// Repetition wraps a position so that a game ends in a tie when a position
// occurs more than Limit times, counting the occurrences in History (the
// game so far, as NewHistory and CountsMove count it) and the one the move
// makes. A search run on the wrapped position sees that tie coming: it
// avoids repeating when ahead and may seek it when behind, as a referee
// with the rule (the course's tournament server used 5) will judge.
//
// History is shared by every copy and must not change while a search runs;
// repetitions inside the search's own lines are not counted.
type Repetition struct {
	State
	History map[uint64]int
	Limit   int
	tie     bool
}

var _ State = (*Repetition)(nil)

// WithRepetition wraps s; history counts the positions of the game so far
// (s included, if it counts).
func WithRepetition(s State, history map[uint64]int, limit int) *Repetition {
	return &Repetition{State: s, History: history, Limit: limit}
}

func (r *Repetition) Outcome() Outcome {
	if r.tie {
		return Outcome{Over: true, Winner: NoSide}
	}
	return r.State.Outcome()
}

func (r *Repetition) LegalActions(dst []int) []int {
	if r.tie {
		return dst
	}
	return r.State.LegalActions(dst)
}

func (r *Repetition) Apply(action int) {
	counts := CountsMove(r.State, action)
	r.State.Apply(action)
	if counts && !r.State.Outcome().Over && r.History[r.State.Hash()]+1 > r.Limit {
		r.tie = true
	}
}

func (r *Repetition) Clone() State {
	return &Repetition{State: r.State.Clone(), History: r.History, Limit: r.Limit, tie: r.tie}
}

// CopyFrom copies another wrapped position of the same game.
func (r *Repetition) CopyFrom(src State) {
	o := src.(*Repetition)
	r.State.CopyFrom(o.State)
	r.History, r.Limit, r.tie = o.History, o.Limit, o.tie
}

// Unwrap returns the wrapped position.
func (r *Repetition) Unwrap() State { return r.State }

// HistoryBound implements HistoryBound: the rule counts the game so far.
func (r *Repetition) HistoryBound() bool { return true }

// HistoryBound is a state whose outcomes depend on how it was reached (a
// repetition rule counts the game's history): values and proofs found
// with one history may not hold once the game has moved on, so a search
// does not keep its tree from one move to the next.
type HistoryBound interface {
	HistoryBound() bool
}

// Unwrap returns the game's own position under any wrappers (such as
// Repetition), for code that needs the game's concrete type.
func Unwrap(s State) State {
	for {
		w, ok := s.(interface{ Unwrap() State })
		if !ok {
			return s
		}
		s = w.Unwrap()
	}
}
