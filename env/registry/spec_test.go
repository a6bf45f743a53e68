package registry

import (
	"bytes"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"reflect"
	"strconv"
	"testing"
	"unicode/utf8"

	"github.com/vmihailenco/msgpack/v5"

	"github.com/sliderzero/sliderzero/env"
)

// legacySpec is Spec as it was before settings were data: its files are
// the format Spec must still read, and write for today's games.
type legacySpec struct {
	Name    string `json:"name" msgpack:"name"`
	Size    int    `json:"size,omitempty" msgpack:"size"`
	Base    int    `json:"base,omitempty" msgpack:"base"`
	Pawns   int    `json:"pawns,omitempty" msgpack:"pawns"`
	Blocked string `json:"blocked,omitempty" msgpack:"blocked"`
	First   string `json:"first,omitempty" msgpack:"first"`
	PlyCap  int    `json:"plycap,omitempty" msgpack:"plycap"`
}

// spec is the Spec a legacy one means: its non-zero fields given.
func (l legacySpec) spec() Spec {
	s := Spec{Name: l.Name}
	for _, kv := range []struct {
		key string
		n   int
	}{{"size", l.Size}, {"base", l.Base}, {"pawns", l.Pawns}, {"plycap", l.PlyCap}} {
		if kv.n != 0 {
			s = s.With(kv.key, strconv.Itoa(kv.n))
		}
	}
	return s.With("blocked", l.Blocked).With("first", l.First)
}

// encode is msgpack as the files write it (store.Encode: maps by key).
func encode(t *testing.T, v any) []byte {
	t.Helper()
	var buf bytes.Buffer
	enc := msgpack.NewEncoder(&buf)
	enc.SetSortMapKeys(true)
	if err := enc.Encode(v); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

// Bytes written by the fields' Spec, pinned: they read to the same game
// and are written again byte for byte.
func TestSpecReadsAndWritesTheFieldsFiles(t *testing.T) {
	for _, c := range []struct {
		json, msgpack, str string
	}{
		{`{"name":"slider","size":5,"blocked":"random","first":"random"}`,
			"87a46e616d65a6736c69646572a473697a6505a46261736500a57061776e7300a7626c6f636b6564a672616e646f6da56669727374a672616e646f6da6706c7963617000",
			"slider size=5 blocked=random first=random"},
		{`{"name":"connect4"}`,
			"87a46e616d65a8636f6e6e65637434a473697a6500a46261736500a57061776e7300a7626c6f636b6564a0a56669727374a0a6706c7963617000",
			"connect4"},
		{`{"name":"rlgame","size":6,"base":1,"pawns":4,"plycap":1073741824}`,
			"87a46e616d65a6726c67616d65a473697a6506a46261736501a57061776e7304a7626c6f636b6564a0a56669727374a0a6706c79636170ce40000000",
			"rlgame size=6 base=1 pawns=4 plycap=none"},
		{`{"name":"slider","size":-3,"blocked":"c3,d4","first":"V","plycap":300}`,
			"87a46e616d65a6736c69646572a473697a65fda46261736500a57061776e7300a7626c6f636b6564a563332c6434a56669727374a156a6706c79636170cd012c",
			"slider size=-3 blocked=c3,d4 first=V plycap=300"},
	} {
		var fromJSON, fromMsgpack Spec
		if err := json.Unmarshal([]byte(c.json), &fromJSON); err != nil {
			t.Fatalf("%s: %v", c.json, err)
		}
		raw, _ := hex.DecodeString(c.msgpack)
		if err := msgpack.Unmarshal(raw, &fromMsgpack); err != nil {
			t.Fatalf("%s: %v", c.msgpack, err)
		}
		if !fromJSON.Equal(fromMsgpack) || fromJSON.String() != c.str {
			t.Errorf("%s reads as %q, its msgpack as %q; want %q", c.json, fromJSON, fromMsgpack, c.str)
		}
		if back, _ := json.Marshal(fromJSON); string(back) != c.json {
			t.Errorf("%s written again as %s", c.json, back)
		}
		if back := encode(t, fromMsgpack); hex.EncodeToString(back) != c.msgpack {
			t.Errorf("%s written again as %x", c.msgpack, back)
		}
	}
}

// Every combination of the fields' values: Spec writes what the fields
// wrote, in JSON and msgpack, and reads it back to the same spec.
func TestSpecWritesAsTheFieldsDid(t *testing.T) {
	n := 0
	for _, name := range []string{"slider", "rlgame", ""} {
		for _, size := range []int{0, 4, 255, 1 << 20} {
			for _, bp := range [][2]int{{0, 0}, {2, 10}, {0, 7}} {
				for _, text := range [][2]string{{"", ""}, {"random", "random"}, {"", "H"}, {"c3,d4", ""}, {"<&>", "é"}} {
					for _, plycap := range []int{0, 30, NoCap} {
						old := legacySpec{name, size, bp[0], bp[1], text[0], text[1], plycap}
						s := old.spec()
						n++
						wantJSON, _ := json.Marshal(old)
						gotJSON, err := json.Marshal(s)
						if err != nil || !bytes.Equal(gotJSON, wantJSON) {
							t.Fatalf("%+v: JSON %s (%v), the fields wrote %s", old, gotJSON, err, wantJSON)
						}
						// Indented, as configurations are written.
						wantJSON, _ = json.MarshalIndent(struct{ Game legacySpec }{old}, "", "  ")
						gotJSON, _ = json.MarshalIndent(struct{ Game Spec }{s}, "", "  ")
						if !bytes.Equal(gotJSON, wantJSON) {
							t.Fatalf("%+v: indented JSON\n%s\nthe fields wrote\n%s", old, gotJSON, wantJSON)
						}
						wantMsgpack := encode(t, old)
						if got := encode(t, s); !bytes.Equal(got, wantMsgpack) {
							t.Fatalf("%+v: msgpack %x, the fields wrote %x", old, got, wantMsgpack)
						}
						if got, _ := msgpack.Marshal(s); !bytes.Equal(got, wantMsgpack) {
							t.Fatalf("%+v: msgpack.Marshal %x, the fields wrote %x", old, got, wantMsgpack)
						}
						var fromJSON, fromMsgpack Spec
						if err := json.Unmarshal(wantJSON, &struct{ Game *Spec }{&fromJSON}); err != nil || !fromJSON.Equal(s) {
							t.Fatalf("%s read as %q (%v), want %q", wantJSON, fromJSON, err, s)
						}
						if err := msgpack.Unmarshal(wantMsgpack, &fromMsgpack); err != nil || !fromMsgpack.Equal(s) {
							t.Fatalf("%x read as %q (%v), want %q", wantMsgpack, fromMsgpack, err, s)
						}
					}
				}
			}
		}
	}
	t.Logf("%d specs", n)
}

// A setting of a key the fields did not have is kept through both files:
// after the fields' keys, by key, a whole number as a number (it reads
// back as the same text) and other text as text. Files written so still
// read in a program of the fields, which skips the keys it does not know.
func TestSpecKeepsOtherSettings(t *testing.T) {
	s := Spec{Name: "go"}.With("size", "9").With("komi", "0").With("variant", "x y").With("handicap", "007").With("zones", "12")
	j, err := json.Marshal(s)
	want := `{"name":"go","size":9,"handicap":"007","komi":0,"variant":"x y","zones":12}`
	if err != nil || string(j) != want {
		t.Errorf("JSON %s (%v), want %s", j, err, want)
	}
	var back Spec
	if err := json.Unmarshal(j, &back); err != nil || !back.Equal(s) {
		t.Errorf("JSON read back as %q (%v), want %q", back, err, s)
	}
	m := encode(t, s)
	back = Spec{}
	if err := msgpack.Unmarshal(m, &back); err != nil || !back.Equal(s) {
		t.Errorf("msgpack read back as %q (%v), want %q", back, err, s)
	}
	if again := encode(t, back); !bytes.Equal(again, m) {
		t.Errorf("msgpack written again as %x, first %x", again, m)
	}
	var old legacySpec
	if err := msgpack.Unmarshal(m, &old); err != nil || old.Name != "go" || old.Size != 9 {
		t.Errorf("the fields read %+v (%v)", old, err)
	}
	if got, want := s.String(), "go size=9 handicap=007 komi=0 variant=x y zones=12"; got != want {
		t.Errorf("String %q, want %q", got, want)
	}
	if got := s.Int("zones") + s.Int("komi") + s.Int("variant"); got != 12 {
		t.Errorf("Int: %d", got)
	}
}

// What files may hold but no spec: a setting that is neither a whole
// number nor text, a name that is not text.
func TestSpecRefusesOtherValues(t *testing.T) {
	for _, bad := range []string{`{"name":"slider","size":4.5}`, `{"name":"slider","first":true}`, `{"name":5}`, `{"name":"slider","blocked":["c3"]}`, `[1]`} {
		var s Spec
		if err := json.Unmarshal([]byte(bad), &s); err == nil {
			t.Errorf("%s read as %q", bad, s)
		}
	}
	for _, bad := range []any{map[string]any{"name": "slider", "size": 4.5}, map[string]any{"name": "slider", "first": true}, map[string]any{"name": 5}, map[string]any{"name": "x", "komi": []int{1}}, "slider"} {
		raw, _ := msgpack.Marshal(bad)
		var s Spec
		if err := msgpack.Unmarshal(raw, &s); err == nil {
			t.Errorf("%v read as %q", bad, s)
		}
	}
	// Keys in any case, as the fields' JSON took them; null is not given.
	var s Spec
	if err := json.Unmarshal([]byte(`{"Name":"slider","SIZE":"4","blocked":null}`), &s); err != nil || !s.Equal(Spec{Name: "slider"}.With("size", "4")) {
		t.Errorf("read as %q (%v)", s, err)
	}
}

// With changes a copy only; taking every setting away leaves the spec of
// no settings, equal to the zero one in every sense.
func TestSpecWithCopies(t *testing.T) {
	a := Spec{Name: "x"}.With("k", "1")
	b := a.With("k", "2").With("j", "3")
	if a.Text("k") != "1" || a.Text("j") != "" || b.Text("k") != "2" || fmt.Sprint(b.Keys()) != "[j k]" {
		t.Errorf("a %q, b %q", a, b)
	}
	empty := b.With("k", "").With("j", "").With("none", "")
	if !empty.Equal(Spec{Name: "x"}) || !reflect.DeepEqual(empty, Spec{Name: "x"}) || a.Equal(b) {
		t.Errorf("%#v", empty)
	}
}

// Whatever a file holds, a spec read from it writes and reads back as
// itself, in either format.
func FuzzSpecFiles(f *testing.F) {
	f.Add([]byte(`{"name":"slider","size":5,"blocked":"random","first":"random"}`), false)
	f.Add([]byte(`{"name":"go","komi":0,"variant":"x y","SIZE":"07"}`), false)
	raw, _ := hex.DecodeString("87a46e616d65a6736c69646572a473697a6505a46261736500a57061776e7300a7626c6f636b6564a672616e646f6da56669727374a672616e646f6da6706c7963617000")
	f.Add(raw, true)
	f.Fuzz(func(t *testing.T, data []byte, isMsgpack bool) {
		var s Spec
		if isMsgpack {
			if msgpack.Unmarshal(data, &s) != nil {
				return
			}
		} else if json.Unmarshal(data, &s) != nil {
			return
		}
		j, err := json.Marshal(s)
		if err != nil {
			t.Fatal(err)
		}
		var fromJSON, fromMsgpack Spec
		// JSON has text in UTF-8 only (it writes other bytes as U+FFFD).
		valid := utf8.ValidString(s.Name)
		for _, k := range s.Keys() {
			valid = valid && utf8.ValidString(k) && utf8.ValidString(s.Text(k))
		}
		if err := json.Unmarshal(j, &fromJSON); err != nil || valid && !fromJSON.Equal(s) {
			t.Fatalf("%q: JSON %s read back as %q (%v)", s, j, fromJSON, err)
		}
		m, err := msgpack.Marshal(s)
		if err != nil {
			t.Fatal(err)
		}
		if err := msgpack.Unmarshal(m, &fromMsgpack); err != nil || !fromMsgpack.Equal(s) {
			t.Fatalf("%q: msgpack %x read back as %q (%v)", s, m, fromMsgpack, err)
		}
	})
}

// A setting Register refuses: badly named, twice, an empty range, or 0 in
// the range of a key files read 0 of as not given.
func TestRegisterRefusesBadSettings(t *testing.T) {
	newGame := func(Spec) (env.Game, error) { return nil, nil }
	for i, opts := range [][]Option{
		{{Key: "name"}}, {{Key: "game"}}, {{Key: "Komi"}}, {{Key: "ko mi"}}, {{Key: ""}},
		{{Key: "komi"}, {Key: "komi", Max: 3}},
		{{Key: "komi", Min: 4, Max: 3}},
		{{Key: "size", Min: 0, Max: 9}},
	} {
		func() {
			defer func() {
				if recover() == nil {
					t.Errorf("%+v registered", opts)
				}
			}()
			Register(Game{Name: fmt.Sprintf("badsettings%d", i), Options: opts, New: newGame})
		}()
	}
	Register(Game{Name: "goodsettings", Options: []Option{{Key: "komi", Min: 0, Max: 9}, {Key: "size", Min: 1, Max: 9}, {Key: "rule-set"}}, New: newGame})
}
