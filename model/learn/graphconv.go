package learn

import (
	"fmt"

	G "gorgonia.org/gorgonia"
	"gorgonia.org/tensor"

	"github.com/sliderzero/sliderzero/model"
)

// conv applies convolution layer l, whose parameters are 2i and 2i+1,
// adding skip (when not nil) before the activation: h (batch x channels
// times cells) as images, Gorgonia's convolution with the transposed
// weight matrix for a filter, and the output flattened back.
func (gn *graphNet) conv(h *G.Node, i int, l model.Layer, skip *G.Node) (*G.Node, error) {
	c := l.Conv
	wrap := func(err error) error { return fmt.Errorf("layer %s: %w", l.Name, err) }
	if gn.fused {
		in := G.Nodes{h, gn.params[2*i], gn.params[2*i+1]}
		if skip != nil {
			in = append(in, skip)
		}
		out, err := G.ApplyOp(newConvOp(l.Name, gn.batch, *c, layer{relu: l.ReLU, skip: skip != nil, inputGrad: h != gn.x}), in...)
		if err != nil {
			return nil, wrap(err)
		}
		return out, nil
	}
	img, err := G.Reshape(h, tensor.Shape{gn.batch, c.In, c.H, c.W})
	if err != nil {
		return nil, wrap(err)
	}
	wt, err := G.Transpose(gn.params[2*i])
	if err != nil {
		return nil, wrap(err)
	}
	filter, err := G.Reshape(wt, tensor.Shape{c.Out, c.In, model.ConvKernel, model.ConvKernel})
	if err != nil {
		return nil, wrap(err)
	}
	pad := model.ConvKernel / 2
	y, err := G.Conv2d(img, filter, tensor.Shape{model.ConvKernel, model.ConvKernel}, []int{pad, pad}, []int{1, 1}, []int{1, 1})
	if err != nil {
		return nil, wrap(err)
	}
	flat, err := G.Reshape(y, tensor.Shape{gn.batch, l.Out})
	if err != nil {
		return nil, wrap(err)
	}
	// The bias, one a channel, repeated over the channel's cells: (out x
	// 1) times a row of ones, flattened channel-major.
	bt, err := G.Transpose(gn.params[2*i+1])
	if err != nil {
		return nil, wrap(err)
	}
	ones := G.NewMatrix(gn.g, tensor.Float32, G.WithShape(1, c.H*c.W), G.WithName(l.Name+".cells"),
		G.WithValue(tensor.New(tensor.WithShape(1, c.H*c.W), tensor.WithBacking(filled(c.H*c.W, 1)))))
	bc, err := G.Mul(bt, ones)
	if err != nil {
		return nil, wrap(err)
	}
	brow, err := G.Reshape(bc, tensor.Shape{1, l.Out})
	if err != nil {
		return nil, wrap(err)
	}
	out, err := G.BroadcastAdd(flat, brow, nil, []byte{0})
	if err != nil {
		return nil, wrap(err)
	}
	if skip != nil {
		if out, err = G.Add(out, skip); err != nil {
			return nil, wrap(err)
		}
	}
	if l.ReLU {
		return G.Rectify(out)
	}
	return out, nil
}

// filled is n copies of v.
func filled(n int, v float32) []float32 {
	s := make([]float32, n)
	for i := range s {
		s[i] = v
	}
	return s
}
