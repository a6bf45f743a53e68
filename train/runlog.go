// What a run tells a person: its log lines, the round lines, and the
// phases of work with their progress.

package train

import (
	"encoding/json"
	"fmt"
	"io"
	"slices"
	"strings"
	"time"

	"github.com/sliderzero/sliderzero/train/evaluate"
	"github.com/sliderzero/sliderzero/train/health"
	"github.com/sliderzero/sliderzero/train/runfolder"
)

// runLog is where a run's lines and progress go.
type runLog struct {
	// Progress receives progress reports; nil for none.
	Progress Progress
	// Log receives one line per round and notes; nil for none. Notes made
	// before it is set (Resume's: shards set aside, rounds kept) are held
	// and written at the start of Train.
	Log   io.Writer
	early []note
	// RoundLinesEvery spaces the rounds' log lines: a round is logged when
	// this long has passed since the last one logged (0: every round;
	// thousands a run otherwise; negative: none), and always when it was
	// evaluated or is the last. The metrics log keeps every round.
	RoundLinesEvery time.Duration
	lastRoundLine   time.Time
	// JSON, when set, makes the log a machine's: every round's metrics
	// (the metrics log's line) and every note as {"time", "note"}, one
	// JSON object a line, and no text lines.
	JSON bool
}

// note is a log line's time and text, formatted as the log is when it is
// written: a note made before Log and JSON were set comes out like the
// rest.
type note struct{ time, text string }

func (r *runLog) line(n note) string {
	if !r.JSON {
		return n.time + " " + n.text + "\n"
	}
	b, _ := json.Marshal(struct {
		Time string `json:"time"`
		Note string `json:"note"`
	}{n.time, n.text})
	return string(b) + "\n"
}

// logf writes a log line stamped with the time (UTC).
func (r *runLog) logf(format string, args ...any) {
	n := note{time.Now().UTC().Format("2006-01-02T15:04:05Z"), fmt.Sprintf(format, args...)}
	switch {
	case r.Log != nil:
		r.flushEarly()
		io.WriteString(r.Log, r.line(n))
	case len(r.early) < maxEarlyLines:
		r.early = append(r.early, n)
	}
}

// flushEarly writes the notes made before Log was set.
func (r *runLog) flushEarly() {
	if r.Log == nil {
		return
	}
	for _, n := range r.early {
		io.WriteString(r.Log, r.line(n))
	}
	r.early = nil
}

// logRound writes a round's log lines.
func (r *Run) logRound(m runfolder.Metrics) {
	if r.JSON {
		if b, err := json.Marshal(m); err == nil && r.Log != nil {
			r.flushEarly()
			r.Log.Write(append(b, '\n'))
		}
		return
	}
	if m.DivergedSteps > 0 {
		r.logf("warning: round %d: %d optimisation steps gave a loss that is not a number and were dropped: lower the learning rate (learning_rate)", m.Round, m.DivergedSteps)
	}
	evaluated := m.Elo != nil || len(m.Accuracy) > 0 || m.GateScore != nil
	every := r.RoundLinesEvery
	if !evaluated && !r.Finished() && (every < 0 || every > 0 && time.Since(r.lastRoundLine) < every) {
		return
	}
	r.lastRoundLine = time.Now()
	r.logf("round %d: %d games, %d positions, %d steps, policy loss %.3f, value loss %.3f, entropy %.2f, %.0f sims/s; %s",
		m.Round, m.Games, m.Positions, m.Steps, m.PolicyLoss, m.ValueLoss, m.Entropy, m.SimsPerSec, clock(&r.state, r.cfg))
	if m.Elo != nil {
		r.logf("evaluation: Elo %+.0f [%+.0f, %+.0f] (%.0f s); score against each baseline:", *m.Elo, *m.EloLo, *m.EloHi, m.EvalSecs)
		names := slices.Clone(r.cfg.Eval.Ladder)
		var earlier []string
		for name := range m.EvalScores {
			if !slices.Contains(names, name) {
				earlier = append(earlier, name)
			}
		}
		slices.Sort(earlier)
		for _, name := range append(names, earlier...) {
			if sc, ok := m.EvalScores[name]; ok {
				r.logf("  %-24s %5.1f%%  %s", name, 100*sc, evaluate.SeatsLine(m.EvalSeats[name]))
			}
		}
	}
	for _, a := range m.Accuracy {
		single := ""
		if a.SingleTotal > 0 {
			single = fmt.Sprintf(" (single-move positions %d of %d)", a.SingleKept, a.SingleTotal)
		}
		r.logf("accuracy on %s positions: %.1f%% [%.1f, %.1f] of %d%s; won positions converted: %d of %d", a.Set, 100*a.Share(), 100*a.Lo, 100*a.Hi, a.Total, single, a.Converted, a.Played)
	}
	if m.GateScore != nil {
		r.logf("gating: %.0f%% against the best network (step %d): %v", 100**m.GateScore, m.BestSteps, map[bool]string{true: "replaced it", false: "kept it"}[m.GatePassed])
	}
	if evaluated {
		for _, f := range runHealth(r.folder.dir, r.cfg.Net.WDL) {
			r.logf("warning: %s", f)
		}
	}
}

// runHealth is what the metrics so far of the run in dir say of whether
// it learns (package health), read back from its metrics log.
func runHealth(dir string, wdl bool) []health.Finding {
	ms, err := runfolder.ReadMetrics(dir)
	if err != nil {
		return nil
	}
	return health.Check(ms, health.Options{WDL: wdl})
}

// clock is a run's training time so far and, with a time limit, what is
// left of it: "12.5 of 30 min, 17.5 left".
func clock(ck *Checkpoint, c Config) string {
	done := ck.Elapsed / 60
	if c.Minutes > 0 {
		return fmt.Sprintf("%.1f of %.1f min, %.1f left", done, c.Minutes, max(0, c.Minutes-done))
	}
	return fmt.Sprintf("%.1f min", done)
}

// barSteps is the run bar's resolution: a thousandth of the run.
const barSteps = 1000

// runBar is the one progress bar of a run: its share done by the nearest
// limit, with the round, the clock and the last evaluation beside it.
type runBar struct {
	r     *Run
	shown int    // thousandths of the run drawn so far
	eval  string // the last evaluation's figures, "" before the first
}

func newRunBar(r *Run) *runBar {
	b := &runBar{r: r, shown: int(barSteps * r.cfg.shareDone(&r.state))}
	r.phase("training", "", barSteps)
	r.progress(b.shown, b.note(runfolder.Metrics{Round: r.state.Round, Games: r.state.Games}))
	return b
}

// advance moves the bar to the run's progress after round m.
func (b *runBar) advance(m runfolder.Metrics) {
	if m.Elo != nil || len(m.Accuracy) > 0 {
		var parts []string
		if m.Elo != nil {
			parts = append(parts, fmt.Sprintf("Elo %+.0f", *m.Elo))
		}
		for _, a := range m.Accuracy {
			parts = append(parts, fmt.Sprintf("%.1f%% of %s kept", 100*a.Share(), a.Set))
		}
		b.eval = strings.Join(parts, ", ")
	}
	now := int(barSteps * b.r.cfg.shareDone(&b.r.state))
	b.r.progress(max(0, now-b.shown), b.note(m))
	b.shown = max(b.shown, now)
}

func (b *runBar) note(m runfolder.Metrics) string {
	s := fmt.Sprintf("round %d, %s, %d games", m.Round, clock(&b.r.state, b.r.cfg), m.Games)
	if b.eval != "" {
		s += "; last evaluation: " + b.eval
	}
	return s
}

func (r *runLog) phase(name, unit string, total int) {
	if r.Progress != nil {
		r.Progress.Phase(name, unit, total)
	}
}

func (r *runLog) progress(n int, note string) {
	if r.Progress != nil {
		r.Progress.Add(n, note)
	}
}

func (r *runLog) phaseDone() {
	if r.Progress != nil {
		r.Progress.Done()
	}
}
