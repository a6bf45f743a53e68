// Package env defines the contract between a board game and the code that
// searches, plays and learns it. The search, the players and the trainer see
// games only through these interfaces, so a new game needs no change there.
package env

import (
	"fmt"
	"math/rand/v2"
	"unicode/utf8"
)

// Side names one of the two players of a game. Sides are identities, not
// turn order: in Slider side 0 is always H, whoever moves first. A game may
// let one side move several times in a row, so callers must ask the state
// whose turn it is rather than alternate themselves.
type Side int8

const (
	// NoSide is the winner of a tie and of a game that is not over.
	NoSide Side = -1
)

// Other returns the opposing side.
func (s Side) Other() Side { return 1 - s }

// Outcome is the status of a game: over or not and, if over, who won.
type Outcome struct {
	Over   bool
	Winner Side // NoSide for a tie
}

// Value is the outcome for side s: +1 for a win, -1 for a loss, 0 for a tie
// or a game still in progress.
func (o Outcome) Value(s Side) float32 {
	switch {
	case !o.Over || o.Winner == NoSide:
		return 0
	case o.Winner == s:
		return 1
	default:
		return -1
	}
}

// Shape is the size of a game's network input: C planes of H x W.
type Shape struct{ C, H, W int }

// Size is the number of float32 values in an encoded position.
func (s Shape) Size() int { return s.C * s.H * s.W }

// Game describes one configuration of a game (a Slider board of a given
// size, say) and creates its positions.
type Game interface {
	// Name is the game's short name, as given to --game.
	Name() string
	// Describe states the configuration in one line, for logs and
	// records: the name, then the settings as key=value in the keys of
	// the game's registered options ("rlgame size=6 base=1 pawns=4
	// plycap=200"), which is also the engine protocol's game command
	// that builds the same game.
	Describe() string
	// ActionSize is the size of the fixed action space; every legal action
	// is an integer in [0, ActionSize).
	ActionSize() int
	// InputShape is the shape of Encode's output.
	InputShape() Shape
	// SideName is the name of a side in the game's notation ("H", "V").
	SideName(Side) string
	// ParseSide reads a side name; it accepts what SideName writes.
	ParseSide(string) (Side, error)
	// Start returns the initial position. Games with random set-ups draw
	// them from rng; others ignore it.
	Start(rng *rand.Rand) State
	// ParseState reads a position in the game's one-line form (what
	// State.String writes). The position keeps this game's rules (ply cap
	// and so on) but takes its board from the text.
	ParseState(string) (State, error)
}

// State is a position. States are mutable: Apply changes the receiver.
// Search code keeps a scratch state per simulation and refills it with
// CopyFrom, which must not allocate.
type State interface {
	Game() Game
	// ToMove is the side whose turn it is; meaningless once the game is over.
	ToMove() Side
	// Ply counts the plies (passes included) played since the start.
	Ply() int
	Outcome() Outcome
	// LegalActions appends the legal actions of the side to move to dst and
	// returns it. A player who must pass has exactly one legal action, the
	// game's pass action. It returns dst unchanged once the game is over.
	LegalActions(dst []int) []int
	// Apply plays a legal action for the side to move. The action must come
	// from LegalActions or ParseAction: Apply does not check it.
	Apply(action int)
	// Clone returns an independent copy.
	Clone() State
	// CopyFrom makes the receiver a copy of src, a state of the same game.
	CopyFrom(src State)
	// Hash identifies the position (board, side to move and whatever else
	// decides the legal moves) for transposition tables and repetition
	// counts.
	Hash() uint64
	// Encode writes the network input, seen from the side to move, into dst
	// (len InputShape().Size()).
	Encode(dst []float32)
	// ActionString writes an action of the side to move in the game's move
	// notation.
	ActionString(action int) string
	// ParseAction reads a move of the side to move in the game's notation
	// and checks that it is legal; the error says what is wrong.
	ParseAction(string) (int, error)
	// String is the one-line form that Game.ParseState reads.
	String() string
	// Board is the multi-line board in the game's file format.
	Board() string
	// Display is the board drawn for a person at a terminal, with
	// coordinates.
	Display() string
}

// IsLegal reports whether action is legal for the side to move in s.
func IsLegal(s State, action int) bool {
	for _, a := range s.LegalActions(make([]int, 0, 32)) {
		if a == action {
			return true
		}
	}
	return false
}

// MoveNames writes a line of actions from s (left as it is) in the
// game's notation, stopping at the first that is not legal.
func MoveNames(s State, line []int) []string {
	st := s.Clone()
	out := make([]string, 0, len(line))
	for _, a := range line {
		if st.Outcome().Over || !IsLegal(st, a) {
			break
		}
		out = append(out, st.ActionString(a))
		st.Apply(a)
	}
	return out
}

// Play applies an action after checking that it is legal. It is the safe
// entry point for actions that come from outside the search.
func Play(s State, action int) error {
	if s.Outcome().Over {
		return fmt.Errorf("the game is over")
	}
	if !IsLegal(s, action) {
		return fmt.Errorf("action %d is not legal in %s", action, s)
	}
	s.Apply(action)
	return nil
}

// Evaluator is implemented by games that offer a hand-written evaluation
// for the classical players (greedy, alphabeta). Evaluate scores a position
// that is not over from the side to move's point of view: positive is good
// for it. The scale is the game's own; only the order matters.
type Evaluator interface {
	Evaluate(s State) float64
}

// Symmetric is implemented by games whose positions have symmetries that
// their encoding does not already remove (Slider's transpose is removed by
// encoding from the side to move, so Slider has none). Training augments
// its samples with them.
type Symmetric interface {
	// Symmetries counts the symmetries, the identity (number 0) included.
	Symmetries() int
	// TransformInput writes into dst the encoding src under symmetry k.
	TransformInput(k int, src, dst []float32)
	// TransformAction maps an action under symmetry k.
	TransformAction(k, action int) int
}

// Mix64 is the splitmix64 finaliser: games build their position hashes by
// mixing their bitboards and flags through it.
func Mix64(x uint64) uint64 {
	x ^= x >> 30
	x *= 0xbf58476d1ce4e5b9
	x ^= x >> 27
	x *= 0x94d049bb133111eb
	return x ^ x>>31
}

// Capped is implemented by games that end a game as a tie when it reaches
// a ply cap: a referee's device against endless games, not part of the
// game's rules.
type Capped interface {
	PlyCap() int
}

// EndedByCap reports whether a finished game was ended by its ply cap
// rather than by its rules: a tie on the cap's ply.
func EndedByCap(s State) bool {
	c, ok := s.Game().(Capped)
	o := s.Outcome()
	return ok && o.Over && o.Winner == NoSide && s.Ply() >= c.PlyCap()
}

// Excerpt is at most n bytes of a text from a file, a command or a
// request, for an error message that quotes it: a bad line may be
// megabytes long. It cuts on a character's boundary.
func Excerpt(s string, n int) string {
	if len(s) <= n {
		return s
	}
	for n > 0 && !utf8.RuneStart(s[n]) {
		n--
	}
	return s[:n] + "..."
}

// Quote is %q of at most 60 bytes of a text, for error messages.
func Quote(s string) string { return fmt.Sprintf("%q", Excerpt(s, 60)) }

// RandomStarter is a game that can draw a position at random from (nearly)
// all those its rules allow: self-play may start games there, away from
// its own habits, since the critical positions a player must judge are
// spread over the whole game, not only along the lines strong play takes.
// The position is not over, its ply count 0, and it is drawn from the
// rules alone (no knowledge of who wins it).
type RandomStarter interface {
	RandomStart(rng *rand.Rand) State
}

// WinFinder is a state that finds a move winning at once for its side to
// move faster than by trying each legal move: the search asks at every
// new leaf. Games without it are asked move by move.
type WinFinder interface {
	// WinningAction is a legal action that ends the game at once in a win
	// for the side to move, by the game's own rules (not a ply cap or a
	// repetition rule), or -1 when there is none.
	WinningAction() int
}
