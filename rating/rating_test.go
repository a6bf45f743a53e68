package rating

import (
	"math"
	"math/rand/v2"
	"testing"
)

func near(t *testing.T, what string, got, want, tol float64) {
	t.Helper()
	if math.Abs(got-want) > tol {
		t.Errorf("%s = %.4f, want %.4f", what, got, want)
	}
}

// Values worked out by hand (see the comments).
func TestEloArithmetic(t *testing.T) {
	// 400*log10(3) = 190.85
	near(t, "EloFromScore(0.75)", EloFromScore(0.75), 190.85, 0.01)
	near(t, "ScoreFromElo(190.85)", ScoreFromElo(190.85), 0.75, 1e-4)
	near(t, "EloFromScore(0.5)", EloFromScore(0.5), 0, 1e-9)
	if !math.IsInf(EloFromScore(1), 1) || !math.IsInf(EloFromScore(0), -1) {
		t.Error("perfect scores must give infinite Elo")
	}
	// 60 wins, 20 ties, 20 losses: score 0.7, per-game variance
	// .6*.3^2 + .2*.2^2 + .2*.7^2 = .16, standard error .04, margin .0784:
	// Elo(0.7) = 147.19, Elo(0.6216) = 86.22, Elo(0.7784) = 218.25.
	r := Result{Wins: 60, Ties: 20, Losses: 20}
	e, lo, hi := r.Elo()
	near(t, "Elo", e, 147.19, 0.01)
	near(t, "lower bound", lo, 86.22, 0.05)
	near(t, "upper bound", hi, 218.25, 0.05)
	// LOS for 10 wins, 5 losses: 0.5*(1+erf(5/sqrt(30))) = 0.9016.
	near(t, "LOS", Result{Wins: 10, Ties: 7, Losses: 5}.LOS(), 0.9016, 1e-4)
	near(t, "LOS even", Result{Wins: 5, Losses: 5}.LOS(), 0.5, 1e-12)
	// 4 wins of 4: Wilson interval for the score [0.510, 1]: centre
	// (1+1.92/4)/(1+3.84/4) = 0.755, half-width 0.245, so Elo [+7, +inf].
	if got := (Result{Wins: 4}).String(); got != "+inf Elo [+7, +inf]" {
		t.Errorf("all wins: %s", got)
	}
	if got := (Result{Losses: 4}).String(); got != "-inf Elo [-inf, -7]" {
		t.Errorf("all losses: %s", got)
	}
}

func TestSPRT(t *testing.T) {
	test := SPRT{Elo0: 0, Elo1: 50, Alpha: 0.05, Beta: 0.05}
	lo, hi := test.Bounds()
	near(t, "lower bound", lo, math.Log(0.05/0.95), 1e-12)
	near(t, "upper bound", hi, math.Log(0.95/0.05), 1e-12)
	// A crushing result accepts H1, an even one after many games H0, and
	// a short even one keeps going.
	if v := test.Test(Result{Wins: 80, Ties: 10, Losses: 10}); v != AcceptH1 {
		t.Errorf("80-10-10: %v", v)
	}
	if v := test.Test(Result{Wins: 400, Ties: 200, Losses: 400}); v != AcceptH0 {
		t.Errorf("400-200-400: %v", v)
	}
	if v := test.Test(Result{Wins: 3, Ties: 2, Losses: 3}); v != Continue {
		t.Errorf("3-2-3: %v", v)
	}
	// Sequential use on simulated games stops at the right answer.
	rng := rand.New(rand.NewPCG(1, 1))
	for _, truth := range []float64{-20, 80} {
		var r Result
		for r.Games() < 100000 {
			if rng.Float64() < ScoreFromElo(truth) {
				r.Wins++
			} else {
				r.Losses++
			}
			if v := test.Test(r); v != Continue {
				if (truth > 25) != (v == AcceptH1) {
					t.Errorf("true Elo %v: %v after %d games", truth, v, r.Games())
				}
				break
			}
		}
	}
}

// Synthetic tournament with known ratings: the fit recovers them within
// its intervals.
func TestBradleyTerryRecoversRatings(t *testing.T) {
	truth := []float64{0, 150, 400, -100, 250}
	names := []string{"random", "a", "b", "c", "d"}
	tab := NewTable(names)
	rng := rand.New(rand.NewPCG(2, 3))
	for i := range truth {
		for j := i + 1; j < len(truth); j++ {
			var r Result
			p := ScoreFromElo(truth[i] - truth[j])
			for g := 0; g < 3000; g++ {
				// One game in ten a tie, keeping the expected score p.
				x := rng.Float64()
				switch {
				case x < p-0.05:
					r.Wins++
				case x < p+0.05:
					r.Ties++
				default:
					r.Losses++
				}
			}
			tab.Add(i, j, r)
		}
	}
	ratings, err := tab.Fit(0)
	if err != nil {
		t.Fatal(err)
	}
	for i, r := range ratings {
		if r.Name != names[i] || !r.Reachable {
			t.Fatalf("rating %d: %+v", i, r)
		}
		if i == 0 {
			if r.Elo != 0 || !r.Anchor || r.Lo != 0 || r.Hi != 0 {
				t.Errorf("anchor: %+v", r)
			}
			continue
		}
		if math.Abs(r.Elo-truth[i]) > 25 {
			t.Errorf("%s: fitted %.0f, true %.0f", r.Name, r.Elo, truth[i])
		}
		if truth[i] < r.Lo-5 || truth[i] > r.Hi+5 || r.Hi-r.Lo > 60 || r.Hi-r.Lo < 5 {
			t.Errorf("%s: interval [%.0f, %.0f] for true %.0f", r.Name, r.Lo, r.Hi, truth[i])
		}
	}
}

// Two players: the fit is the match's Elo, up to the half-game prior
// (75.25 points of 100.5 games: Elo 189.6).
func TestBradleyTerryTwoPlayers(t *testing.T) {
	tab := NewTable([]string{"random", "x"})
	tab.Add(1, 0, Result{Wins: 70, Ties: 10, Losses: 20})
	r, _ := tab.Fit(0)
	near(t, "Elo of x", r[1].Elo, EloFromScore(75.25/100.5), 0.01)
	// A perfect score stays finite thanks to the prior; a player who never
	// played the others is marked unreachable.
	tab = NewTable([]string{"random", "x", "y"})
	tab.Add(1, 0, Result{Wins: 50})
	r, _ = tab.Fit(0)
	if math.IsInf(r[1].Elo, 0) || r[1].Elo < 300 {
		t.Errorf("50-0: %+v", r[1])
	}
	if r[2].Reachable {
		t.Errorf("y never played: %+v", r[2])
	}
}

func TestWilson(t *testing.T) {
	// 74 of 100: the interval of the textbook formula.
	lo, hi := Wilson(74, 100)
	if math.Abs(lo-0.6463) > 5e-4 || math.Abs(hi-0.8160) > 5e-4 {
		t.Errorf("Wilson(74, 100) = [%.4f, %.4f], want [0.6463, 0.8160]", lo, hi)
	}
	lo, hi = Wilson(10, 10)
	if hi != 1 || lo < 0.69 || lo > 0.73 {
		t.Errorf("Wilson(10, 10) = [%.4f, %.4f], want [0.722, 1]", lo, hi)
	}
	if lo, hi := Wilson(0, 0); lo != 0 || hi != 1 {
		t.Errorf("Wilson(0, 0) = [%v, %v]", lo, hi)
	}
}

func TestPentanomialSPRT(t *testing.T) {
	var p Pentanomial
	for i, n := range []int{0, 2, 5, 2, 1} {
		for k := 0; k < n; k++ {
			a, b := float64(i)/2, 0.0 // any split of the pair score
			if a > 1 {
				a, b = 1, a-1
			}
			p.AddPair(a, b)
		}
	}
	if p != (Pentanomial{0, 2, 5, 2, 1}) || p.Pairs() != 10 {
		t.Fatalf("counts %v", p)
	}
	sprt := SPRT{Elo0: 0, Elo1: 50, Alpha: 0.05, Beta: 0.05}
	// By hand: mean 0.55, regularised variance 0.7275/11, s1 = 0.571463.
	if got := sprt.LLRPenta(p); math.Abs(got-0.154176) > 1e-5 {
		t.Errorf("LLR %v, want 0.154176", got)
	}
	// A long run of won pairs accepts H1; of lost pairs, H0.
	var won, lost Pentanomial
	for i := 0; i < 200; i++ {
		won.AddPair(1, 0.5)
		lost.AddPair(0, 0.5)
	}
	if sprt.TestPenta(won) != AcceptH1 || sprt.TestPenta(lost) != AcceptH0 {
		t.Errorf("verdicts %v, %v", sprt.TestPenta(won), sprt.TestPenta(lost))
	}
}

func TestParseSPRT(t *testing.T) {
	s, err := ParseSPRT("elo0=0,elo1=5,alpha=0.05,beta=0.1")
	if err != nil || s != (SPRT{Elo0: 0, Elo1: 5, Alpha: 0.05, Beta: 0.1}) {
		t.Errorf("%+v, %v", s, err)
	}
	if s, err := ParseSPRT("0,50"); err != nil || s.Elo1 != 50 || s.Alpha != 0.05 {
		t.Errorf("short form: %+v, %v", s, err)
	}
	for _, bad := range []string{"elo0=5,elo1=0", "elo1=5", "elo0=0,elo1=5,gamma=1", "0,x", "elo0=0,elo1=5,alpha=0.7"} {
		if _, err := ParseSPRT(bad); err == nil {
			t.Errorf("%q accepted", bad)
		}
	}
}

func TestPentanomialElo(t *testing.T) {
	// Every pair 1.5 of 2: score 0.75; the regularised variance (half a
	// virtual pair at each extreme) still leaves an interval.
	elo, lo, hi := Pentanomial{0, 0, 0, 20, 0}.Elo()
	if math.Abs(elo-190.85) > 0.01 || math.Abs(lo-144.34) > 0.01 || math.Abs(hi-244.61) > 0.01 {
		t.Errorf("20 pairs of 1.5: %v [%v, %v]", elo, lo, hi)
	}
	// By hand: mean 0.5375, regularised pair variance over 21.
	elo, lo, hi = Pentanomial{0, 3, 11, 6, 0}.Elo()
	if math.Abs(elo-26.107) > 0.01 || math.Abs(lo+32.949) > 0.01 || math.Abs(hi-86.724) > 0.01 {
		t.Errorf("[0 3 11 6 0]: %v [%v, %v]", elo, lo, hi)
	}
}

func FuzzParseSPRT(f *testing.F) {
	for _, s := range []string{"0,5", "elo0=0,elo1=5,alpha=0.05,beta=0.05", "elo1=3", "=,=", "1e309,2", "nan,1", "elo0=-inf,elo1=0"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, text string) {
		s, err := ParseSPRT(text)
		if err != nil {
			return
		}
		lo, hi := s.Bounds()
		if !(s.Elo0 < s.Elo1) || !(lo < 0 && hi > 0) || math.IsNaN(s.LLR(Result{Wins: 3, Ties: 1, Losses: 2})) {
			t.Fatalf("%q accepted as %+v (bounds %v, %v)", text, s, lo, hi)
		}
	})
}

// Exact binomial values: 0 of 6 discordant pairs one way is 2/64; 5 and 5
// is no evidence; one side's ten of ten is 2/1024.
func TestSignTest(t *testing.T) {
	for _, c := range []struct {
		a, b int
		want float64
	}{{0, 6, 2.0 / 64}, {6, 0, 2.0 / 64}, {5, 5, 1}, {10, 0, 2.0 / 1024}, {0, 0, 1}, {2, 8, 2 * 56.0 / 1024}} {
		if got := SignTest(c.a, c.b); math.Abs(got-c.want) > 1e-9 {
			t.Errorf("SignTest(%d, %d) = %v, want %v", c.a, c.b, got, c.want)
		}
	}
}
