// Package runfolder is what a training run's folder shows a reader: the
// names of its configuration and its metrics log, the log's line, and a
// reader for the log. The programs that read a run without training it
// (the web app, the report) import this and not train, so they do not
// link the training library.
package runfolder

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"path/filepath"
	"time"

	"github.com/sliderzero/sliderzero/store"
	"github.com/sliderzero/sliderzero/train/evaluate"
)

// Files of a run folder that its readers open (train names the others).
const (
	ConfigFile  = "config.json"
	MetricsFile = "metrics.jsonl"
)

// Metrics is one line of the metrics log, written after every round.
type Metrics struct {
	Time          time.Time `json:"time"`
	Elapsed       float64   `json:"elapsed_seconds"`
	Round         int       `json:"round"`
	Steps         int64     `json:"steps"`
	Games         int64     `json:"games"`
	Positions     int64     `json:"positions"`
	Replay        int       `json:"replay"`
	PolicyLoss    float64   `json:"policy_loss,omitempty"`
	ValueLoss     float64   `json:"value_loss,omitempty"`
	Entropy       float64   `json:"policy_entropy,omitempty"`
	PliesLoss     float64   `json:"plies_loss,omitempty"`
	LearningRate  float64   `json:"learning_rate"`
	GamesPerSec   float64   `json:"games_per_second"`
	SimsPerSec    float64   `json:"sims_per_second"`
	EvalsPerSec   float64   `json:"evals_per_second"`
	SamplesPerSec float64   `json:"samples_per_second,omitempty"`
	PliesPerGame  float64   `json:"plies_per_game"`
	// The round's health (package health): the share of its games the
	// ply cap ended, the share of its positions that occur more than once
	// in it, and the variance of their value targets (what a value head
	// that says the same everywhere would leave as its loss).
	CappedShare   float64 `json:"capped_share,omitempty"`
	RepeatedShare float64 `json:"repeated_share,omitempty"`
	ValueVariance float64 `json:"value_variance,omitempty"`
	// DivergedSteps counts the round's optimisation steps whose loss was
	// not a number, dropped: a learning rate far too high.
	DivergedSteps int `json:"diverged_steps,omitempty"`
	// Wins counts the round's self-play results by the winner's side name
	// ("tie" for ties): which side the game favours under self-play.
	Wins         map[string]int `json:"wins"`
	SelfPlaySecs float64        `json:"selfplay_seconds"`
	TrainSecs    float64        `json:"train_seconds"`
	// Set on rounds after which the network was evaluated: its score
	// against each baseline, and its Elo fitted over those games (anchored
	// at random = 0 when random is on the ladder).
	EvalScores map[string]float64 `json:"eval_scores,omitempty"`
	// EvalSeats splits each baseline's games by the network's side: wins,
	// losses, and their mean lengths in plies.
	EvalSeats map[string][]evaluate.Seat `json:"eval_seats,omitempty"`
	Elo       *float64                   `json:"elo,omitempty"`
	EloLo     *float64                   `json:"elo_lo,omitempty"`
	EloHi     *float64                   `json:"elo_hi,omitempty"`
	EvalSecs  float64                    `json:"eval_seconds,omitempty"`
	// Accuracy against perfect play, per position set, when the run has an
	// Examiner.
	Accuracy []evaluate.Accuracy `json:"accuracy,omitempty"`
	// With gating: the trained network's score against the best, and
	// whether it became the best.
	GateScore  *float64 `json:"gate_score,omitempty"`
	GatePassed bool     `json:"gate_passed,omitempty"`
	BestSteps  int64    `json:"best_steps,omitempty"`
	// The shards taken this round, and the games dropped for being played
	// with weights too old.
	Shards  int `json:"shards,omitempty"`
	Dropped int `json:"dropped_games,omitempty"`
	// SetAside counts the shards moved under rejected/ this round: ones
	// that could not be read or hold another game.
	SetAside int `json:"set_aside,omitempty"`
}

// MaxRoundLines bounds the round lines ReadMetrics keeps: past it, it
// keeps every second one (then every fourth...), so that memory stays
// bounded however long the log; evaluation lines and the last line are
// always kept.
const MaxRoundLines = 20000

// ReadMetrics reads a run's metrics log, streaming it: it skips a line cut
// short by a kill and lines that are not a round's (no round number), and
// thins the round lines past MaxRoundLines.
func ReadMetrics(dir string) ([]Metrics, error) {
	path := filepath.Join(dir, MetricsFile)
	f, err := store.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	var (
		out          []Metrics
		plain        int // round lines kept
		seen, stride = 0, 1
		last         *Metrics
		lineNo       int
	)
	err = eachLine(f, maxMetricsLine, func(line []byte) {
		lineNo++
		var m Metrics
		if json.Unmarshal(line, &m) != nil || m.Round < 1 {
			return
		}
		if evaluated(m) {
			out = append(out, m)
			last = nil
			return
		}
		seen++
		if seen%stride != 0 {
			last = &m
			return
		}
		last = nil
		out = append(out, m)
		if plain++; plain > MaxRoundLines {
			out, plain = thin(out)
			stride *= 2
		}
	})
	if err != nil {
		return nil, fmt.Errorf("%s line %d: %w", path, lineNo+1, err)
	}
	if last != nil {
		out = append(out, *last)
	}
	return out, nil
}

// maxMetricsLine bounds one line of the metrics log: a longer one (no
// line the trainer writes is) is skipped, as a line that is not a
// round's is, whatever bytes it holds.
const maxMetricsLine = 4 << 20

// eachLine calls fn with each line of r (without its newline) of at most
// max bytes, skipping longer ones without holding them: memory stays
// bounded whatever the file holds. The slice is valid only during fn.
func eachLine(r io.Reader, max int, fn func([]byte)) error {
	br := bufio.NewReaderSize(r, 64<<10)
	var long []byte // a line longer than the reader's buffer, so far
	skipping := false
	for {
		chunk, err := br.ReadSlice('\n')
		if errors.Is(err, bufio.ErrBufferFull) {
			if !skipping && len(long)+len(chunk) > max {
				skipping, long = true, long[:0]
			} else if !skipping {
				long = append(long, chunk...)
			}
			continue
		}
		if err != nil && !errors.Is(err, io.EOF) {
			return err
		}
		line := chunk
		if len(long) > 0 {
			long = append(long, chunk...)
			line = long
		}
		line = bytes.TrimSuffix(line, []byte("\n"))
		if !skipping && len(line) > 0 && len(line) <= max {
			fn(line)
		}
		long, skipping = long[:0], false
		if err != nil {
			return nil
		}
	}
}

// evaluated reports whether a metrics line carries an evaluation.
func evaluated(m Metrics) bool {
	return len(m.EvalScores) > 0 || len(m.Accuracy) > 0 || m.GateScore != nil || m.Elo != nil
}

// thin drops every second round line, keeping evaluation lines; it
// returns the lines and the count of round lines left.
func thin(ms []Metrics) ([]Metrics, int) {
	kept, plain := ms[:0], 0
	for _, m := range ms {
		if !evaluated(m) {
			plain++
			if plain%2 == 1 {
				continue
			}
		}
		kept = append(kept, m)
	}
	clear(ms[len(kept):])
	return kept, plain / 2
}
