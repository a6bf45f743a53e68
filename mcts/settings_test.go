package mcts

import (
	"encoding/json"
	"math"
	"reflect"
	"strconv"
	"strings"
	"testing"
)

// Every setting of the training configuration is a JSON key of Params of
// the same name, and every field of Params with a JSON key is a setting.
func TestSettingsAreTheJSONKeys(t *testing.T) {
	tags := map[string]bool{}
	rt := reflect.TypeOf(Params{})
	for i := range rt.NumField() {
		name, _, _ := strings.Cut(rt.Field(i).Tag.Get("json"), ",")
		if name != "-" {
			tags[name] = true
		}
	}
	for _, s := range Settings() {
		if s.Train != tags[s.Name] {
			t.Errorf("%s: in training's configuration %v, a JSON key of Params %v", s.Name, s.Train, tags[s.Name])
		}
		delete(tags, s.Name)
	}
	if len(tags) > 0 {
		t.Errorf("JSON keys that are no setting: %v", tags)
	}
}

// Each setting takes a value at each end of its range and refuses one
// past it, naming itself (by the table's name, also when given by an old
// one); every old name sets the same field.
func TestSettingsSetAndRefuse(t *testing.T) {
	for _, s := range Settings() {
		names := []string{s.Name}
		for _, o := range s.Old {
			names = append(names, o.Name)
		}
		for _, name := range names {
			var p Params
			if s.Type == Switch {
				if err := p.Set(name, "true"); err != nil {
					t.Errorf("%s=true: %v", name, err)
				}
				if err := p.Set(name, "maybe"); err == nil || !strings.Contains(err.Error(), s.Name+"=") {
					t.Errorf("%s=maybe: got %v, want an error naming %s", name, err, s.Name)
				}
				continue
			}
			hi := s.Max
			if s.Below {
				hi = math.Nextafter(s.Max, s.Min)
			}
			for _, ok := range []float64{s.Min, hi} {
				v := strconv.FormatFloat(ok, 'f', -1, 64)
				if err := p.Set(name, v); err != nil {
					t.Errorf("%s=%s refused: %v", name, v, err)
				}
				if got, _ := p.Get(s.Name); got != v && s.Type != Seconds {
					t.Errorf("%s=%s reads back as %s", name, v, got)
				}
			}
			for _, bad := range []string{strconv.FormatFloat(s.Max*2+1, 'f', -1, 64), "-1", "NaN", "x"} {
				if s.Min < 0 {
					continue
				}
				err := p.Set(name, bad)
				if err == nil || !strings.Contains(err.Error(), s.Name) {
					t.Errorf("%s=%s: got %v, want an error naming %s", name, bad, err, s.Name)
				}
			}
		}
	}
}

// An inverted old name sets its switch the other way: proofs=false is
// no_proofs=true.
func TestOldSwitchNamesInvert(t *testing.T) {
	var p Params
	for _, c := range []struct{ name, value string }{{"proofs", "false"}, {"wincheck", "false"}, {"movesleft", "false"}} {
		if err := p.Set(c.name, c.value); err != nil {
			t.Fatal(err)
		}
	}
	if !p.NoProofs || !p.NoWinCheck || !p.NoMovesLeft {
		t.Errorf("the old switches did not invert: %+v", p)
	}
	if v, _ := p.Get("proofs"); v != "false" {
		t.Errorf("proofs reads %s, want false", v)
	}
	if err := p.Set("cpuct", "200"); err == nil || !strings.Contains(err.Error(), "c_puct=200 (given as cpuct)") {
		t.Errorf("cpuct=200: %v", err)
	}
}

// A stored value out of range is refused by Check under the table's name,
// and the JSON a run writes reads back into the same settings.
func TestCheckNamesAndJSON(t *testing.T) {
	p := DefaultParams()
	p.MaxNodes = MaxNodesLimit + 1
	if err := p.Check(); err == nil || !strings.Contains(err.Error(), "max_nodes") {
		t.Errorf("max_nodes over its limit: %v", err)
	}
	p = DefaultParams()
	p.NoProofs, p.CPUCT = true, 2.5
	data, err := json.Marshal(p)
	if err != nil {
		t.Fatal(err)
	}
	var q Params
	if err := json.Unmarshal(data, &q); err != nil || q.NoProofs != true || q.CPUCT != 2.5 {
		t.Errorf("JSON round trip: %+v, %v", q, err)
	}
}
