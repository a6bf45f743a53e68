package games

import (
	"fmt"
	"strings"
	"testing"

	"github.com/sliderzero/sliderzero/env"
	"github.com/sliderzero/sliderzero/env/registry"
)

// A game's Describe line is its name and settings as key=value: read back
// through the one settings check (the engine's game command), it builds
// the same game. Every registered game, with settings given and not.
func TestDescribeIsTheGameCommand(t *testing.T) {
	specs := []registry.Spec{registry.Spec{Name: "rlgame"}.With("size", "6").With("base", "1").With("pawns", "4"), registry.Spec{Name: "slider"}.With("size", "4").With("blocked", "b2").With("first", "V").With("plycap", "30")}
	for _, name := range registry.Names() {
		specs = append(specs, registry.Spec{Name: name})
	}
	for _, spec := range specs {
		g, err := New(spec)
		if err != nil {
			t.Fatal(err)
		}
		f := strings.Fields(g.Describe())
		if f[0] != g.Name() {
			t.Errorf("%s: Describe %q does not start with the name", spec, g.Describe())
			continue
		}
		given := map[string]string{}
		for _, kv := range f[1:] {
			k, v, ok := strings.Cut(kv, "=")
			if !ok {
				t.Errorf("%s: %q in Describe is not key=value", spec, kv)
			}
			given[k] = v
		}
		back, err := Configure(registry.Spec{Name: f[0]}, given)
		if err != nil {
			t.Errorf("%s: Describe %q read back: %v", spec, g.Describe(), err)
			continue
		}
		g2, err := New(back)
		if err != nil || g2.Describe() != g.Describe() {
			t.Errorf("%s: Describe %q builds %v (%v)", spec, g.Describe(), g2, err)
		}
	}
}

// Every game's Describe line builds the same game again.
func TestFromLineRebuildsDescribe(t *testing.T) {
	for _, name := range registry.Names() {
		g, err := New(registry.Spec{Name: name})
		if err != nil {
			t.Fatal(err)
		}
		back, err := FromLine(g.Describe())
		if err != nil || back.Describe() != g.Describe() {
			t.Errorf("%s: %q built %v (%v)", name, g.Describe(), back, err)
		}
	}
	for _, bad := range []string{"", "chess", "slider size", "slider size=99", "connect4 size=5"} {
		if _, err := FromLine(bad); err == nil {
			t.Errorf("%q: no error", bad)
		}
	}
}

func TestSameRules(t *testing.T) {
	build := func(line string) env.Game {
		t.Helper()
		g, err := FromLine(line)
		if err != nil {
			t.Fatal(err)
		}
		return g
	}
	for _, c := range []struct {
		a, b string
		same bool
	}{
		{"catsdogs", "catsdogs features=1", true},
		{"connect4 features=1", "connect4", true},
		{"catsdogs features=1", "catsdogs features=1 plycap=100", false},
		{"slider size=5", "slider size=6", false},
		{"slider size=5", "slider size=5", true},
		{"connect4", "catsdogs", false},
	} {
		ga, gb := build(c.a), build(c.b)
		if got := SameRules(ga, gb); got != c.same {
			t.Errorf("SameRules(%s, %s) = %v, want %v", c.a, c.b, got, c.same)
		}
		ra, rb := RulesLine(ga.Describe()), RulesLine(gb.Describe())
		if got := ra == rb; got != c.same {
			t.Errorf("RulesLine: %q and %q equal %v, want %v", ra, rb, got, c.same)
		}
	}
	for line, want := range map[string]string{
		"connect4 features=1":            "connect4",
		"catsdogs features=1 plycap=100": "catsdogs plycap=100",
		"slider size=6 blocked=c3":       "slider size=6 blocked=c3",
		"chess features=1":               "chess features=1",
		"":                               "",
	} {
		if got := RulesLine(line); got != want {
			t.Errorf("RulesLine(%q) = %q, want %q", line, got, want)
		}
	}
}

// The training spec is one rule for every game: the settings a player
// does not learn drawn at random where the game can, those of the input
// alone at their most, the rest the game's defaults.
func TestTrainingSpecByRule(t *testing.T) {
	for name, want := range map[string]string{
		"slider":   "slider size=5 blocked=random first=random",
		"connect4": "connect4 features=1",
		"catsdogs": "catsdogs features=1",
		"rlgame":   "rlgame size=8 base=2 pawns=10",
	} {
		if got := Training(name).String(); got != want {
			t.Errorf("%s trains on %q, want %q", name, got, want)
		}
	}
	if got := DefaultTraining(); got.Name != registry.Default() {
		t.Errorf("the default training game is %s", got)
	}
}

// A game without a ply cap is described as such for people, not with the
// cap's number (the engine's errors once showed plycap=1073741824).
func TestDescribeSaysNoCap(t *testing.T) {
	g, err := New(registry.Spec{Name: "slider"}.With("size", "6").With(registry.PlyCapKey, fmt.Sprint(registry.NoCap)))
	if err != nil {
		t.Fatal(err)
	}
	if got := Describe(g); strings.Contains(got, "1073741824") || !strings.Contains(got, "(no ply cap)") {
		t.Errorf("described as %q", got)
	}
	capped, _ := New(registry.Spec{Name: "slider"}.With("size", "6"))
	if got := Describe(capped); got != capped.Describe() {
		t.Errorf("a capped game described as %q, not %q", got, capped.Describe())
	}
}
