package registry

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"sort"
	"strconv"
	"strings"

	"github.com/vmihailenco/msgpack/v5"
	"github.com/vmihailenco/msgpack/v5/msgpcode"
)

// Spec chooses a game and its configuration; run configurations,
// checkpoints, player files, shards and records store it. The settings
// are data, key to value as text, so that a game declares its own
// (Game.Options) and nothing outside its package names them; a setting
// not given is the game's default. A Spec is a value: With returns a
// changed copy and never changes the receiver, so copies may share their
// settings.
type Spec struct {
	Name     string
	settings map[string]string
}

// Text is the value of a setting as given, "" when it is not given.
func (s Spec) Text(key string) string { return s.settings[key] }

// Int is a whole-number setting's value, 0 when it is not given (or is
// not a whole number, which Apply refuses for a whole-number setting).
func (s Spec) Int(key string) int {
	n, err := strconv.Atoi(s.settings[key])
	if err != nil {
		return 0
	}
	return n
}

// With is s with a setting given, or taken away when value is "" (the
// game's default again).
func (s Spec) With(key, value string) Spec {
	out := Spec{Name: s.Name, settings: make(map[string]string, len(s.settings)+1)}
	for k, v := range s.settings {
		out.settings[k] = v
	}
	if value == "" {
		delete(out.settings, key)
	} else {
		out.settings[key] = value
	}
	if len(out.settings) == 0 {
		// One empty spec, whatever it went through: DeepEqual and Equal
		// agree.
		out.settings = nil
	}
	return out
}

// Keys lists the settings given, in order.
func (s Spec) Keys() []string {
	keys := make([]string, 0, len(s.settings))
	for k := range s.settings {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

// Equal reports whether two specs name the same game with the same
// settings given (the same text: Apply writes numbers one way).
func (s Spec) Equal(o Spec) bool {
	if s.Name != o.Name || len(s.settings) != len(o.settings) {
		return false
	}
	for k, v := range s.settings {
		if w, ok := o.settings[k]; !ok || w != v {
			return false
		}
	}
	return true
}

// String writes the spec as the engine's game command takes it: the name,
// then the settings given, in the order files write them (below). A
// number at NoCap or beyond is written "none": it is the engine's "no
// cap".
func (s Spec) String() string {
	out := s.Name
	for _, k := range s.fileOrder() {
		v := s.settings[k]
		if n, whole := wholeNumber(v); whole && n >= NoCap {
			v = "none"
		}
		out += " " + k + "=" + v
	}
	return out
}

// fileOrder lists the settings given in the order files write them.
func (s Spec) fileOrder() []string {
	var keys []string
	for _, l := range legacy {
		if _, ok := s.settings[l.key]; ok {
			keys = append(keys, l.key)
		}
	}
	return append(keys, s.others()...)
}

// legacy are the settings Spec had as fields before settings were data,
// in the order those fields were declared. Files written since keep their
// layout, so that every file written before reads, and a spec of today's
// games is written byte for byte as it was: in msgpack all six, zeros
// included, numbers as numbers; in JSON those given, in this order. A
// setting of another key follows, by key. This is the files' format, not
// a list of settings: any game may declare any key.
var legacy = []struct {
	key    string
	number bool
}{{"size", true}, {"base", true}, {"pawns", true}, {"blocked", false}, {"first", false}, {"plycap", true}}

func isLegacy(key string) bool {
	for _, l := range legacy {
		if l.key == key {
			return true
		}
	}
	return false
}

// legacyNumber reports whether files write a key as one of the old
// fields' numbers, whose 0 reads as not given.
func legacyNumber(key string) bool {
	for _, l := range legacy {
		if l.key == key {
			return l.number
		}
	}
	return false
}

// others are the settings given outside the legacy layout, in order.
func (s Spec) others() []string {
	var keys []string
	for _, k := range s.Keys() {
		if !isLegacy(k) {
			keys = append(keys, k)
		}
	}
	return keys
}

// wholeNumber reads the text of a whole number as Apply writes it; other
// text (" 5", "05", "five") is not one.
func wholeNumber(v string) (int64, bool) {
	n, err := strconv.ParseInt(v, 10, 64)
	return n, err == nil && strconv.FormatInt(n, 10) == v
}

// EncodeMsgpack implements msgpack.CustomEncoder: the legacy layout, then
// the other settings by key, each a number when its text is a whole
// number (decoding turns it back into the same text).
func (s Spec) EncodeMsgpack(e *msgpack.Encoder) error {
	others := s.others()
	if err := e.EncodeMapLen(1 + len(legacy) + len(others)); err != nil {
		return err
	}
	if err := encodeEntry(e, "name", s.Name, false); err != nil {
		return err
	}
	for _, l := range legacy {
		v := s.settings[l.key]
		if l.number && v == "" {
			v = "0"
		}
		if err := encodeEntry(e, l.key, v, l.number); err != nil {
			return err
		}
	}
	for _, k := range others {
		if err := encodeEntry(e, k, s.settings[k], true); err != nil {
			return err
		}
	}
	return nil
}

// encodeEntry writes a key and its value: as a number when number allows
// and the text is a whole number, else as text (a legacy number given as
// other text keeps it rather than losing it).
func encodeEntry(e *msgpack.Encoder, key, v string, number bool) error {
	if err := e.EncodeString(key); err != nil {
		return err
	}
	if n, ok := wholeNumber(v); number && ok {
		return e.EncodeInt(n)
	}
	return e.EncodeString(v)
}

// DecodeMsgpack implements msgpack.CustomDecoder: any key is a setting,
// numbers read as their decimal text, and a legacy key's zero or empty
// text as not given (the fields' zero values meant the default).
func (s *Spec) DecodeMsgpack(d *msgpack.Decoder) error {
	n, err := d.DecodeMapLen()
	if err != nil {
		return err
	}
	out := Spec{}
	for i := 0; i < n; i++ {
		key, err := d.DecodeString()
		if err != nil {
			return err
		}
		// A value is looked at before it is read: a list or a map is
		// refused unread, as the fields' decoding refused it.
		c, err := d.PeekCode()
		if err != nil {
			return err
		}
		var v any
		switch {
		case c == msgpcode.Nil:
			err = d.DecodeNil()
		case msgpcode.IsString(c) || msgpcode.IsBin(c):
			v, err = d.DecodeString()
		case msgpcode.IsFixedNum(c) || c >= msgpcode.Float && c <= msgpcode.Int64:
			v, err = d.DecodeInterfaceLoose()
		default:
			return fmt.Errorf("game %s: want %s", key, want(key))
		}
		if err != nil {
			return err
		}
		var text string
		switch v := v.(type) {
		case nil:
			continue
		case string:
			text = v
		case int64:
			text = strconv.FormatInt(v, 10)
		case uint64:
			text = strconv.FormatUint(v, 10)
		case float64:
			if v != math.Trunc(v) || math.Abs(v) > 1<<53 {
				return fmt.Errorf("game %s %v: want %s", key, v, want(key))
			}
			text = strconv.FormatInt(int64(v), 10)
		default:
			return fmt.Errorf("game %s: want %s, not %T", key, want(key), v)
		}
		if _, isText := v.(string); !isText && strings.EqualFold(key, "name") {
			return fmt.Errorf("game %s %v: want %s", key, v, want(key))
		}
		out.read(key, text)
	}
	*s = out
	return nil
}

// read takes a key and its value's text from a file into s.
func (s *Spec) read(key, text string) {
	key = strings.ToLower(key)
	switch {
	case key == "name":
		s.Name = text
	case isLegacy(key) && text == "0":
	default:
		*s = s.With(key, text)
	}
}

// want is what a key's value must be in a file.
func want(key string) string {
	if strings.EqualFold(key, "name") {
		return "text"
	}
	return "a whole number or text"
}

// MarshalJSON writes the name, then the legacy settings given (a zero is
// not written, as the fields' omitempty did), then the others by key;
// numbers as JSON numbers.
func (s Spec) MarshalJSON() ([]byte, error) {
	var b bytes.Buffer
	b.WriteString(`{"name":`)
	if err := writeJSON(&b, s.Name, false); err != nil {
		return nil, err
	}
	entry := func(key string, number bool) error {
		v := s.settings[key]
		if v == "" || number && isLegacy(key) && v == "0" {
			return nil
		}
		b.WriteByte(',')
		if err := writeJSON(&b, key, false); err != nil {
			return err
		}
		b.WriteByte(':')
		return writeJSON(&b, v, number)
	}
	for _, l := range legacy {
		if err := entry(l.key, l.number); err != nil {
			return nil, err
		}
	}
	for _, k := range s.others() {
		if err := entry(k, true); err != nil {
			return nil, err
		}
	}
	b.WriteByte('}')
	return b.Bytes(), nil
}

// writeJSON writes text as a JSON string, or as a number when number
// allows and it is a whole number.
func writeJSON(b *bytes.Buffer, v string, number bool) error {
	if _, ok := wholeNumber(v); number && ok {
		b.WriteString(v)
		return nil
	}
	q, err := json.Marshal(v)
	b.Write(q)
	return err
}

// UnmarshalJSON reads what MarshalJSON writes and what the fields' JSON
// was: any key is a setting, keys in any case (as the fields' were), a
// setting a whole number or text, null not given.
func (s *Spec) UnmarshalJSON(data []byte) error {
	if string(bytes.TrimSpace(data)) == "null" {
		return nil
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	var m map[string]any
	if err := dec.Decode(&m); err != nil {
		return err
	}
	out := Spec{}
	// In order of key, so that of two keys differing only in case the
	// same one wins each time.
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, key := range keys {
		var text string
		switch v := m[key].(type) {
		case nil:
			continue
		case string:
			text = v
		case json.Number:
			if _, ok := wholeNumber(v.String()); !ok || strings.EqualFold(key, "name") {
				return fmt.Errorf("game %s %s: want %s", key, v, want(key))
			}
			text = v.String()
		default:
			return fmt.Errorf("game %s: want %s", key, want(key))
		}
		out.read(key, text)
	}
	*s = out
	return nil
}
