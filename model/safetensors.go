package model

import (
	"bytes"
	"encoding/binary"
	"encoding/json"
	"fmt"
	"math"
)

// Safetensors writes the weights in the safetensors format (an 8-byte
// little-endian header length, a JSON header, then the tensors' raw
// little-endian float32 values), readable by any safetensors library or
// by a few lines of any language. The header's __metadata__ (string
// values only, as the format asks) carries what a program needs to run
// the network without this project: "arch" (the architecture as JSON),
// "layers" (the layer list in order: name, in, out, the trunk layer whose
// output is added before the activation, ReLU or not, and for a 3x3
// convolution its channels and board, see Conv; the policy head's
// logits read the trunk's last layer, the value head's output goes
// through tanh, a "wdl" head's three logits are a softmax over a win, a
// draw and a loss whose value is the win's probability less the loss's,
// a plies head counts PliesScale plies a unit), and the
// caller's extra entries (the game, its input encoding).
func (w *Weights) Safetensors(meta map[string]string) ([]byte, error) {
	if err := w.Check(); err != nil {
		return nil, err
	}
	type layerDoc struct {
		Name string   `json:"name"`
		In   int      `json:"in"`
		Out  int      `json:"out"`
		Skip int      `json:"skip"` // index into the trunk, -1 for none
		ReLU bool     `json:"relu"`
		Role string   `json:"role"` // trunk, policy, value (tanh), wdl or plies
		Conv *convDoc `json:"conv,omitempty"`
	}
	doc := func(l Layer, role string) layerDoc {
		d := layerDoc{Name: l.Name, In: l.In, Out: l.Out, Skip: l.Skip, ReLU: l.ReLU, Role: role}
		if c := l.Conv; c != nil {
			d.Conv = &convDoc{In: c.In, Out: c.Out, Rows: c.H, Cols: c.W, Kernel: ConvKernel}
		}
		return d
	}
	trunk, policy, value := w.Arch.Layers()
	var layers []layerDoc
	for _, l := range trunk {
		layers = append(layers, doc(l, "trunk"))
	}
	layers = append(layers, doc(policy, "policy"), doc(value, valueRole(w.Arch)))
	if p, ok := w.Arch.PliesHead(); ok {
		layers = append(layers, doc(p, "plies"))
	}
	arch, err := json.Marshal(w.Arch)
	if err != nil {
		return nil, err
	}
	layerJSON, err := json.Marshal(layers)
	if err != nil {
		return nil, err
	}
	md := map[string]string{"format": "sliderzero network", "arch": string(arch), "layers": string(layerJSON),
		"plies_scale": fmt.Sprint(PliesScale)}
	for k, v := range meta {
		md[k] = v
	}
	header := map[string]any{"__metadata__": md}
	offset := 0
	for _, t := range w.Tensors {
		size := 4 * len(t.Data)
		header[t.Name] = map[string]any{"dtype": "F32", "shape": t.Shape, "data_offsets": []int{offset, offset + size}}
		offset += size
	}
	h, err := json.Marshal(header)
	if err != nil {
		return nil, err
	}
	// The format pads the header with spaces to a multiple of 8 bytes.
	for len(h)%8 != 0 {
		h = append(h, ' ')
	}
	var b bytes.Buffer
	b.Grow(8 + len(h) + offset)
	binary.Write(&b, binary.LittleEndian, uint64(len(h)))
	b.Write(h)
	var word [4]byte
	for _, t := range w.Tensors {
		for _, x := range t.Data {
			binary.LittleEndian.PutUint32(word[:], math.Float32bits(x))
			b.Write(word[:])
		}
	}
	return b.Bytes(), nil
}

// convDoc is a convolution in the layer list: input and output channels,
// the board's rows and columns, the kernel's size.
type convDoc struct {
	In     int `json:"in_channels"`
	Out    int `json:"out_channels"`
	Rows   int `json:"rows"`
	Cols   int `json:"cols"`
	Kernel int `json:"kernel"`
}

// valueRole is the value head's role in the layer list.
func valueRole(a Arch) string {
	if a.WDL {
		return "wdl"
	}
	return "value"
}
