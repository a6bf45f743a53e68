package train

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"
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
