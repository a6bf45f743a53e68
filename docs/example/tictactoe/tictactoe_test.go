package tictactoe

import (
	"testing"

	"github.com/sliderzero/sliderzero/env/envtest"
)

func TestConformance(t *testing.T) { t.Log(envtest.Conformance(t, &Game{}, envtest.Options{})) }

func FuzzConformance(f *testing.F) { envtest.FuzzParse(f, &Game{}) }

func TestRules(t *testing.T) {
	s := (&Game{}).Start(nil)
	for _, m := range []string{"a1", "a2", "b1", "b2", "c1"} {
		envtest.Play(t, s, m)
	}
	if o := s.Outcome(); !o.Over || o.Winner != 0 {
		t.Errorf("X's bottom row: %+v\n%s", o, s.Display())
	}
	if got := s.String(); got != ".../OO./XXX O" {
		t.Errorf("position %s", got)
	}
}
