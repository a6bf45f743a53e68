package player_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/sliderzero/sliderzero/env"
	"github.com/sliderzero/sliderzero/env/slider"
	"github.com/sliderzero/sliderzero/match"
	"github.com/sliderzero/sliderzero/mcts"
	"github.com/sliderzero/sliderzero/player"
	"github.com/sliderzero/sliderzero/store"
	"github.com/sliderzero/sliderzero/train"
)

func exported(t *testing.T) string {
	t.Helper()
	dir := trainedRun(t)
	out := filepath.Join(t.TempDir(), "slider4.player")
	elo := 123.0
	if _, err := player.Export(filepath.Join(dir, train.CheckpointFile), out, mcts.Params{Sims: 30}, &elo); err != nil {
		t.Fatal(err)
	}
	return out
}

func TestExportAndLoad(t *testing.T) {
	path := exported(t)
	pf, err := player.LoadPlayerFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if pf.Game.Int("size") != 4 || pf.Search.Sims != 30 || pf.Steps == 0 || pf.Games != 16 || pf.Elo == nil || *pf.Elo != 123 {
		t.Errorf("loaded %+v", pf)
	}
	st, _ := os.Stat(path)
	ck, _ := os.Stat(pf.Source)
	if st.Size() >= ck.Size() {
		t.Errorf("player file %d bytes, checkpoint %d: the optimiser state was not dropped", st.Size(), ck.Size())
	}
	g := slider.MustNew(slider.Config{Size: 4})
	for _, spec := range []string{"player:" + path, "player:" + path + ",sims=10", "player:" + path + ",time=2ms,gumbel=true"} {
		p, err := player.New(spec, g, player.Options{Seed: 1})
		if err != nil {
			t.Fatalf("%s: %v", spec, err)
		}
		r, _ := player.New("random", g, player.Options{Seed: 2})
		if _, err := match.Play(context.Background(), g.Start(nil), [2]player.Player{r, p}, match.Options{}); err != nil {
			t.Fatalf("%s: %v", spec, err)
		}
	}
}

func TestPlayerFileRefusals(t *testing.T) {
	path := exported(t)
	dir := filepath.Dir(path)
	data, _ := os.ReadFile(path)
	write := func(name string, b []byte) string {
		p := filepath.Join(dir, name)
		os.WriteFile(p, b, 0o644)
		return p
	}
	flipped := append([]byte(nil), data...)
	flipped[len(flipped)-10] ^= 0xff
	var pf player.PlayerFile
	store.Read(path, player.KindPlayer, player.PlayerFormatVersion, &pf)
	newer := filepath.Join(dir, "newer.player")
	store.Write(newer, player.KindPlayer, player.PlayerFormatVersion+1, &pf)
	cases := map[string]string{
		write("truncated.player", data[:len(data)/2]): "truncated or corrupt",
		write("flipped.player", flipped):              "corrupt",
		write("text.player", []byte("hello")):         "not a sliderzero file",
		newer:                                         fmt.Sprintf("format version %d", player.PlayerFormatVersion+1),
		pf.Source:                                     "not a player",
		filepath.Join(dir, "missing.player"):          "not found",
	}
	for file, want := range cases {
		if _, err := player.LoadPlayerFile(file); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%s: %v, want %q", filepath.Base(file), err, want)
		}
	}
	g5 := slider.MustNew(slider.Config{Size: 5})
	if _, err := player.New("player:"+path, g5, player.Options{}); err == nil || !strings.Contains(err.Error(), "plays slider size=4") {
		t.Errorf("4x4 player on 5x5: %v", err)
	}
	a, err := player.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := a.Move(context.Background(), g5.Start(nil), player.Budget{}); err == nil || !strings.Contains(err.Error(), "not slider size=5") {
		t.Errorf("agent given a 5x5 position: %v", err)
	}
}

func TestAgent(t *testing.T) {
	a, err := player.Open(exported(t))
	if err != nil {
		t.Fatal(err)
	}
	s, err := a.Game().ParseState("H+++/H+B+/HB++/+VVV H")
	if err != nil {
		t.Fatal(err)
	}
	m, err := a.Move(context.Background(), s, player.Budget{Sims: 20})
	if err != nil || !env.IsLegal(s, m) {
		t.Fatalf("move %d, %v", m, err)
	}
	an, err := a.Analyze(context.Background(), s, player.Budget{Sims: 50}, 2)
	if err != nil {
		t.Fatal(err)
	}
	if len(an.Best) != 2 || an.Best[0].Share < an.Best[1].Share || an.Value < -1 || an.Value > 1 {
		t.Errorf("analysis %+v", an)
	}
}

// Player files of format 1 keep their search: its settings were sims,
// time_ms, gumbel and c_puct. The fixture is the 7x7 player as shipped
// until 2026-11-28, when export rewrote it in format 2 with a larger
// default budget.
func TestFormatOnePlayerFilesKeepTheirSearch(t *testing.T) {
	for file, sims := range map[string]int{"slider-7x7-format1.player": 800} {
		pf, err := player.LoadPlayerFile(filepath.Join("testdata", file))
		if err != nil {
			t.Fatal(err)
		}
		if pf.Search.Sims != sims || pf.Search.CPUCT != 1.5 || pf.Search.Gumbel || pf.Search.FPUReduction != 0.2 {
			t.Errorf("%s searches with %+v, want %d simulations of PUCT", file, pf.Search, sims)
		}
	}
}

// A player file whose search would lift the tree's cap past the largest
// is refused when it loads, naming the setting, as the same value in a
// spec is (it once loaded, and its searches grew without bound).
func TestHugeNodeCapInAFileIsRefused(t *testing.T) {
	pf, err := player.LoadPlayerFile("testdata/slider-5x5-ship5.player")
	if err != nil {
		t.Fatal(err)
	}
	pf.Search.MaxNodes = 999_999_999_999
	path := filepath.Join(t.TempDir(), "huge.player")
	if err := store.Write(path, player.KindPlayer, player.PlayerFormatVersion, pf); err != nil {
		t.Fatal(err)
	}
	if _, err := player.LoadPlayerFile(path); err == nil || !strings.Contains(err.Error(), "max_nodes") {
		t.Errorf("a file with max_nodes %d: %v", pf.Search.MaxNodes, err)
	}
}
