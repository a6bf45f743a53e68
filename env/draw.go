package env

// Front ends (the web app, terminal play) draw a game from what the game
// says about itself, with no code of their own per game. Board gives the
// cells: one line per row, the top row first, its cells' tokens separated
// by spaces, every row as long; the board has as many rows and columns as
// that. A game that implements Drawn says how to draw each token, and a
// state that implements Shaped says where each legal move is on the board.
// Without them a front end shows tokens as text and moves as buttons
// labelled with their notation.

// Cell is a board cell: Col counts from the left, Row from the bottom,
// both from 0 (a1 is {0, 0}). A cell just past an edge (Col -1 or Row
// equal to the number of rows, say) stands for "off the board".
type Cell struct{ Col, Row int }

// Look is how a front end draws a token of Board.
type Look struct {
	// Side is the side whose piece the token is, drawn in that side's
	// colour; NoSide for a cell without a piece.
	Side Side
	// Label is the text on the piece.
	Label string
	// Mark is a marking of a cell without a piece: MarkBlocked,
	// MarkBase, or "" for an empty cell.
	Mark string
}

// Cell markings a front end knows how to draw.
const (
	// MarkBlocked is a cell no piece may enter.
	MarkBlocked = "blocked"
	// MarkBase is a side's home area.
	MarkBase = "base"
)

// Drawn is implemented by games that tell front ends how to draw their
// boards' tokens.
type Drawn interface {
	// Looks maps each token Board writes to its look. A token missing
	// from the map is an empty cell.
	Looks() map[string]Look
}

// Frame is how a front end frames a game's board.
type Frame struct {
	// OffBoard says pieces may leave the board: the front end draws a
	// ring of cells around it to click for such moves.
	OffBoard bool
	// Style is the board's look: StyleGrid (squares, the default),
	// StyleColumns (an upright frame of columns with round holes, discs
	// falling in them) or StyleHex (hexagons in rows offset by half a
	// cell).
	Style string
	// Edges colours the board's edges by the side that must join them
	// (a connection game): side 0's colour along the bottom and top
	// rows, side 1's along the first and last columns.
	Edges bool
}

// Board styles a front end knows how to draw.
const (
	StyleGrid    = "grid"
	StyleColumns = "columns"
	// StyleHex draws each cell as a hexagon and each row half a cell to
	// the right of the row below it: the board is a rhombus leaning
	// right, and cell (c, r) touches (c-1, r), (c+1, r), (c, r-1),
	// (c+1, r-1), (c-1, r+1) and (c, r+1).
	StyleHex = "hex"
)

// Framed is implemented by games that say how their board is framed.
// Without it a front end draws a grid with a ring for moves off the
// board.
type Framed interface {
	Frame() Frame
}

// FrameOf is g's frame, or the default one.
func FrameOf(g Game) Frame {
	if f, ok := g.(Framed); ok {
		fr := f.Frame()
		if fr.Style == "" {
			fr.Style = StyleGrid
		}
		return fr
	}
	return Frame{OffBoard: true, Style: StyleGrid}
}

// MoveShape is where a move is on the board, for a front end to let a
// person make it by clicking.
type MoveShape struct {
	// From is the cell of the piece that moves; nil for a drop or a
	// button.
	From *Cell
	// To is the cell the piece arrives at or is dropped on; with Off, the
	// cell just past the edge it leaves by. Nil for a button.
	To *Cell
	// Off marks a move that takes the piece off the board.
	Off bool
	// Column marks a drop chosen by its column (a piece falling to To in
	// a game with gravity): a click anywhere in To's column makes it.
	Column bool
	// Button is the label of a move made with a button, not on the board
	// (a pass): set when From and To are both nil.
	Button string
}

// Shaped is implemented by states whose legal moves front ends can show on
// the board.
type Shaped interface {
	// MoveShape is the shape of a legal action of the side to move.
	MoveShape(action int) MoveShape
}

// ShapeOf is the shape of a legal action in s: the state's own, or a
// button with the move's notation for a state that does not say.
func ShapeOf(s State, action int) MoveShape {
	if sh, ok := Unwrap(s).(Shaped); ok {
		return sh.MoveShape(action)
	}
	return MoveShape{Button: s.ActionString(action)}
}

// Explained is implemented by games that tell a person at a terminal how
// to play: the goal, what the board's letters are, and the move notation,
// in a few lines.
type Explained interface {
	HowToPlay() string
}

// InputDoc is implemented by games that describe their network input in
// words, for programs outside the project that run an exported network
// (sliderzero export --format safetensors): the planes, their order, and
// which cell each input is.
type InputDoc interface {
	InputDoc() string
}
