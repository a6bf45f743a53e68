package replay

import (
	"encoding/binary"
	"fmt"
	"math"
	"sync"

	"github.com/klauspost/compress/zstd"
	"github.com/vmihailenco/msgpack/v5"

	"github.com/sliderzero/sliderzero/env"
	"github.com/sliderzero/sliderzero/store"
)

// Network inputs are stored plane by plane, each in the smallest of three
// forms: a constant plane (a ply fraction, a turn flag) as one number, a
// plane of zeros and ones (pieces) as bits, anything else as float32s.
// A 5x5 Slider position takes 12 bytes instead of 300.
const (
	planeConst  = 0
	planeBits   = 1
	planeFloats = 2
)

// packInput writes x, of the given shape, in the compact form.
func packInput(x []float32, shape env.Shape) []byte {
	area := shape.H * shape.W
	out := make([]byte, 0, shape.C*(1+(area+7)/8))
	for c := 0; c < shape.C; c++ {
		p := x[c*area : (c+1)*area]
		constant, binary01 := true, true
		for _, v := range p {
			constant = constant && v == p[0]
			binary01 = binary01 && (v == 0 || v == 1)
		}
		switch {
		case constant:
			out = append(out, planeConst)
			out = binaryAppend(out, p[0])
		case binary01:
			out = append(out, planeBits)
			bits := make([]byte, (area+7)/8)
			for i, v := range p {
				if v == 1 {
					bits[i/8] |= 1 << (i % 8)
				}
			}
			out = append(out, bits...)
		default:
			out = append(out, planeFloats)
			for _, v := range p {
				out = binaryAppend(out, v)
			}
		}
	}
	return out
}

func binaryAppend(b []byte, v float32) []byte {
	return binary.LittleEndian.AppendUint32(b, math.Float32bits(v))
}

// unpackInput reads the compact form into x (len shape.Size()).
func unpackInput(b []byte, shape env.Shape, x []float32) error {
	area := shape.H * shape.W
	for c := 0; c < shape.C; c++ {
		if len(b) == 0 {
			return fmt.Errorf("packed input ends at plane %d of %d", c, shape.C)
		}
		p := x[c*area : (c+1)*area]
		tag := b[0]
		b = b[1:]
		switch tag {
		case planeConst:
			if len(b) < 4 {
				return fmt.Errorf("packed input: plane %d cut short", c)
			}
			v := math.Float32frombits(binary.LittleEndian.Uint32(b))
			for i := range p {
				p[i] = v
			}
			b = b[4:]
		case planeBits:
			n := (area + 7) / 8
			if len(b) < n {
				return fmt.Errorf("packed input: plane %d cut short", c)
			}
			for i := range p {
				p[i] = float32(b[i/8] >> (i % 8) & 1)
			}
			b = b[n:]
		case planeFloats:
			if len(b) < 4*area {
				return fmt.Errorf("packed input: plane %d cut short", c)
			}
			for i := range p {
				p[i] = math.Float32frombits(binary.LittleEndian.Uint32(b[4*i:]))
			}
			b = b[4*area:]
		default:
			return fmt.Errorf("packed input: plane %d has unknown form %d", c, tag)
		}
	}
	if len(b) != 0 {
		return fmt.Errorf("packed input: %d bytes after the last plane", len(b))
	}
	return nil
}

// packedSample is a sample as a shard stores it.
type packedSample struct {
	State    string    `msgpack:"s"`
	Input    []byte    `msgpack:"x"`
	Actions  []int32   `msgpack:"a"`
	Policy   []float32 `msgpack:"p"`
	Value    float32   `msgpack:"z"`
	Surprise float32   `msgpack:"q,omitempty"`
	Left     int16     `msgpack:"l,omitempty"`
}

// zstd coders are safe for concurrent use and costly to make: one each.
var (
	zstdOnce sync.Once
	zstdEnc  *zstd.Encoder
	zstdDec  *zstd.Decoder
)

func coders() (*zstd.Encoder, *zstd.Decoder) {
	zstdOnce.Do(func() {
		zstdEnc, _ = zstd.NewWriter(nil, zstd.WithEncoderLevel(zstd.SpeedDefault))
		zstdDec, _ = zstd.NewReader(nil, zstd.WithDecoderMaxMemory(maxShardBytes))
	})
	return zstdEnc, zstdDec
}

// maxShardBytes bounds a shard's samples once decompressed.
const maxShardBytes = 1 << 30

// compressSamples packs samples and compresses them.
func compressSamples(samples []Sample, shape env.Shape) ([]byte, error) {
	packed := make([]packedSample, len(samples))
	for i, s := range samples {
		packed[i] = packedSample{State: s.State, Input: packInput(s.Input, shape), Actions: s.Actions, Policy: s.Policy, Value: s.Value, Surprise: s.Surprise, Left: s.Left}
	}
	raw, err := msgpack.Marshal(packed)
	if err != nil {
		return nil, err
	}
	enc, _ := coders()
	return enc.EncodeAll(raw, nil), nil
}

// decompressSamples rebuilds samples from compressSamples' output.
func decompressSamples(data []byte, shape env.Shape) ([]Sample, error) {
	_, dec := coders()
	raw, err := dec.DecodeAll(data, nil)
	if err != nil {
		return nil, fmt.Errorf("decompressing: %w", err)
	}
	var packed []packedSample
	if err := store.Unmarshal(raw, &packed); err != nil {
		return nil, fmt.Errorf("decoding samples: %w", err)
	}
	out := make([]Sample, len(packed))
	size := shape.Size()
	inputs := make([]float32, len(packed)*size)
	for i, p := range packed {
		x := inputs[i*size : (i+1)*size : (i+1)*size]
		if err := unpackInput(p.Input, shape, x); err != nil {
			return nil, fmt.Errorf("sample %d: %w", i, err)
		}
		if len(p.Actions) != len(p.Policy) {
			return nil, fmt.Errorf("sample %d: %d actions but %d policy entries", i, len(p.Actions), len(p.Policy))
		}
		out[i] = Sample{State: p.State, Input: x, Actions: p.Actions, Policy: p.Policy, Value: p.Value, Surprise: p.Surprise, Left: p.Left}
	}
	return out, nil
}
