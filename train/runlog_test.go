package train

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"

	"github.com/sliderzero/sliderzero/train/evaluate"
	"github.com/sliderzero/sliderzero/train/runfolder"
)

// Notes made before the log was set (Create's, Resume's) come out in the
// log's format: JSON lines in a JSON log, not text.
func TestEarlyNotesTakeTheLogsFormat(t *testing.T) {
	var r runLog
	r.logf("set aside %d shards", 2)
	var buf bytes.Buffer
	r.Log, r.JSON = &buf, true
	r.logf("later")
	lines := strings.Split(strings.TrimSpace(buf.String()), "\n")
	if len(lines) != 2 {
		t.Fatalf("lines %q", lines)
	}
	for i, want := range []string{"set aside 2 shards", "later"} {
		var v struct{ Time, Note string }
		if err := json.Unmarshal([]byte(lines[i]), &v); err != nil || v.Note != want || v.Time == "" {
			t.Errorf("line %q: %+v %v, want the note %q", lines[i], v, err, want)
		}
	}
}

// notes records what a run's progress bar is told.
type notes struct{ last string }

func (n *notes) Phase(string, string, int) {}
func (n *notes) Add(_ int, note string)    { n.last = note }
func (n *notes) Done()                     {}

// The bar's note carries the last evaluation: the Elo when the ladder
// gave one, the share of each critical set kept, or both.
func TestBarShowsTheLastEvaluation(t *testing.T) {
	elo := 123.0
	acc := []evaluate.Accuracy{{Set: "real-games", Kept: 950, Total: 1000}}
	for _, c := range []struct {
		m    runfolder.Metrics
		want string
	}{
		{runfolder.Metrics{Round: 3, Accuracy: acc}, "last evaluation: 95.0% of real-games kept"},
		{runfolder.Metrics{Round: 4, Elo: &elo}, "last evaluation: Elo +123"},
		{runfolder.Metrics{Round: 5, Elo: &elo, Accuracy: acc}, "last evaluation: Elo +123, 95.0% of real-games kept"},
	} {
		var n notes
		r := &Run{cfg: tinyConfig()}
		r.Progress = &n
		b := newRunBar(r)
		b.advance(c.m)
		if !strings.HasSuffix(n.last, c.want) {
			t.Errorf("round %d: the bar says %q, want it to end %q", c.m.Round, n.last, c.want)
		}
	}
}
