// Package report turns a training run's metrics log into plots and a
// Markdown summary that a person can read at a glance.
package report

import (
	"bytes"
	"fmt"
	"image/color"
	"math"
	"os"
	"path/filepath"
	"runtime"
	"sort"
	"strconv"
	"strings"
	"time"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
	"gonum.org/v1/plot/vg/vgimg"

	"github.com/sliderzero/sliderzero/store"
	"github.com/sliderzero/sliderzero/train"
	"github.com/sliderzero/sliderzero/train/evaluate"
	"github.com/sliderzero/sliderzero/train/health"
	"github.com/sliderzero/sliderzero/train/runfolder"
)

var palette = []color.Color{
	color.RGBA{31, 119, 180, 255}, color.RGBA{255, 127, 14, 255}, color.RGBA{44, 160, 44, 255},
	color.RGBA{214, 39, 40, 255}, color.RGBA{148, 103, 189, 255}, color.RGBA{140, 86, 75, 255},
}

type series struct {
	name string
	xy   plotter.XYs
	errs plotter.YErrors // optional
}

// niceStep is a round step (1, 2 or 5 times a power of ten) for about n
// ticks over [min, max].
func niceStep(min, max float64, n int) float64 {
	raw := (max - min) / float64(n)
	if !(raw > 0) {
		return 1
	}
	p := math.Pow(10, math.Floor(math.Log10(raw)))
	for _, m := range []float64{1, 2, 5, 10} {
		if m*p >= raw {
			return m * p
		}
	}
	return 10 * p
}

// roundTicks are ticks at round values (niceStep, about four over the
// axis), labelled as short as they are: 1000, not 1000.00. chart widens
// each axis to the ticks' ends (roundAxis).
type roundTicks struct{}

func (roundTicks) Ticks(min, max float64) []plot.Tick {
	// The finest round step that gives at most six intervals: on an axis
	// roundAxis widened, its ends are ticks.
	step := niceStep(min, max, 6)
	var ts []plot.Tick
	for v := math.Ceil(min/step-1e-9) * step; v <= max+step*1e-9; v += step {
		r := math.Round(v/step) * step
		ts = append(ts, plot.Tick{Value: r, Label: strconv.FormatFloat(math.Round(r*1e9)/1e9+0, 'f', -1, 64)})
	}
	return ts
}

// roundAxis widens an axis to the round values about its data (a point
// a hair past one, such as a run's 10.002nd minute, stays on it).
func roundAxis(a *plot.Axis) {
	step := niceStep(a.Min, a.Max, 4)
	a.Min, a.Max = math.Floor(a.Min/step+0.01)*step, math.Ceil(a.Max/step-0.01)*step
}

// chart draws series as lines with points and writes a PNG atomically.
// The legend goes in a strip below the plot, where it covers no curve.
func chart(path, title, xlabel, ylabel string, ss []series) error {
	p := plot.New()
	p.Title.Text = title
	p.X.Label.Text = xlabel
	p.Y.Label.Text = ylabel
	p.X.Tick.Marker, p.Y.Tick.Marker = roundTicks{}, roundTicks{}
	p.X.Min = 0 // the run's time, or its games, from its start
	p.Add(plotter.NewGrid())
	legend := plot.NewLegend()
	legend.Top, legend.Left = true, true
	legend.XOffs = vg.Points(40)
	drawn, named := 0, 0
	banded := false
	for i, s := range ss {
		if len(s.xy) == 0 {
			continue
		}
		c := palette[i%len(palette)]
		if s.errs != nil && len(s.errs) == len(s.xy) {
			// The 95% interval as a shaded band about the line.
			band := make(plotter.XYs, 0, 2*len(s.xy))
			for k, xy := range s.xy {
				band = append(band, plotter.XY{X: xy.X, Y: xy.Y - s.errs[k].Low})
			}
			for k := len(s.xy) - 1; k >= 0; k-- {
				band = append(band, plotter.XY{X: s.xy[k].X, Y: s.xy[k].Y + s.errs[k].High})
			}
			poly, err := plotter.NewPolygon(band)
			if err != nil {
				return err
			}
			r, g, b, _ := c.RGBA()
			poly.Color = color.NRGBA{uint8(r >> 8), uint8(g >> 8), uint8(b >> 8), 60}
			poly.LineStyle.Color = color.Transparent
			p.Add(poly)
			if !banded {
				legend.Add("95% interval", poly)
				named++
				banded = true
			}
		}
		l, pts, err := plotter.NewLinePoints(s.xy)
		if err != nil {
			return err
		}
		l.Color, pts.Color = c, c
		pts.Radius = vg.Points(2)
		p.Add(l, pts)
		if s.name != "" {
			legend.Add(s.name, l)
			named++
		}
		drawn++
	}
	if drawn == 0 {
		return nil
	}
	roundAxis(&p.X)
	roundAxis(&p.Y)
	width, height := 7*vg.Inch, 4*vg.Inch
	var strip vg.Length
	if named > 0 {
		strip = vg.Length(named)*legend.TextStyle.Rectangle("M").Size().Y*1.25 + vg.Points(8)
	}
	img := vgimg.New(width, height+strip)
	dc := draw.New(img)
	p.Draw(draw.Crop(dc, 0, 0, strip, 0))
	if named > 0 {
		legend.Draw(draw.Crop(dc, 0, 0, 0, -height))
	}
	var buf bytes.Buffer
	if _, err := (vgimg.PngCanvas{Canvas: img}).WriteTo(&buf); err != nil {
		return err
	}
	return store.WriteAtomic(path, buf.Bytes())
}

// Write makes the plots and report.md in the run's folder and returns the
// report's path.
func Write(dir string) (string, error) {
	ms, err := runfolder.ReadMetrics(dir)
	if err != nil {
		return "", err
	}
	if len(ms) == 0 {
		return "", fmt.Errorf("%s has no metrics yet: train first", dir)
	}
	cfgData, err := store.ReadFile(filepath.Join(dir, runfolder.ConfigFile), 1<<20)
	if err != nil {
		return "", err
	}
	// The value loss is a squared error, or a three-way head's
	// cross-entropy (net.wdl).
	valueLoss := "value (squared error)"
	if cfg, err := train.ParseConfig(cfgData, runfolder.ConfigFile); err == nil && cfg.Net.WDL {
		valueLoss = "value (cross-entropy)"
	}
	var pol, val, ent, sims, gps plotter.XYs
	var eloT, eloG plotter.XYs
	var eloErr plotter.YErrors
	perBase := map[string]plotter.XYs{}
	perSide := map[string]plotter.XYs{}
	accuracy := map[string]*series{}
	conversion := map[string]plotter.XYs{}
	var accSets []string
	for _, m := range ms {
		total := 0
		for _, n := range m.Wins {
			total += n
		}
		for side, n := range m.Wins {
			perSide[side] = append(perSide[side], plotter.XY{X: m.Elapsed / 60, Y: 100 * float64(n) / float64(max(total, 1))})
		}
		min := m.Elapsed / 60
		if m.PolicyLoss != 0 || m.ValueLoss != 0 {
			pol = append(pol, plotter.XY{X: float64(m.Steps), Y: m.PolicyLoss})
			val = append(val, plotter.XY{X: float64(m.Steps), Y: m.ValueLoss})
			ent = append(ent, plotter.XY{X: float64(m.Steps), Y: m.Entropy})
		}
		sims = append(sims, plotter.XY{X: min, Y: m.SimsPerSec / 1000})
		gps = append(gps, plotter.XY{X: min, Y: m.GamesPerSec})
		if m.Elo != nil {
			eloT = append(eloT, plotter.XY{X: min, Y: *m.Elo})
			eloG = append(eloG, plotter.XY{X: float64(m.Games), Y: *m.Elo})
			eloErr = append(eloErr, eloError(m))
		}
		for _, a := range m.Accuracy {
			s, ok := accuracy[a.Set]
			if !ok {
				s = &series{name: a.Set + " positions", errs: plotter.YErrors{}}
				accuracy[a.Set] = s
				accSets = append(accSets, a.Set)
			}
			share := 100 * a.Share()
			s.xy = append(s.xy, plotter.XY{X: min, Y: share})
			s.errs = append(s.errs, struct{ Low, High float64 }{share - 100*a.Lo, 100*a.Hi - share})
			if a.Played > 0 {
				conversion[a.Set+" positions"] = append(conversion[a.Set+" positions"], plotter.XY{X: min, Y: 100 * float64(a.Converted) / float64(a.Played)})
			}
		}
		for base, s := range m.EvalScores {
			perBase[base] = append(perBase[base], plotter.XY{X: min, Y: 100 * s})
		}
	}
	charts := []struct {
		file, title, x, y string
		ss                []series
	}{
		{"losses.png", "Training losses", "optimisation steps", "loss", []series{{"policy (cross-entropy)", pol, nil}, {valueLoss, val, nil}}},
		{"entropy.png", "Policy entropy", "optimisation steps", "nats", []series{{"", ent, nil}}},
		{"elo_time.png", "Elo against the ladder (random = 0)", "training minutes", "Elo", []series{{"", eloT, eloErr}}},
		{"elo_games.png", "Elo against the ladder (random = 0)", "self-play games", "Elo", []series{{"", eloG, eloErr}}},
		{"speed.png", "Self-play speed", "training minutes", "thousands of simulations/s, games/s", []series{{"simulations/s (thousands)", sims, nil}, {"games/s", gps, nil}}},
	}
	var accSeries []series
	for _, set := range accSets {
		accSeries = append(accSeries, *accuracy[set])
	}
	charts = append(charts, struct {
		file, title, x, y string
		ss                []series
	}{"accuracy.png", "Accuracy against perfect play (critical positions kept)", "training minutes", "positions kept (%)", accSeries},
		struct {
			file, title, x, y string
			ss                []series
		}{"conversion.png", "Won positions played out to a win against perfect defence", "training minutes", "converted (%)", byName(conversion)})
	winSeries, sideSeries := byName(perBase), byName(perSide)
	charts = append(charts, struct {
		file, title, x, y string
		ss                []series
	}{"winrate.png", "Score against each baseline", "training minutes", "score (%)", winSeries},
		struct {
			file, title, x, y string
			ss                []series
		}{"selfplay_wins.png", "Self-play results by side (per round)", "training minutes", "share of games (%)", sideSeries})
	var made []string
	for _, c := range charts {
		if err := chart(filepath.Join(dir, c.file), c.title, c.x, c.y, c.ss); err != nil {
			return "", fmt.Errorf("%s: %w", c.file, err)
		}
		if _, err := os.Stat(filepath.Join(dir, c.file)); err == nil {
			made = append(made, c.file)
		}
	}
	path := filepath.Join(dir, "report.md")
	return path, store.WriteAtomic(path, []byte(markdown(dir, ms, cfgData, made)))
}

// Health is what a run's metrics say of whether it learns (package
// health).
func Health(dir string) ([]health.Finding, error) {
	ms, err := runfolder.ReadMetrics(dir)
	if err != nil {
		return nil, err
	}
	cfg, _ := store.ReadFile(filepath.Join(dir, runfolder.ConfigFile), 1<<20)
	return health.Check(ms, health.OptionsOf(cfg)), nil
}

func markdown(dir string, ms []runfolder.Metrics, cfg []byte, images []string) string {
	last := ms[len(ms)-1]
	var b strings.Builder
	fmt.Fprintf(&b, "# Training report: %s\n\n", filepath.Base(dir))
	fmt.Fprintf(&b, "Written %s by `sliderzero report --run %s`.\n\n", time.Now().UTC().Format("2006-01-02 15:04 UTC"), dir)
	b.WriteString("## Totals\n\n| | |\n|---|---|\n")
	fmt.Fprintf(&b, "| training time | %.1f minutes |\n", last.Elapsed/60)
	fmt.Fprintf(&b, "| rounds | %d |\n| self-play games | %d |\n| positions | %d |\n| optimisation steps | %d |\n",
		last.Round, last.Games, last.Positions, last.Steps)
	fmt.Fprintf(&b, "| last policy loss / value loss / entropy | %.3f / %.3f / %.2f |\n", last.PolicyLoss, last.ValueLoss, last.Entropy)
	var simSum, n float64
	for _, m := range ms {
		simSum += m.SimsPerSec
		n++
	}
	fmt.Fprintf(&b, "| mean self-play speed | %.0f simulations/s |\n\n", simSum/n)
	b.WriteString("## Is it learning?\n\n")
	findings := health.Check(ms, health.OptionsOf(cfg))
	if len(findings) == 0 {
		b.WriteString("No sign of a stall: self-play ends by the rules and varies, the value and policy heads learn, and strength does not stand still while the losses fall (docs/health.md).\n\n")
	}
	for _, f := range findings {
		fmt.Fprintf(&b, "- **%s**: %s. %s.\n", f.Problem, f.Measured, capitalise(f.Fix))
	}
	if len(findings) > 0 {
		b.WriteString("\n")
	}
	for i := len(ms) - 1; i >= 0; i-- {
		m := ms[i]
		if m.Elo == nil {
			continue
		}
		fmt.Fprintf(&b, "## Last evaluation (after %.1f minutes, %d games)\n\n", m.Elapsed/60, m.Games)
		e := eloError(m)
		fmt.Fprintf(&b, "Elo %+.0f, 95%% interval [%+.0f, %+.0f], fitted over the games against the ladder (random = 0).\n\n", *m.Elo, *m.Elo-e.Low, *m.Elo+e.High)
		b.WriteString("| baseline | score | by side (wins-losses, mean plies) |\n|---|---|---|\n")
		var bases []string
		for base := range m.EvalScores {
			bases = append(bases, base)
		}
		sort.Strings(bases)
		for _, base := range bases {
			fmt.Fprintf(&b, "| %s | %.0f%% | %s |\n", base, 100*m.EvalScores[base], evaluate.SeatsLine(m.EvalSeats[base]))
		}
		b.WriteString("\n")
		if len(m.Accuracy) > 0 {
			b.WriteString("Accuracy against perfect play: the share of critical positions (where some move gives the exact value away) on which the network's move kept it.\n\n")
			b.WriteString("| positions | all | won | drawn | single move | won positions converted |\n|---|---|---|---|---|---|\n")
			for _, a := range m.Accuracy {
				fmt.Fprintf(&b, "| %s | %.1f%% [%.1f, %.1f] of %d | %s | %s | %s | %s |\n", a.Set, 100*a.Share(), 100*a.Lo, 100*a.Hi, a.Total,
					percentOf(a.WonKept, a.WonTotal), percentOf(a.DrawnKept, a.DrawnTotal), percentOf(a.SingleKept, a.SingleTotal), percentOf(a.Converted, a.Played))
			}
			b.WriteString("\n")
		}
		break
	}
	b.WriteString("## Plots\n\n")
	for _, img := range images {
		fmt.Fprintf(&b, "![%s](%s)\n\n", strings.TrimSuffix(img, ".png"), img)
	}
	b.WriteString("## Machine\n\n")
	fmt.Fprintf(&b, "%s/%s, %d cores (%s), %s.\n\n", runtime.GOOS, runtime.GOARCH, runtime.NumCPU(), cpuModel(), runtime.Version())
	b.WriteString("## Configuration\n\n```json\n")
	b.Write(bytes.TrimSpace(cfg))
	b.WriteString("\n```\n")
	return b.String()
}

// capitalise is s with its first letter in capitals.
func capitalise(s string) string {
	if s == "" {
		return s
	}
	return strings.ToUpper(s[:1]) + s[1:]
}

func cpuModel() string {
	data, err := os.ReadFile("/proc/cpuinfo")
	if err != nil {
		return "unknown CPU"
	}
	for _, l := range strings.Split(string(data), "\n") {
		if strings.HasPrefix(l, "model name") {
			if _, v, ok := strings.Cut(l, ":"); ok {
				return strings.TrimSpace(v)
			}
		}
	}
	return "unknown CPU"
}

// Compare draws several runs' curves on shared charts in the folder out:
// Elo against training time (compare-elo.png) and, where the runs
// measured it, accuracy against perfect play on each position set
// (compare-accuracy-SET.png). It returns the files written.
func Compare(dirs []string, out string) ([]string, error) {
	var elo []series
	acc := map[string][]series{}
	var sets []string
	for _, dir := range dirs {
		ms, err := runfolder.ReadMetrics(dir)
		if err != nil {
			return nil, err
		}
		name := filepath.Base(dir)
		e := series{name: name}
		perSet := map[string]*series{}
		for _, m := range ms {
			if m.Elo != nil {
				e.xy = append(e.xy, plotter.XY{X: m.Elapsed / 60, Y: *m.Elo})
				e.errs = append(e.errs, eloError(m))
			}
			for _, a := range m.Accuracy {
				s, ok := perSet[a.Set]
				if !ok {
					s = &series{name: name, errs: plotter.YErrors{}}
					perSet[a.Set] = s
				}
				share := 100 * a.Share()
				s.xy = append(s.xy, plotter.XY{X: m.Elapsed / 60, Y: share})
				s.errs = append(s.errs, struct{ Low, High float64 }{share - 100*a.Lo, 100*a.Hi - share})
			}
		}
		if len(e.xy) == 0 && len(perSet) == 0 {
			return nil, fmt.Errorf("%s has no evaluations in its metrics", dir)
		}
		elo = append(elo, e)
		for set, s := range perSet {
			if _, ok := acc[set]; !ok {
				sets = append(sets, set)
			}
			acc[set] = append(acc[set], *s)
		}
	}
	if err := os.MkdirAll(out, 0o755); err != nil {
		return nil, err
	}
	var written []string
	path := filepath.Join(out, "compare-elo.png")
	if err := chart(path, "Elo against the ladder (random = 0)", "training minutes", "Elo", elo); err != nil {
		return nil, err
	}
	if _, err := os.Stat(path); err == nil {
		written = append(written, path)
	}
	for _, set := range sets {
		path := filepath.Join(out, "compare-accuracy-"+set+".png")
		if err := chart(path, "Accuracy against perfect play: "+set+" positions", "training minutes", "positions kept (%)", acc[set]); err != nil {
			return nil, err
		}
		written = append(written, path)
	}
	return written, nil
}

// byName turns named point sets into series in the names' order.
func byName(m map[string]plotter.XYs) []series {
	names := make([]string, 0, len(m))
	for name := range m {
		names = append(names, name)
	}
	sort.Strings(names)
	out := make([]series, 0, len(names))
	for _, name := range names {
		out = append(out, series{name, m[name], nil})
	}
	return out
}

// eloError is the distance from an evaluation's Elo to the ends of its
// interval; a line without an interval (written by hand, or cut) has none.
func eloError(m runfolder.Metrics) struct{ Low, High float64 } {
	var e struct{ Low, High float64 }
	if m.Elo == nil {
		return e
	}
	if m.EloLo != nil && !math.IsInf(*m.EloLo, 0) {
		e.Low = *m.Elo - *m.EloLo
	}
	if m.EloHi != nil && !math.IsInf(*m.EloHi, 0) {
		e.High = *m.EloHi - *m.Elo
	}
	return e
}

func percentOf(k, n int) string {
	if n == 0 {
		return "-"
	}
	return fmt.Sprintf("%.1f%% of %d", 100*float64(k)/float64(n), n)
}
