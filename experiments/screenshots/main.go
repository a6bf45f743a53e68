// Command screenshots makes the pictures of docs/screenshots from a real
// training run and the shipped players (issue 67): the web app runs in
// this process on the repository's root, and Debian's Chromium, driven by
// chromedp as the browser tests drive it, photographs
//
//   - run.png: the Training runs tab on a real run (ten minutes of the
//     default, checkpoints/auto-slider-auto unless --run says);
//   - play-analysis.png: a Slider 5x5 position of a real game against the
//     shipped 5x5 player, its analysis running and, when the 5x5 table is
//     there, the perfect-play verdict;
//   - move-list.png: the same position with the analysis's other lines
//     kept in the move list;
//   - play-connect4.png: a Connect Four middle game against the shipped
//     player, with the analysis and the perfect-play verdict;
//   - play-hex.png: a Hex 5x5 middle game with its perfect-play verdict;
//   - replay.png: a game of the shipped 5x5 player against
//     alphabeta:depth=4, played here, stepped to its middle.
//
// From the repository's root: bash docs/screenshots/make.sh [RUN], or
//
//	go build -C experiments -o /tmp/screenshots ./screenshots && /tmp/screenshots --run checkpoints/auto-slider-auto
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/sliderzero/sliderzero/env/games"
	"github.com/sliderzero/sliderzero/env/registry"
	"github.com/sliderzero/sliderzero/match"
	"github.com/sliderzero/sliderzero/player"
	"github.com/sliderzero/sliderzero/solver"
	"github.com/sliderzero/sliderzero/train/runfolder"
	"github.com/sliderzero/sliderzero/web"
)

// minRunMinutes is the shortest run worth a picture: the issue's "no
// screenshot of a run under five minutes".
const minRunMinutes = 5

func main() {
	root := flag.String("root", ".", "the repository's root: the web app's root, which holds the run and the players")
	run := flag.String("run", "checkpoints/auto-slider-auto", "the training run to show (a folder under the root with metrics.jsonl)")
	out := flag.String("out", "docs/screenshots", "where the pictures go")
	slider := flag.String("slider-player", "checkpoints/slider-5x5.player", "the Slider 5x5 player file")
	c4 := flag.String("connect4-player", "checkpoints/connect4.player", "the Connect Four player file")
	hexPlayer := flag.String("hex-player", "", "a Hex 5x5 player file (default: checkpoints/hex.player or checkpoints/ship-hex.player if there; else alpha-beta plays and the picture has no analysis)")
	table := flag.String("table", "checkpoints/tables/slider-5x5.table", "the solved Slider 5x5 table for the perfect-play verdict (skipped with a warning if missing)")
	browser := flag.String("chromium", "", "the browser to drive (default: chromium, chromium-browser or google-chrome on the PATH)")
	width := flag.Int("width", 1280, "the window's width")
	height := flag.Int("height", 900, "the window's height")
	flag.Parse()
	o := options{root: *root, run: *run, out: *out, slider: *slider, c4: *c4, hex: *hexPlayer, table: *table,
		browser: *browser, width: *width, height: *height}
	if err := o.make(); err != nil {
		fmt.Fprintln(os.Stderr, "screenshots:", err)
		os.Exit(1)
	}
}

type options struct {
	root, run, out, slider, c4, hex, table, browser string
	width, height                                   int
}

// make makes the pictures.
func (o options) make() error {
	run, err := filepath.Abs(o.run)
	if err != nil {
		return err
	}
	if err := os.Chdir(o.root); err != nil {
		return err
	}
	rel, err := underRoot(run)
	if err != nil {
		return err
	}
	if err := checkRun(rel); err != nil {
		return err
	}
	exe := o.browser
	if exe == "" {
		if exe = findBrowser(); exe == "" {
			return errors.New("no Chromium on the PATH: install Debian's (apt-get install chromium) or name one with --chromium")
		}
	}
	for _, f := range []string{o.slider, o.c4} {
		if _, err := os.Stat(f); err != nil {
			return fmt.Errorf("the shipped player %s is missing: %v", f, err)
		}
	}
	if o.hex == "" {
		for _, f := range []string{"checkpoints/hex.player", "checkpoints/ship-hex.player"} {
			if _, err := os.Stat(f); err == nil {
				o.hex = f
				break
			}
		}
	}
	var tables []registry.Table
	if t, err := solver.ReadTable(o.table); err == nil {
		tables = append(tables, t)
	} else {
		warn("no perfect-play verdict on Slider (%v): make the table with go run ./cmd/sliderzero solve --size 5", err)
	}
	if err := os.MkdirAll(o.out, 0o755); err != nil {
		return err
	}

	ctx, stop := context.WithTimeout(context.Background(), 30*time.Minute)
	defer stop()

	// The games the pictures show, played here by the shipped players.
	say("playing a Slider 5x5 game: %s against alphabeta:depth=4", o.slider)
	sliderSpec := registry.Spec{Name: "slider"}.With("size", "5")
	sliderGame, err := playGame(ctx, sliderSpec, "player:"+o.slider, "alphabeta:depth=4", 1)
	if err != nil {
		return err
	}
	say("  %d plies, %s", len(sliderGame.Moves), result(sliderGame))
	say("playing a Connect Four game: %s against alphabeta:depth=4", o.c4)
	c4Game, err := playGame(ctx, registry.Spec{Name: "connect4"}, "player:"+o.c4, "alphabeta:depth=4", 1)
	if err != nil {
		return err
	}
	say("  %d plies, %s", len(c4Game.Moves), result(c4Game))
	hexA := "alphabeta:depth=4"
	if o.hex != "" {
		hexA = "player:" + o.hex
	}
	// Hex 5x5 games are short (9-19 plies): the first of a few seeds whose
	// game reaches ply 15.
	say("playing a Hex 5x5 game: %s against alphabeta:depth=4", hexA)
	var hexGame match.Record
	for seed := uint64(1); seed <= 10 && len(hexGame.Moves) < 15; seed++ {
		if hexGame, err = playGame(ctx, registry.Spec{Name: "hex"}.With("size", "5"), hexA, "alphabeta:depth=4", seed); err != nil {
			return err
		}
	}
	say("  %d plies, %s", len(hexGame.Moves), result(hexGame))

	// The replay's records file, in a folder of the root (the app reads
	// nothing else), removed at the end.
	recDir := filepath.Join("checkpoints", "screenshots-replay")
	if err := os.MkdirAll(recDir, 0o755); err != nil {
		return err
	}
	defer os.RemoveAll(recDir)
	recPath := filepath.ToSlash(filepath.Join(recDir, "slider-5x5-player-vs-alphabeta.jsonl"))
	if err := writeRecords(recPath, sliderGame); err != nil {
		return err
	}

	srv, err := web.New(web.Config{Root: ".", Tables: tables, Log: slog.New(slog.NewTextHandler(io.Discard, nil))})
	if err != nil {
		return err
	}
	ts := httptest.NewServer(srv)
	defer ts.Close()

	profile, err := os.MkdirTemp("", "sliderzero-screenshots-")
	if err != nil {
		return err
	}
	defer removeProfile(profile)
	opts := append(chromedp.DefaultExecAllocatorOptions[:],
		chromedp.ExecPath(exe), chromedp.NoSandbox, chromedp.DisableGPU, chromedp.WindowSize(o.width, o.height),
		chromedp.Flag("disable-background-networking", true), chromedp.Flag("disable-component-update", true),
		chromedp.Flag("disable-sync", true), chromedp.Flag("disable-quic", true), chromedp.Flag("hide-scrollbars", true),
		chromedp.NoFirstRun, chromedp.UserDataDir(profile))
	actx, cancel := chromedp.NewExecAllocator(ctx, opts...)
	defer cancel()
	bctx, cancel := chromedp.NewContext(actx)
	defer cancel()

	// The browser starts here, under the whole run's context: a shorter
	// one would end it with the first step.
	if err := chromedp.Run(bctx); err != nil {
		return fmt.Errorf("starting %s: %w", exe, err)
	}
	s := &shooter{ctx: bctx, base: ts.URL, out: o.out}
	steps := []struct {
		name string
		do   func() error
	}{
		{"play-analysis.png and move-list.png", func() error {
			return s.slider(sliderGame, "player:"+o.slider, len(tables) > 0)
		}},
		{"play-connect4.png", func() error { return s.connect4(c4Game, "player:"+o.c4) }},
		{"play-hex.png", func() error {
			agent := ""
			if o.hex != "" {
				agent = "player:" + o.hex
			}
			return s.hex(hexGame, agent)
		}},
		{"replay.png", func() error { return s.replay(recPath, sliderGame) }},
		{"run.png", func() error { return s.run(rel) }},
	}
	for _, st := range steps {
		if err := st.do(); err != nil {
			return fmt.Errorf("%s: %w", st.name, err)
		}
	}
	say("done: the pictures are in %s", o.out)
	return nil
}

// underRoot is an absolute path as the app names it: relative to the
// root (the working folder by now), inside it.
func underRoot(abs string) (string, error) {
	wd, err := os.Getwd()
	if err != nil {
		return "", err
	}
	rel, err := filepath.Rel(wd, abs)
	if err != nil || rel == ".." || strings.HasPrefix(rel, "../") {
		return "", fmt.Errorf("the run %s is not under the root %s: the app reads only its root", abs, wd)
	}
	return filepath.ToSlash(rel), nil
}

// checkRun refuses a folder that is not a run, or a run too short to be
// worth a picture.
func checkRun(dir string) error {
	how := "make one with go run ./cmd/sliderzero train (ten minutes, into checkpoints/slider5-DATE) and pass its folder"
	if _, err := os.Stat(filepath.Join(dir, runfolder.MetricsFile)); err != nil {
		return fmt.Errorf("%s is not a training run (no %s): %s", dir, runfolder.MetricsFile, how)
	}
	ms, err := runfolder.ReadMetrics(dir)
	if err != nil {
		return fmt.Errorf("run %s: %w", dir, err)
	}
	if len(ms) == 0 || ms[len(ms)-1].Elapsed < minRunMinutes*60 {
		mins := 0.0
		if len(ms) > 0 {
			mins = ms[len(ms)-1].Elapsed / 60
		}
		return fmt.Errorf("run %s trained %.1f minutes: the pictures show runs of %d minutes or more; %s", dir, mins, minRunMinutes, how)
	}
	return nil
}

func findBrowser() string {
	for _, name := range []string{"chromium", "chromium-browser", "google-chrome", "chrome"} {
		if p, err := exec.LookPath(name); err == nil {
			return p
		}
	}
	return ""
}

// playGame plays one game of a against b, a moving first, on one thread.
func playGame(ctx context.Context, spec registry.Spec, a, b string, seed uint64) (match.Record, error) {
	g, err := games.New(spec)
	if err != nil {
		return match.Record{}, err
	}
	f, err := player.NewFactory()
	if err != nil {
		return match.Record{}, err
	}
	var setups [2]*player.Setup
	for i, text := range []string{a, b} {
		if setups[i], err = f.Read(text, g, player.Options{Threads: 1}); err != nil {
			return match.Record{}, fmt.Errorf("player %s: %w", text, err)
		}
	}
	res, err := match.Series{Spec: spec, A: setups[0], B: setups[1], Games: 1, Seed: seed}.Run(ctx)
	if err != nil {
		return match.Record{}, err
	}
	if len(res.Records) != 1 {
		return match.Record{}, fmt.Errorf("the game between %s and %s was not played", a, b)
	}
	return res.Records[0], nil
}

func result(rec match.Record) string {
	g, err := games.New(rec.Spec)
	if err != nil {
		return "?"
	}
	if r := rec.Result(g); r != "tie" {
		return r + " won (" + string(rec.End) + ")"
	}
	return "a tie (" + string(rec.End) + ")"
}

func writeRecords(path string, rec match.Record) error {
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	if err := match.WriteRecords(f, []match.Record{rec}); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}

// removeProfile removes the browser's profile, with retries: Chromium's
// helpers may write to it for a moment after it exits.
func removeProfile(dir string) {
	for range 20 {
		if os.RemoveAll(dir) == nil {
			return
		}
		time.Sleep(100 * time.Millisecond)
	}
}

func say(format string, args ...any) { fmt.Printf(format+"\n", args...) }

func warn(format string, args ...any) {
	fmt.Fprintf(os.Stderr, "screenshots: warning: "+format+"\n", args...)
}
