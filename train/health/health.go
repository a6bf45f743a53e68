// Package health says whether a run is learning, from its metrics log
// alone: the symptoms the field's users meet when "the game does not
// learn" (self-play that ends at the ply cap or repeats itself, a value
// head that says the same everywhere, a policy that collapsed, strength
// flat while the losses fall), each with what was measured and the
// setting that addresses it. The run's log (at each evaluation), its
// report and the web app's run page show the findings.
package health

import (
	"encoding/json"
	"fmt"
	"math"

	"github.com/sliderzero/sliderzero/train/runfolder"
)

// Finding is one symptom of a run that is not learning.
type Finding struct {
	// Key names the symptom: capped, repeated, draws, value, policy, flat.
	Key string `json:"key"`
	// Problem says what is wrong, Measured what shows it, and Fix which
	// setting addresses it.
	Problem  string `json:"problem"`
	Measured string `json:"measured"`
	Fix      string `json:"fix"`
}

func (f Finding) String() string {
	return fmt.Sprintf("not learning? %s: %s; %s", f.Problem, f.Measured, f.Fix)
}

// Options say what the metrics alone do not.
type Options struct {
	// WDL: the value head is a win/draw/loss softmax, whose loss is a
	// cross-entropy, not comparable with the targets' variance.
	WDL bool
}

// Thresholds of the symptoms, and how many recent rounds they average.
const (
	recentRounds   = 10
	cappedShare    = 0.5  // games the ply cap ends
	repeatShare    = 0.5  // positions that occur more than once in a round
	tieShare       = 0.9  // games that are ties
	valueFlat      = 0.9  // value loss as a share of the targets' variance
	minVariance    = 0.05 // below it the targets are nearly all draws
	collapsed      = 0.05 // policy entropy in nats
	divergedShare  = 0.1  // steps whose loss is not a number
	wrongPolicy    = 1.0  // policy loss with a collapsed policy
	lossFall       = 0.1  // losses' fall that flat strength makes suspect
	accuracyRise   = 0.01 // the least rise of accuracy that is learning
	saturatedScore = 0.95 // a score against every baseline: the ladder says no more
)

// Check reads a run's metrics (every round so far, in order) and returns
// its symptoms, the most basic first.
func Check(ms []runfolder.Metrics, o Options) []Finding {
	if len(ms) == 0 {
		return nil
	}
	recent := ms[max(0, len(ms)-recentRounds):]
	var out []Finding
	if f, ok := capped(recent); ok {
		out = append(out, f)
	} else if f, ok := ties(recent); ok {
		out = append(out, f)
	}
	if f, ok := repeated(recent); ok {
		out = append(out, f)
	}
	evals := evaluations(ms)
	if f, ok := diverged(recent); ok {
		out = append(out, f)
	}
	if f, ok := policy(recent); ok {
		out = append(out, f)
	}
	if f, ok := value(recent, len(evals), o); ok {
		out = append(out, f)
	}
	if f, ok := flat(ms, evals); ok {
		out = append(out, f)
	}
	return out
}

// mean is the mean of f over ms.
func mean(ms []runfolder.Metrics, f func(runfolder.Metrics) float64) float64 {
	s := 0.0
	for _, m := range ms {
		s += f(m)
	}
	return s / float64(len(ms))
}

func capped(recent []runfolder.Metrics) (Finding, bool) {
	share := mean(recent, func(m runfolder.Metrics) float64 { return m.CappedShare })
	return Finding{Key: "capped", Problem: "most self-play games end at the ply cap",
		Measured: fmt.Sprintf("%.0f%% of the last %d rounds' games were ended by the cap, not by the rules", 100*share, len(recent)),
		Fix:      "their values teach the cap's ties, not the game: raise the game's ply cap (game.plycap) so that games end by the rules"}, share >= cappedShare
}

func ties(recent []runfolder.Metrics) (Finding, bool) {
	var t, n int
	for _, m := range recent {
		for k, v := range m.Wins {
			n += v
			if k == "tie" {
				t += v
			}
		}
	}
	share := float64(t) / float64(max(n, 1))
	return Finding{Key: "draws", Problem: "almost every self-play game is a tie",
		Measured: fmt.Sprintf("%.0f%% of the last %d rounds' %d games were ties", 100*share, len(recent), n),
		Fix:      "a value head taught ties everywhere says draw everywhere: open games more widely (search.random_plies, search.random_starts) so that self-play reaches decided positions"}, n > 0 && share >= tieShare
}

func repeated(recent []runfolder.Metrics) (Finding, bool) {
	share := mean(recent, func(m runfolder.Metrics) float64 { return m.RepeatedShare })
	return Finding{Key: "repeated", Problem: "self-play repeats itself",
		Measured: fmt.Sprintf("%.0f%% of the positions of the last %d rounds occur more than once in their round", 100*share, len(recent)),
		Fix:      "the network learns the same few games: add randomness to self-play (search.random_plies, search.temperature_plies, search.noise_frac)"}, share >= repeatShare
}

func diverged(recent []runfolder.Metrics) (Finding, bool) {
	var d int
	var steps int64
	if len(recent) > 1 {
		steps = recent[len(recent)-1].Steps - recent[0].Steps
	}
	for _, m := range recent[1:] {
		d += m.DivergedSteps
	}
	return Finding{Key: "diverged", Problem: "the optimiser diverges",
		Measured: fmt.Sprintf("%d of the last %d optimisation steps gave a loss that is not a number, and were dropped", d, steps),
		Fix:      "the learning rate is far too high: lower it (learning_rate)"}, steps > 0 && float64(d) >= divergedShare*float64(steps)
}

func policy(recent []runfolder.Metrics) (Finding, bool) {
	h := mean(recent, func(m runfolder.Metrics) float64 { return m.Entropy })
	loss := mean(recent, func(m runfolder.Metrics) float64 { return m.PolicyLoss })
	trained := mean(recent, func(m runfolder.Metrics) float64 { return float64(m.Steps) })
	return Finding{Key: "policy", Problem: "the policy collapsed",
		Measured: fmt.Sprintf("its entropy is %.3f nats (one move takes nearly everything) while its loss against the search's targets is %.2f", h, loss),
		Fix:      "the optimiser overshoots: lower the learning rate (learning_rate)"}, trained > 0 && h < collapsed && loss > wrongPolicy
}

func value(recent []runfolder.Metrics, evals int, o Options) (Finding, bool) {
	if o.WDL || evals < 2 {
		return Finding{}, false
	}
	loss := mean(recent, func(m runfolder.Metrics) float64 { return m.ValueLoss })
	v := mean(recent, func(m runfolder.Metrics) float64 { return m.ValueVariance })
	return Finding{Key: "value", Problem: "the value head says the same for every position",
		Measured: fmt.Sprintf("its loss (%.3f) is %.0f%% of the variance of its targets (%.3f): it predicts their mean", loss, 100*loss/v, v),
		Fix:      "it learns nothing from the outcomes: lower the learning rate (learning_rate), or weigh the value loss more (value_weight)"}, v >= minVariance && loss >= valueFlat*v
}

// evaluations are the indexes of the evaluated rounds.
func evaluations(ms []runfolder.Metrics) []int {
	var out []int
	for i, m := range ms {
		if m.Elo != nil || len(m.Accuracy) > 0 {
			out = append(out, i)
		}
	}
	return out
}

// flat finds strength that did not rise over three evaluations or more
// while the losses fell: the network fits its own games without getting
// better at the game. Accuracy against perfect play is the measure where
// the run has it, else the Elo on the ladder, unless the network already
// beats every baseline (the ladder can say no more).
func flat(ms []runfolder.Metrics, evals []int) (Finding, bool) {
	if len(evals) < 3 {
		return Finding{}, false
	}
	first, last := ms[evals[0]], ms[evals[len(evals)-1]]
	l0, l1 := first.PolicyLoss+first.ValueLoss, last.PolicyLoss+last.ValueLoss
	if !(l1 < (1-lossFall)*l0) {
		return Finding{}, false
	}
	fix := "self-play does not reach the positions that matter: widen its openings (search.random_plies, search.random_starts) or search more a move (search.sims)"
	a0, ok0 := accuracy(first)
	a1, ok1 := accuracy(last)
	if ok0 && ok1 {
		return Finding{Key: "flat", Problem: "accuracy is flat while the losses fall",
			Measured: fmt.Sprintf("accuracy against perfect play %.1f%% at the first evaluation and %.1f%% at the %s, while policy and value loss fell from %.2f to %.2f", 100*a0, 100*a1, ordinal(len(evals)), l0, l1),
			Fix:      fix}, a1 < a0+accuracyRise
	}
	if first.Elo == nil || last.Elo == nil || saturated(last) {
		return Finding{}, false
	}
	return Finding{Key: "flat", Problem: "Elo is flat while the losses fall",
		Measured: fmt.Sprintf("Elo %+.0f at the first evaluation and %+.0f at the %s, while policy and value loss fell from %.2f to %.2f", *first.Elo, *last.Elo, ordinal(len(evals)), l0, l1),
		Fix:      fix}, *last.Elo <= *first.Elo
}

// accuracy is an evaluation's share kept, over all its sets' positions.
func accuracy(m runfolder.Metrics) (share float64, ok bool) {
	kept, total := 0, 0
	for _, a := range m.Accuracy {
		kept += a.Kept
		total += a.Total
	}
	if total == 0 {
		return math.NaN(), false
	}
	return float64(kept) / float64(total), true
}

// saturated reports whether the network scored almost everything against
// every baseline.
func saturated(m runfolder.Metrics) bool {
	if len(m.EvalScores) == 0 {
		return false
	}
	for _, s := range m.EvalScores {
		if s < saturatedScore {
			return false
		}
	}
	return true
}

func ordinal(n int) string {
	switch n {
	case 3:
		return "third"
	case 4:
		return "fourth"
	case 5:
		return "fifth"
	}
	return fmt.Sprintf("%dth", n)
}

// OptionsOf reads the options from a run's configuration as its
// config.json holds it (what cannot be read is left at its zero value).
func OptionsOf(config []byte) Options {
	var c struct {
		Net struct {
			WDL bool `json:"wdl"`
		} `json:"net"`
	}
	json.Unmarshal(config, &c)
	return Options{WDL: c.Net.WDL}
}
