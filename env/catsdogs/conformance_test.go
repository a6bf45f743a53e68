package catsdogs

import (
	"testing"

	"github.com/sliderzero/sliderzero/env/envtest"
)

func TestConformance(t *testing.T) {
	g, err := New(0)
	if err != nil {
		t.Fatal(err)
	}
	t.Log(envtest.Conformance(t, g, envtest.Options{}))
}

func FuzzConformance(f *testing.F) {
	g, err := New(0)
	if err != nil {
		f.Fatal(err)
	}
	envtest.FuzzParse(f, g)
}
