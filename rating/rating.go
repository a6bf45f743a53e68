// Package rating turns game results into strength numbers: Elo
// differences with confidence intervals, the likelihood of superiority, a
// sequential probability ratio test for stopping matches early, and
// Bradley-Terry ratings fitted by maximum likelihood over a tournament.
package rating

import (
	"fmt"
	"math"
	"strconv"
	"strings"
)

// Result counts a player's wins, ties and losses against another.
type Result struct {
	Wins   int `msgpack:"Wins"`
	Ties   int `msgpack:"Ties"`
	Losses int `msgpack:"Losses"`
}

// Games is the number of games.
func (r Result) Games() int { return r.Wins + r.Ties + r.Losses }

// Score is the mean score, ties counting half: in [0, 1].
func (r Result) Score() float64 {
	n := r.Games()
	if n == 0 {
		return 0.5
	}
	return (float64(r.Wins) + float64(r.Ties)/2) / float64(n)
}

// EloFromScore is the Elo difference whose expected score is s.
func EloFromScore(s float64) float64 {
	switch {
	case s <= 0:
		return math.Inf(-1)
	case s >= 1:
		return math.Inf(1)
	}
	return -400 * math.Log10(1/s-1)
}

// ScoreFromElo is the expected score of a player d Elo above its opponent.
func ScoreFromElo(d float64) float64 { return 1 / (1 + math.Pow(10, -d/400)) }

// Elo is the Elo difference the result implies, with a 95% interval from
// the normal approximation of the per-game score's distribution. A score
// of 0 or 1 gives an infinite estimate, and the interval's far end is
// infinite too.
func (r Result) Elo() (elo, lo, hi float64) {
	n := float64(r.Games())
	s := r.Score()
	if n == 0 {
		return 0, math.Inf(-1), math.Inf(1)
	}
	w, t, l := float64(r.Wins)/n, float64(r.Ties)/n, float64(r.Losses)/n
	variance := w*(1-s)*(1-s) + t*(0.5-s)*(0.5-s) + l*s*s
	if variance == 0 {
		// Every game scored the same (all wins, say): the normal
		// approximation has no width, so use the Wilson score interval,
		// which still bounds the score away from 0 and 1.
		plo, phi := wilson(s, n)
		lo, hi := EloFromScore(plo), EloFromScore(phi)
		// At a score of 0 or 1 one end is exactly infinite; rounding must
		// not make it finite.
		if s == 1 {
			hi = math.Inf(1)
		}
		if s == 0 {
			lo = math.Inf(-1)
		}
		return EloFromScore(s), lo, hi
	}
	margin := 1.959964 * math.Sqrt(variance/n)
	return EloFromScore(s), EloFromScore(s - margin), EloFromScore(s + margin)
}

// LOS is the likelihood of superiority: the probability that the player is
// the stronger, from its wins and losses (ties carry no information here).
func (r Result) LOS() float64 {
	if r.Wins+r.Losses == 0 {
		return 0.5
	}
	return 0.5 * (1 + math.Erf(float64(r.Wins-r.Losses)/math.Sqrt(2*float64(r.Wins+r.Losses))))
}

// String is "+120 Elo [+80, +165]".
func (r Result) String() string {
	e, lo, hi := r.Elo()
	return fmt.Sprintf("%s Elo [%s, %s]", FormatElo(e), FormatElo(lo), FormatElo(hi))
}

// FormatElo writes an Elo figure signed and rounded ("+120", "-35"),
// "+inf"/"-inf" for infinite ones and "?" for an undefined one.
func FormatElo(e float64) string {
	switch {
	case math.IsNaN(e):
		return "?"
	case math.IsInf(e, 1):
		return "+inf"
	case math.IsInf(e, -1):
		return "-inf"
	}
	return fmt.Sprintf("%+.0f", math.Round(e)+0) // +0 turns -0 into 0
}

// SPRT is a sequential probability ratio test between H0: the Elo
// difference is Elo0, and H1: it is Elo1, with error rates Alpha (accepting
// H1 when H0 holds) and Beta. It uses the normal approximation of the
// log-likelihood ratio over the per-game scores, as chess engine testing
// frameworks do.
type SPRT struct {
	Elo0, Elo1  float64
	Alpha, Beta float64
}

// Verdict of an SPRT.
type Verdict int

const (
	Continue Verdict = iota
	AcceptH0
	AcceptH1
)

func (v Verdict) String() string {
	return [...]string{"continue", "H0 accepted", "H1 accepted"}[v]
}

// LLR is the log-likelihood ratio of H1 against H0 for a result.
func (t SPRT) LLR(r Result) float64 {
	n := float64(r.Games())
	if n == 0 {
		return 0
	}
	s := r.Score()
	// The variance is estimated with half a virtual win and half a virtual
	// loss added, so that a few games with the same result (variance 0)
	// do not settle the test at once.
	vn := n + 1
	w, ti, l := (float64(r.Wins)+0.5)/vn, float64(r.Ties)/vn, (float64(r.Losses)+0.5)/vn
	variance := w*(1-s)*(1-s) + ti*(0.5-s)*(0.5-s) + l*s*s
	s0, s1 := ScoreFromElo(t.Elo0), ScoreFromElo(t.Elo1)
	return (s1 - s0) * (2*s - s0 - s1) / (2 * variance / n)
}

// Bounds are the LLR's stopping bounds: accept H0 below lower, H1 above
// upper.
func (t SPRT) Bounds() (lower, upper float64) {
	return math.Log(t.Beta / (1 - t.Alpha)), math.Log((1 - t.Beta) / t.Alpha)
}

// Test says whether the result settles the test.
func (t SPRT) Test(r Result) Verdict { return t.verdict(t.LLR(r)) }

// verdict places a log-likelihood ratio against the stopping bounds.
func (t SPRT) verdict(llr float64) Verdict {
	lo, hi := t.Bounds()
	switch {
	case llr >= hi:
		return AcceptH1
	case llr <= lo:
		return AcceptH0
	}
	return Continue
}

// Wilson is the 95% Wilson score interval of a proportion: k successes in
// n trials. Unlike the normal approximation it stays inside [0, 1] and has
// width when k is 0 or n.
func Wilson(k, n int) (lo, hi float64) {
	if n == 0 {
		return 0, 1
	}
	lo, hi = wilson(float64(k)/float64(n), float64(n))
	// At the ends the interval touches 0 or 1 exactly; rounding must not
	// move it.
	if k == 0 {
		lo = 0
	}
	if k == n {
		hi = 1
	}
	return lo, hi
}

// SignTest is the two-sided exact p-value of a paired comparison's
// discordant pairs (McNemar's exact test): a cases where only the first
// failed, b where only the second did, under the hypothesis that either
// is as likely to fail alone.
func SignTest(a, b int) float64 {
	n, k := a+b, min(a, b)
	if n == 0 {
		return 1
	}
	// P(X <= k) for X ~ Binomial(n, 1/2), summed in logs: n may be large.
	tail := 0.0
	lg, _ := math.Lgamma(float64(n + 1))
	for i := 0; i <= k; i++ {
		li, _ := math.Lgamma(float64(i + 1))
		lni, _ := math.Lgamma(float64(n - i + 1))
		tail += math.Exp(lg - li - lni - float64(n)*math.Ln2)
	}
	return min(1, 2*tail)
}

func wilson(p, n float64) (lo, hi float64) {
	const z = 1.959964
	centre := (p + z*z/(2*n)) / (1 + z*z/n)
	half := z * math.Sqrt(p*(1-p)/n+z*z/(4*n*n)) / (1 + z*z/n)
	return max(0, centre-half), min(1, centre+half)
}

// Pentanomial counts pairs of games played from one opening with colours
// swapped, by the pair's score for the player: 0, 0.5, 1, 1.5 or 2. Two
// games from the same opening are not independent, so a test that treats
// them as such overstates the evidence; pair scores are independent.
type Pentanomial [5]int

// AddPair counts a pair from the player's two results (1 win, 0.5 tie, 0
// loss).
func (p *Pentanomial) AddPair(a, b float64) { p[int(math.Round(2*(a+b)))]++ }

// Pairs is the number of pairs counted.
func (p Pentanomial) Pairs() int { return p[0] + p[1] + p[2] + p[3] + p[4] }

// LLRPenta is the log-likelihood ratio of H1 against H0 for pair results,
// by the normal approximation over the per-pair score (as fishtest and
// fastchess do), with the variance regularised by half a virtual pair at
// each extreme.
func (t SPRT) LLRPenta(p Pentanomial) float64 {
	n := float64(p.Pairs())
	if n == 0 {
		return 0
	}
	mean, variance := p.moments()
	s0, s1 := ScoreFromElo(t.Elo0), ScoreFromElo(t.Elo1)
	return (s1 - s0) * (2*mean - s0 - s1) / (2 * variance / n)
}

// moments are the mean per-game score of the pairs and the variance of
// the pair score (halved), regularised by half a virtual pair at each
// extreme so that pairs that all scored the same still leave some.
func (p Pentanomial) moments() (mean, variance float64) {
	n := float64(p.Pairs())
	for i, c := range p {
		mean += float64(c) * float64(i) / 4
	}
	mean /= n
	for i, c := range p {
		w := float64(c)
		if i == 0 || i == 4 {
			w += 0.5
		}
		d := float64(i)/4 - mean
		variance += w / (n + 1) * d * d
	}
	return mean, variance
}

// TestPenta says whether pair results settle the test.
func (t SPRT) TestPenta(p Pentanomial) Verdict { return t.verdict(t.LLRPenta(p)) }

// ParseSPRT reads an SPRT's parameters: "elo0=0,elo1=5,alpha=0.05,beta=0.05"
// (alpha and beta default to 0.05), or the short form "0,5".
func ParseSPRT(text string) (SPRT, error) {
	t := SPRT{Alpha: 0.05, Beta: 0.05}
	parts := strings.Split(text, ",")
	if len(parts) == 2 && !strings.Contains(text, "=") {
		var err0, err1 error
		t.Elo0, err0 = strconv.ParseFloat(strings.TrimSpace(parts[0]), 64)
		t.Elo1, err1 = strconv.ParseFloat(strings.TrimSpace(parts[1]), 64)
		if err0 != nil || err1 != nil {
			return t, fmt.Errorf("SPRT %q: want elo0=E0,elo1=E1[,alpha=A,beta=B] or E0,E1", text)
		}
	} else {
		seen := map[string]bool{}
		for _, kv := range parts {
			k, v, ok := strings.Cut(strings.TrimSpace(kv), "=")
			f, err := strconv.ParseFloat(v, 64)
			if !ok || err != nil {
				return t, fmt.Errorf("SPRT %q: %q is not key=number", text, kv)
			}
			switch k {
			case "elo0":
				t.Elo0 = f
			case "elo1":
				t.Elo1 = f
			case "alpha":
				t.Alpha = f
			case "beta":
				t.Beta = f
			default:
				return t, fmt.Errorf("SPRT %q: unknown parameter %s (want elo0, elo1, alpha, beta)", text, k)
			}
			seen[k] = true
		}
		if !seen["elo0"] || !seen["elo1"] {
			return t, fmt.Errorf("SPRT %q: elo0 and elo1 are required", text)
		}
	}
	for _, v := range []float64{t.Elo0, t.Elo1, t.Alpha, t.Beta} {
		if math.IsNaN(v) || math.IsInf(v, 0) {
			return t, fmt.Errorf("SPRT %q: every parameter must be a finite number", text)
		}
	}
	switch {
	case !(t.Elo0 < t.Elo1):
		return t, fmt.Errorf("SPRT %q: elo0 must be below elo1", text)
	case t.Alpha <= 0 || t.Alpha >= 0.5 || t.Beta <= 0 || t.Beta >= 0.5:
		return t, fmt.Errorf("SPRT %q: alpha and beta must be between 0 and 0.5", text)
	}
	return t, nil
}

// Elo is the Elo difference the pairs imply, with a 95% interval from the
// variance of the pair scores: pairs, not games, are the independent
// trials.
func (p Pentanomial) Elo() (elo, lo, hi float64) {
	n := float64(p.Pairs())
	if n == 0 {
		return 0, math.Inf(-1), math.Inf(1)
	}
	mean, variance := p.moments()
	margin := 1.959964 * math.Sqrt(variance/n)
	return EloFromScore(mean), EloFromScore(mean - margin), EloFromScore(mean + margin)
}
