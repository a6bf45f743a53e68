package solve

import (
	"bytes"
	"context"
	"flag"
	"os"
	"testing"

	"github.com/sliderzero/sliderzero/store"
)

var update = flag.Bool("update", false, "rewrite testdata/slider-3x3.table (after a deliberate change of format)")

const goldenTable = "testdata/slider-3x3.table"

// A table file of the current format (the 3x3 board, two small position
// sets): the current code reads it to the values it solves today, and
// writes what it read byte for byte.
func TestGoldenTable(t *testing.T) {
	fresh, err := Solve(context.Background(), 3, nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	if *update {
		fresh.Sets = map[string][]string{"real-games": {"H++/H++/+VV H"}, "random": {"+H+/H++/+VV V", "H++/+H+/+VV V"}}
		if err := os.MkdirAll("testdata", 0o755); err != nil {
			t.Fatal(err)
		}
		if err := fresh.Write(goldenTable); err != nil {
			t.Fatal(err)
		}
	}
	tab, err := Read(goldenTable)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(tab.vals, fresh.vals) || len(tab.Sets) != 2 || len(tab.Sets["random"]) != 2 {
		t.Errorf("the golden table reads as %d values and sets %v; solved today: %d values", len(tab.vals), tab.Sets, len(fresh.vals))
	}
	want, err := os.ReadFile(goldenTable)
	if err != nil {
		t.Fatal(err)
	}
	var f file
	if _, err := store.Decode(want, goldenTable, Kind, FormatVersion, &f); err != nil {
		t.Fatal(err)
	}
	got, err := store.Encode(Kind, FormatVersion, &f)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got, want) {
		t.Errorf("read and written again, %d bytes against the file's %d", len(got), len(want))
	}
}
