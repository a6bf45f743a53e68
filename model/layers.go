package model

import (
	"fmt"
	"math"
	"sort"
	"strings"

	"github.com/sliderzero/sliderzero/env"
)

// Layer describes one layer of a network: dense, or a 3x3 convolution.
// The list of an architecture's layers is the one description that its
// parameters (Params), its initial values (NewWeights), the plain-Go pass
// (Net) and the Gorgonia graph (buildNet) all follow, so a new trunk is one
// function in trunks and nothing else.
type Layer struct {
	// Name prefixes the layer's parameters, Name.w and Name.b (Shapes);
	// checkpoints store the parameters under these names.
	Name string
	// In and Out are the values the layer reads and writes a position
	// (a convolution's: its channels times the board's cells).
	In, Out int
	// Conv, when not nil, makes the layer a convolution over the board.
	Conv *Conv
	// Skip, when not NoSkip, is the index of an earlier trunk layer whose
	// output is added to this one's before the activation: a residual
	// connection.
	Skip int
	ReLU bool
	// InitStd is the standard deviation of the initial weights; 0 means
	// He-normal, sqrt(2/In), for a ReLU layer. A residual block's last layer
	// starts small so that the block starts near the identity.
	InitStd float64
}

// NoSkip marks a layer without a residual connection.
const NoSkip = -1

// Conv is a 3x3 convolution's shape: In channels to Out channels on a
// board of H rows and W columns, zero-padded so that the board keeps its
// size. A convolution's values, in and out, are channel-major (channel,
// row, column), the order of a game's encoding. Its weight matrix has a
// row per input channel and kernel cell (channel, then kernel row, then
// kernel column) and a column per output channel: transposed, it is the
// (out, in, 3, 3) filter that convolution libraries take.
type Conv struct {
	In, Out, H, W int
}

// ConvKernel is a convolution's kernel width and height.
const ConvKernel = 3

// Shapes are the shapes of the layer's weight matrix and bias: [In, Out]
// and [Out] for a dense layer, [In*9, Out] and [Out] in channels for a
// convolution, whose weights are shared by every cell.
func (l Layer) Shapes() (w []int, b []int) {
	if c := l.Conv; c != nil {
		return []int{c.In * ConvKernel * ConvKernel, c.Out}, []int{c.Out}
	}
	return []int{l.In, l.Out}, []int{l.Out}
}

// MACs is the multiply-adds of the layer's pass over one position.
func (l Layer) MACs() int {
	w, _ := l.Shapes()
	if c := l.Conv; c != nil {
		return c.H * c.W * w[0] * w[1]
	}
	return w[0] * w[1]
}

// fanIn is the inputs each output reads: He-normal's scale.
func (l Layer) fanIn() int {
	w, _ := l.Shapes()
	return w[0]
}

// trunks builds each kind's trunk: the layers between the encoded position
// and the two heads, each reading the one before it (the first reads the
// input).
var trunks = map[string]func(a Arch) []Layer{
	// Depth dense layers of Width, ReLU.
	KindMLP: func(a Arch) []Layer {
		var ls []Layer
		in := a.Input
		for i := 0; i < a.Depth; i++ {
			ls = append(ls, Layer{Name: fmt.Sprintf("h%d", i), In: in, Out: a.Width, Skip: NoSkip, ReLU: true})
			in = a.Width
		}
		return ls
	},
	// A dense layer of Width, then Depth residual blocks of two dense layers.
	KindResMLP: func(a Arch) []Layer {
		ls := []Layer{{Name: "in", In: a.Input, Out: a.Width, Skip: NoSkip, ReLU: true}}
		for i := 0; i < a.Depth; i++ {
			top := len(ls) - 1
			ls = append(ls,
				Layer{Name: fmt.Sprintf("b%d.1", i), In: a.Width, Out: a.Width, Skip: NoSkip, ReLU: true},
				Layer{Name: fmt.Sprintf("b%d.2", i), In: a.Width, Out: a.Width, Skip: top, ReLU: true, InitStd: 0.1 * math.Sqrt(2/float64(a.Width))})
		}
		return ls
	},
	// A convolution of the encoding's planes to Width channels, then Depth
	// residual blocks of two convolutions (the trunk of AlphaZero and
	// KataGo, without normalisation): the board's geometry is built in,
	// each cell's weights shared.
	KindConv: func(a Arch) []Layer {
		planes, h, w := a.Shape[0], a.Shape[1], a.Shape[2]
		conv := func(name string, in int, skip int, std float64) Layer {
			c := &Conv{In: in, Out: a.Width, H: h, W: w}
			return Layer{Name: name, In: in * h * w, Out: a.Width * h * w, Conv: c, Skip: skip, ReLU: true, InitStd: std}
		}
		ls := []Layer{conv("in", planes, NoSkip, 0)}
		for i := 0; i < a.Depth; i++ {
			top := len(ls) - 1
			ls = append(ls,
				conv(fmt.Sprintf("b%d.1", i), a.Width, NoSkip, 0),
				conv(fmt.Sprintf("b%d.2", i), a.Width, top, 0.1*math.Sqrt(2/float64(9*a.Width))))
		}
		return ls
	},
}

// kindNames lists the known kinds, for messages.
func kindNames() string {
	var ks []string
	for k := range trunks {
		ks = append(ks, k)
	}
	sort.Strings(ks)
	return strings.Join(ks, " or ")
}

// Layers is the architecture's trunk, then its policy head (a logit per
// action) and its value head (one value, through tanh; or, with WDL,
// three logits, for a win, a draw and a loss), both reading the trunk's
// last layer. The heads start with small weights so that the first
// policy is near uniform and the first values near 0.
func (a Arch) Layers() (trunk []Layer, policy, value Layer) {
	trunk = trunks[a.Kind](a)
	w := trunk[len(trunk)-1].Out
	policy = Layer{Name: "policy", In: w, Out: a.Actions, Skip: NoSkip, InitStd: 0.01}
	value = Layer{Name: "value", In: w, Out: a.ValueOutputs(), Skip: NoSkip, InitStd: 0.01}
	return trunk, policy, value
}

// ValueOutputs is the value head's width: 1, or 3 with WDL.
func (a Arch) ValueOutputs() int {
	if a.WDL {
		return 3
	}
	return 1
}

// WDLValue is a three-way value head's value: the softmax of its logits
// for a win, a draw and a loss, the win's probability less the loss's.
func WDLValue(win, draw, loss float32) float32 {
	m := max(win, draw, loss)
	w := math.Exp(float64(win - m))
	d := math.Exp(float64(draw - m))
	l := math.Exp(float64(loss - m))
	return float32((w - l) / (w + d + l))
}

// WDLTarget is the win, draw and loss probabilities a three-way value
// head is taught for a value target z in [-1, 1]: a result is its class,
// and a target between (a discounted or bootstrapped one) the mix of a
// draw and the result with that expectation, so that the head's value
// is fitted to the same z as a tanh head's.
func WDLTarget(z float32) (win, draw, loss float32) {
	z = max(-1, min(1, z))
	if z >= 0 {
		return z, 1 - z, 0
	}
	return 0, 1 + z, -z
}

// PliesHead is, for an architecture with MovesLeft, the plies-to-end head
// (one linear output reading the trunk's last layer, PliesScale plies a
// unit). It comes after the value head in the parameters' order, so the
// parameters of a network without it are unchanged.
func (a Arch) PliesHead() (Layer, bool) {
	if !a.MovesLeft {
		return Layer{}, false
	}
	trunk := trunks[a.Kind](a)
	return Layer{Name: "plies", In: trunk[len(trunk)-1].Out, Out: 1, Skip: NoSkip, InitStd: 0.01}, true
}

// PliesScale is the plies the plies head's output counts a unit: targets
// of a few tens of plies then sit near 1, the value's scale, so the two
// heads' losses are of a size.
const PliesScale = 100

// all is every layer in the parameters' order: trunk, policy, value, and
// the plies head if any.
func (a Arch) all() []Layer {
	trunk, policy, value := a.Layers()
	ls := append(trunk, policy, value)
	if plies, ok := a.PliesHead(); ok {
		ls = append(ls, plies)
	}
	return ls
}

// NewArch is the architecture of a kind and size for a game: the input is
// the game's encoding (its shape kept for the record), the outputs its
// actions.
func NewArch(kind string, width, depth int, g env.Game) Arch {
	s := g.InputShape()
	return Arch{Kind: kind, Width: width, Depth: depth, Input: s.Size(), Actions: g.ActionSize(), Shape: []int{s.C, s.H, s.W}}
}
