package replay

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"io"
	"math"
	"sync"
	"unsafe"

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

// zstd coders are costly to make: one encoder (safe for concurrent use),
// and decoders of one stream each, kept for reuse.
var (
	zstdOnce sync.Once
	zstdEnc  *zstd.Encoder
	zstdDecs = sync.Pool{New: func() any {
		d, _ := zstd.NewReader(nil, zstd.WithDecoderConcurrency(1), zstd.WithDecoderMaxMemory(maxShardBytes))
		return d
	}}
)

func encoder() *zstd.Encoder {
	zstdOnce.Do(func() {
		zstdEnc, _ = zstd.NewWriter(nil, zstd.WithEncoderLevel(zstd.SpeedDefault))
	})
	return zstdEnc
}

// What a shard's samples may take, whatever its file claims (issue 65: a
// 1,142-byte shard expanded to 12 million empty samples and took 2.5 GB).
const (
	// maxShardBytes bounds a shard's samples once decompressed: a round
	// of 10,000 games of the largest boards fits.
	maxShardBytes = 256 << 20
	// maxDecodedBytes bounds the memory a shard's decoded samples take
	// (their structs and network inputs, counted from the positions the
	// shard claims before anything is allocated for them): about 600,000
	// positions of Slider or Connect Four, 190,000 of RLGame's; a round
	// of 64 games is a few thousand.
	maxDecodedBytes = 256 << 20
	// maxStateBytes is the most a position's text is taken to hold when
	// bounding what a shard's claimed positions may decompress to.
	maxStateBytes = 4096
)

// sampleBytes is the memory a decoded sample's struct takes.
const sampleBytes = int(unsafe.Sizeof(Sample{}))

// minPackedBytes is the least a valid sample takes packed: its input, each
// plane at least a tag and a byte, behind a header and the field's key.
func minPackedBytes(shape env.Shape) int {
	area := shape.H * shape.W
	return 4 + shape.C*min(5, 1+(area+7)/8, 1+4*area)
}

// maxPackedBytes bounds what a valid sample takes packed: its text, input,
// actions and policy entries at their largest, with headers and keys.
func maxPackedBytes(shape env.Shape, actions int) int {
	area := shape.H * shape.W
	return 64 + maxStateBytes + shape.C*(1+4*area) + 10*actions
}

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
	return encoder().EncodeAll(raw, nil), nil
}

// checkClaim refuses a count of positions a shard cannot hold, before
// anything is decompressed or allocated for it: more decoded memory than
// maxDecodedBytes.
func checkClaim(claimed int, shape env.Shape) error {
	if claimed < 0 || claimed > maxDecodedBytes/(sampleBytes+4*shape.Size()) {
		return fmt.Errorf("claims %d positions: a shard decodes to at most %d MB, %d positions of this game", claimed, maxDecodedBytes>>20, maxDecodedBytes/(sampleBytes+4*shape.Size()))
	}
	return nil
}

// decompress expands a shard's samples, refusing data that expands past
// limit bytes without expanding it further.
func decompress(data []byte, limit int) ([]byte, error) {
	d := zstdDecs.Get().(*zstd.Decoder)
	defer zstdDecs.Put(d)
	if err := d.Reset(bytes.NewReader(data)); err != nil {
		return nil, err
	}
	raw, err := io.ReadAll(io.LimitReader(d, int64(limit)+1))
	d.Reset(nil)
	if err != nil {
		return nil, err
	}
	if len(raw) > limit {
		return nil, fmt.Errorf("the samples expand past the %d MB their positions can take", limit>>20)
	}
	return raw, nil
}

// decompressSamples rebuilds samples from compressSamples' output, which
// must hold the claimed number of positions of a game with this input
// shape and number of actions. Every count is checked against what the
// data holds before it sizes an allocation.
func decompressSamples(data []byte, shape env.Shape, actions, claimed int) ([]Sample, error) {
	if err := checkClaim(claimed, shape); err != nil {
		return nil, err
	}
	raw, err := decompress(data, min(maxShardBytes, 16+claimed*maxPackedBytes(shape, actions)))
	if err != nil {
		return nil, fmt.Errorf("decompressing: %w", err)
	}
	size := shape.Size()
	var out []Sample
	var inputs []float32
	err = store.DecodeArray(raw, func(n int) error {
		if n != claimed {
			return fmt.Errorf("holds %d positions, and says %d", n, claimed)
		}
		if n > len(raw)/minPackedBytes(shape) {
			return fmt.Errorf("claims %d positions in %d bytes, too few to hold them", n, len(raw))
		}
		out, inputs = make([]Sample, n), make([]float32, n*size)
		return nil
	}, func(d *msgpack.Decoder, i int) error {
		var p packedSample
		if err := d.Decode(&p); err != nil {
			return fmt.Errorf("sample %d: %w", i, err)
		}
		x := inputs[i*size : (i+1)*size : (i+1)*size]
		if err := unpackInput(p.Input, shape, x); err != nil {
			return fmt.Errorf("sample %d: %w", i, err)
		}
		if len(p.Actions) != len(p.Policy) {
			return fmt.Errorf("sample %d: %d actions but %d policy entries", i, len(p.Actions), len(p.Policy))
		}
		out[i] = Sample{State: p.State, Input: x, Actions: p.Actions, Policy: p.Policy, Value: p.Value, Surprise: p.Surprise, Left: p.Left}
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("decoding samples: %w", err)
	}
	return out, nil
}
