package health

import (
	"strings"
	"testing"

	"github.com/sliderzero/sliderzero/train/evaluate"
	"github.com/sliderzero/sliderzero/train/runfolder"
)

// run makes n rounds of a healthy run, every fifth one evaluated with
// accuracy rising from 80% and Elo from 100, losses falling, games ended
// by the rules and varied, the value head learning.
func run(n int) []runfolder.Metrics {
	var ms []runfolder.Metrics
	for i := 1; i <= n; i++ {
		m := runfolder.Metrics{Round: i, Steps: int64(100 * i), PolicyLoss: 2 - 0.02*float64(i), ValueLoss: 0.3 - 0.002*float64(i),
			Entropy: 1.5, ValueVariance: 0.6, CappedShare: 0.05, RepeatedShare: 0.1, Wins: map[string]int{"X": 30, "O": 30, "tie": 4}}
		if i%5 == 0 {
			elo := 100 + 20*float64(i)
			m.Elo = &elo
			m.EvalScores = map[string]float64{"random": 1, "alphabeta": 0.4}
			m.Accuracy = []evaluate.Accuracy{{Set: "real-games", Kept: 800 + 5*i, Total: 1000}}
		}
		ms = append(ms, m)
	}
	return ms
}

func keys(fs []Finding) string {
	var k []string
	for _, f := range fs {
		k = append(k, f.Key)
	}
	return strings.Join(k, ",")
}

func TestAHealthyRunIsNotFlagged(t *testing.T) {
	if fs := Check(run(30), Options{}); len(fs) != 0 {
		t.Errorf("a healthy run flagged: %v", fs)
	}
	if fs := Check(nil, Options{}); fs != nil {
		t.Errorf("no metrics flagged: %v", fs)
	}
}

// Each symptom, made on purpose, is found with its measurement and fix.
func TestEachSymptomIsFound(t *testing.T) {
	for _, c := range []struct {
		key  string
		make func(ms []runfolder.Metrics)
		want string
	}{
		{"capped", func(ms []runfolder.Metrics) {
			for i := range ms {
				ms[i].CappedShare, ms[i].Wins = 0.9, map[string]int{"tie": 60, "X": 4}
			}
		}, "90% of the last 10 rounds' games"},
		{"draws", func(ms []runfolder.Metrics) {
			for i := range ms {
				ms[i].Wins = map[string]int{"tie": 62, "X": 2}
			}
		}, "97% of the last 10 rounds' 640 games were ties"},
		{"repeated", func(ms []runfolder.Metrics) {
			for i := range ms {
				ms[i].RepeatedShare = 0.97
			}
		}, "97% of the positions"},
		{"policy", func(ms []runfolder.Metrics) {
			for i := range ms {
				ms[i].Entropy, ms[i].PolicyLoss = 0.001, 4
			}
		}, "learning rate"},
		{"value", func(ms []runfolder.Metrics) {
			for i := range ms {
				ms[i].ValueLoss, ms[i].ValueVariance = 0.59, 0.6
			}
		}, "predicts their mean"},
		{"flat", func(ms []runfolder.Metrics) {
			for i := range ms {
				if ms[i].Accuracy != nil {
					ms[i].Accuracy[0].Kept = 850
				}
			}
		}, "85.0% at the first evaluation and 85.0% at the third"},
	} {
		ms := run(15)
		c.make(ms)
		fs := Check(ms, Options{})
		found := false
		for _, f := range fs {
			if f.Key == c.key {
				found = true
				if !strings.Contains(f.String(), c.want) || f.Fix == "" {
					t.Errorf("%s: %q lacks %q", c.key, f, c.want)
				}
			}
		}
		if !found {
			t.Errorf("%s not found: %s", c.key, keys(fs))
		}
	}
}

// Flat strength needs three evaluations; Elo that stands still against a
// ladder the network beats everywhere is not a stall; a value head of
// three outcomes is not judged by the targets' variance.
func TestFlatAndValueNeedTheirEvidence(t *testing.T) {
	ms := run(10) // two evaluations
	for i := range ms {
		if ms[i].Accuracy != nil {
			ms[i].Accuracy[0].Kept = 850
		}
	}
	if fs := Check(ms, Options{}); strings.Contains(keys(fs), "flat") {
		t.Errorf("flat after two evaluations: %v", fs)
	}
	ms = run(15)
	for i := range ms {
		ms[i].Accuracy = nil
		if ms[i].Elo != nil {
			e := 500.0
			ms[i].Elo = &e
			ms[i].EvalScores = map[string]float64{"random": 1, "alphabeta": 0.97}
		}
	}
	if fs := Check(ms, Options{}); strings.Contains(keys(fs), "flat") {
		t.Errorf("flat Elo against a saturated ladder flagged: %v", fs)
	}
	ms[14].EvalScores["alphabeta"] = 0.5
	if fs := Check(ms, Options{}); !strings.Contains(keys(fs), "flat") {
		t.Errorf("flat Elo not flagged: %v", fs)
	}
	for i := range ms {
		ms[i].ValueLoss = 0.7
	}
	if fs := Check(ms, Options{WDL: true}); strings.Contains(keys(fs), "value") {
		t.Errorf("a win/draw/loss head judged by the variance: %v", fs)
	}
	if o := OptionsOf([]byte(`{"net": {"wdl": true}}`)); !o.WDL {
		t.Error("the configuration's wdl not read")
	}
}

// Steps dropped for a loss that is not a number are a sign of their own.
func TestDivergedStepsAreFound(t *testing.T) {
	ms := run(12)
	for i := range ms {
		ms[i].DivergedSteps = 60
	}
	if fs := Check(ms, Options{}); !strings.Contains(keys(fs), "diverged") {
		t.Errorf("diverged steps not flagged: %v", fs)
	}
}
