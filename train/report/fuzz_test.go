package report

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/sliderzero/sliderzero/train/runfolder"
)

// Whatever a metrics log holds (lines cut by a kill, other programs'
// JSON, absurd numbers), reading it and writing the report's text never
// panics.
func FuzzReadMetrics(f *testing.F) {
	f.Add([]byte(`{"round":1,"elapsed_seconds":60,"games":64,"steps":100}` + "\n" +
		`{"round":2,"elapsed_seconds":120,"games":128,"elo":350.5,"elo_low":300,"elo_high":400,"eval_scores":{"random":1}}` + "\n"))
	f.Add([]byte(`{"round":3,"accuracy":[{"set":"real-games","kept":900,"total":1000,"lo":0.88,"hi":0.92}]}` + "\n{\"round\":4"))
	f.Add([]byte("{}\n{\"round\":-1}\n{\"round\":1e300}\nnot json\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		dir := t.TempDir()
		if err := os.WriteFile(filepath.Join(dir, runfolder.MetricsFile), data, 0o644); err != nil {
			t.Fatal(err)
		}
		ms, err := runfolder.ReadMetrics(dir)
		if err != nil || len(ms) == 0 {
			return // Write refuses an empty log before writing anything
		}
		for _, m := range ms {
			if m.Round < 1 {
				t.Fatalf("a line without a round was kept: %+v", m)
			}
		}
		_ = markdown(dir, ms, nil, nil)
	})
}
