package games

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/vmihailenco/msgpack/v5"

	"github.com/sliderzero/sliderzero/env/envtest"
	"github.com/sliderzero/sliderzero/env/registry"
)

func init() {
	registry.Register(envtest.SettingsGame("komitest"))
}

// A game's settings are its declaration's, whatever their keys: Apply
// checks them, a spec keeps them through its text and both file formats,
// and the game command builds the game they make.
func TestSettingsOfAGameOfItsOwn(t *testing.T) {
	spec, err := Configure(registry.Spec{Name: "komitest"}, map[string]string{"komi": "03", "variant": "x"})
	if err != nil {
		t.Fatal(err)
	}
	if spec.Int("komi") != 3 || spec.Text("komi") != "3" || spec.Text("variant") != "x" {
		t.Errorf("Apply gave %q", spec)
	}
	// komi=0 is a value of its own, not the default (5).
	zero, err := Configure(registry.Spec{Name: "komitest"}, map[string]string{"komi": "0"})
	if g, _ := New(zero); err != nil || g.Describe() != "komitest komi=0 variant=plain" {
		t.Errorf("komi=0: %v (%v)", g, err)
	}
	for given, want := range map[string]string{
		"komi=11":      "komitest komi=11: want a whole number from 0 to 10",
		"komi=x":       "komitest komi=x: want a whole number from 0 to 10",
		"variant=y":    `komitest: variant "y": want plain or x`,
		"size=4":       "komitest has no setting size (its settings: komi, variant)",
		"komi=-1 a=b":  "komitest has no setting a",
		"variant=x k=": "komitest has no setting k",
	} {
		m := map[string]string{}
		for _, kv := range strings.Fields(given) {
			k, v, _ := strings.Cut(kv, "=")
			m[k] = v
		}
		if _, err := Configure(registry.Spec{Name: "komitest"}, m); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%s: %v, want %q", given, err, want)
		}
	}

	if got := spec.String(); got != "komitest komi=3 variant=x" {
		t.Errorf("String %q", got)
	}
	j, err := json.Marshal(spec)
	if err != nil || string(j) != `{"name":"komitest","komi":3,"variant":"x"}` {
		t.Errorf("JSON %s (%v)", j, err)
	}
	var fromJSON, fromMsgpack registry.Spec
	if err := json.Unmarshal(j, &fromJSON); err != nil || !fromJSON.Equal(spec) {
		t.Errorf("JSON read back as %q (%v)", fromJSON, err)
	}
	m, err := msgpack.Marshal(spec)
	if err != nil {
		t.Fatal(err)
	}
	if err := msgpack.Unmarshal(m, &fromMsgpack); err != nil || !fromMsgpack.Equal(spec) {
		t.Errorf("msgpack read back as %q (%v)", fromMsgpack, err)
	}
	// What arrives whole (the web app's JSON, a configuration) is checked
	// as Apply checks settings given as text.
	if err := CheckSettings(fromJSON); err != nil {
		t.Error(err)
	}
	var wrong registry.Spec
	if err := json.Unmarshal([]byte(`{"name":"komitest","komi":12}`), &wrong); err != nil {
		t.Fatal(err)
	}
	if err := CheckSettings(wrong); err == nil || !strings.Contains(err.Error(), "komi=12") {
		t.Errorf("komi 12 arriving whole: %v", err)
	}
	if err := CheckSettings(registry.Spec{Name: "slider"}.With("komi", "1")); err == nil || !strings.Contains(err.Error(), "slider has no setting komi") {
		t.Errorf("a Slider spec with komi: %v", err)
	}

	g, err := FromLine("komitest komi=3 variant=x")
	if err != nil || g.Describe() != "komitest komi=3 variant=x" {
		t.Errorf("FromLine: %v (%v)", g, err)
	}
	if g, err := FromLine("komitest"); err != nil || g.Describe() != "komitest komi=5 variant=plain" {
		t.Errorf("FromLine with the defaults: %v (%v)", g, err)
	}
	if _, err := FromLine("komitest komi=99"); err == nil || !strings.Contains(err.Error(), "komi=99") {
		t.Errorf("FromLine komi=99: %v", err)
	}
	// Keep drops the settings of other games, and keeps the game's.
	mixed := spec.With("size", "5").With("blocked", "random")
	if kept := Keep(mixed); !kept.Equal(spec) {
		t.Errorf("Keep(%q) = %q", mixed, kept)
	}
}
