package bench

import (
	"encoding/json"
	"fmt"
	"io"
	"math"
	"slices"
	"strings"
	"text/tabwriter"
	"time"
)

// Report is the outcome of one `beeuni bench` run: the machine, then one
// Scenario per scenario run.
type Report struct {
	Machine   Machine     `json:"machine"`
	Command   string      `json:"command,omitempty"`
	Rounds    int         `json:"rounds"`
	Quick     bool        `json:"quick"`
	Started   time.Time   `json:"started"`
	Elapsed   Duration    `json:"elapsed"`
	Scenarios []*Scenario `json:"scenarios"`
}

// Scenario is one scenario's figures. Every row holds beeuni's figure and,
// in the order of Baselines, each baseline's figure from the same run.
type Scenario struct {
	Name      string   `json:"name"`
	Title     string   `json:"title"`
	Baselines []string `json:"baselines"` // column names, e.g. "node http"
	Rows      []*Row   `json:"rows"`
	Targets   []Target `json:"targets"`
	Notes     []string `json:"notes,omitempty"`
	Elapsed   Duration `json:"elapsed"`
}

// Row is one figure: beeuni's, beside each baseline's.
type Row struct {
	Case      string `json:"case"`
	Metric    string `json:"metric"` // e.g. "calls/s", "p99 ms"
	Better    string `json:"better"` // "higher" or "lower"
	Beeuni    Stat   `json:"beeuni"`
	Baselines []Cmp  `json:"baselines"`
}

// Cmp is one baseline's figure and beeuni's ratio to it.
type Cmp struct {
	Name string `json:"name"`
	Stat *Stat  `json:"stat,omitempty"`
	// Ratio is beeuni's median divided by the baseline's: above 1 is better
	// for "higher" metrics, below 1 for "lower" ones.
	Ratio   float64 `json:"ratio,omitempty"`
	Skipped string  `json:"skipped,omitempty"`
}

// Stat is the median and spread of one figure over the rounds.
type Stat struct {
	Median  float64   `json:"median"`
	Min     float64   `json:"min"`
	Max     float64   `json:"max"`
	Spread  float64   `json:"spread_pct"` // largest distance from the median, in % of it
	Samples []float64 `json:"samples"`
}

// Target is one goal of the issue, and whether this run met it.
type Target struct {
	What     string `json:"what"`
	Met      bool   `json:"met"`
	Measured string `json:"measured"`
	Skipped  string `json:"skipped,omitempty"`
}

// Duration encodes as seconds in JSON.
type Duration time.Duration

func (d Duration) MarshalJSON() ([]byte, error) {
	return json.Marshal(math.Round(time.Duration(d).Seconds()*1000) / 1000)
}

// newStat summarises samples (one per round).
func newStat(samples []float64) Stat {
	if len(samples) == 0 {
		return Stat{}
	}
	s := slices.Clone(samples)
	slices.Sort(s)
	med := s[len(s)/2]
	if len(s)%2 == 0 {
		med = (s[len(s)/2-1] + s[len(s)/2]) / 2
	}
	st := Stat{Median: med, Min: s[0], Max: s[len(s)-1], Samples: samples}
	if med != 0 {
		st.Spread = math.Max(st.Max-med, med-st.Min) / math.Abs(med) * 100
	}
	return st
}

// row makes a row from per-round samples of beeuni and of each baseline
// (nil samples with a reason in skipped[i] for a baseline not run).
func (sc *Scenario) row(caseName, metric, better string, beeuni []float64, baselines ...[]float64) *Row {
	r := &Row{Case: caseName, Metric: metric, Better: better, Beeuni: newStat(beeuni)}
	for i, name := range sc.Baselines {
		c := Cmp{Name: name}
		if i < len(baselines) && len(baselines[i]) > 0 {
			st := newStat(baselines[i])
			c.Stat = &st
			if st.Median != 0 {
				c.Ratio = r.Beeuni.Median / st.Median
			}
		} else {
			c.Skipped = "not run"
		}
		r.Baselines = append(r.Baselines, c)
	}
	sc.Rows = append(sc.Rows, r)
	return r
}

// skip marks baseline i of the row as skipped for why.
func (r *Row) skip(i int, why string) {
	if i < len(r.Baselines) && r.Baselines[i].Stat == nil {
		r.Baselines[i].Skipped = why
	}
}

func (sc *Scenario) note(format string, args ...any) {
	sc.Notes = append(sc.Notes, fmt.Sprintf(format, args...))
}

func (sc *Scenario) target(what string, met bool, format string, args ...any) {
	sc.Targets = append(sc.Targets, Target{What: what, Met: met, Measured: fmt.Sprintf(format, args...)})
}

func (sc *Scenario) targetSkipped(what, why string) {
	sc.Targets = append(sc.Targets, Target{What: what, Skipped: why})
}

// WriteJSON writes the report as indented JSON.
func (r *Report) WriteJSON(w io.Writer) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(r)
}

// WriteTable writes the machine facts, then one table per scenario with its
// targets and notes.
func (r *Report) WriteTable(w io.Writer) error {
	var b strings.Builder
	m := r.Machine
	fmt.Fprintf(&b, "machine: %s, %d cores, GOMAXPROCS %d, GOGC %d, %s, %s/%s", m.CPU, m.Cores, m.GOMAXPROCS, m.GOGC, m.GoVersion, m.OS, m.Arch)
	if m.Kernel != "" {
		fmt.Fprintf(&b, " (kernel %s)", m.Kernel)
	}
	fmt.Fprintf(&b, "\n         memory %s, load average at start %s", m.Memory, m.LoadAvg)
	fmt.Fprintf(&b, "\nbaselines: node %s, bun %s, git %s\n", orNone(m.Node), orNone(m.Bun), orNone(m.Git))
	fmt.Fprintf(&b, "rounds: %d per figure (median ±spread = largest distance of a round from the median)", r.Rounds)
	if r.Quick {
		b.WriteString(", --quick sizes")
	}
	fmt.Fprintf(&b, "; ratio = beeuni / baseline; took %s\n", time.Duration(r.Elapsed).Round(time.Second))
	if _, err := io.WriteString(w, b.String()); err != nil {
		return err
	}
	for _, sc := range r.Scenarios {
		if err := sc.writeTable(w); err != nil {
			return err
		}
	}
	return nil
}

func orNone(s string) string {
	if s == "" {
		return "(not found)"
	}
	return s
}

func (sc *Scenario) writeTable(w io.Writer) error {
	fmt.Fprintf(w, "\n== %s: %s (took %s) ==\n", sc.Name, sc.Title, time.Duration(sc.Elapsed).Round(100*time.Millisecond))
	tw := tabwriter.NewWriter(w, 2, 4, 2, ' ', 0)
	head := []string{"CASE", "METRIC", "BEEUNI"}
	for _, b := range sc.Baselines {
		head = append(head, strings.ToUpper(b), "RATIO")
	}
	fmt.Fprintln(tw, strings.Join(head, "\t"))
	for _, r := range sc.Rows {
		cells := []string{r.Case, r.Metric + better(r.Better), fmtStat(r.Beeuni)}
		for _, c := range r.Baselines {
			if c.Stat == nil {
				cells = append(cells, "-", "-")
				continue
			}
			ratio := "-"
			if c.Ratio != 0 {
				ratio = fmt.Sprintf("%.2fx", c.Ratio)
			}
			cells = append(cells, fmtStat(*c.Stat), ratio)
		}
		fmt.Fprintln(tw, strings.Join(cells, "\t"))
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	var b strings.Builder
	for _, t := range sc.Targets {
		switch {
		case t.Skipped != "":
			fmt.Fprintf(&b, "  target [skipped] %s: %s\n", t.What, t.Skipped)
		case t.Met:
			fmt.Fprintf(&b, "  target [met]     %s: %s\n", t.What, t.Measured)
		default:
			fmt.Fprintf(&b, "  target [MISSED]  %s: %s\n", t.What, t.Measured)
		}
	}
	skipped := map[string]bool{}
	for _, r := range sc.Rows {
		for _, c := range r.Baselines {
			if c.Stat == nil && c.Skipped != "" && !skipped[c.Name+c.Skipped] {
				skipped[c.Name+c.Skipped] = true
				fmt.Fprintf(&b, "  baseline %s skipped: %s\n", c.Name, c.Skipped)
			}
		}
	}
	for _, n := range sc.Notes {
		fmt.Fprintf(&b, "  note: %s\n", n)
	}
	_, err := io.WriteString(w, b.String())
	return err
}

func better(b string) string {
	if b == "higher" {
		return " ↑"
	}
	return " ↓"
}

func fmtStat(s Stat) string {
	if len(s.Samples) == 0 {
		return "-"
	}
	v := fmtNum(s.Median)
	if len(s.Samples) > 1 {
		v += fmt.Sprintf(" ±%.0f%%", s.Spread)
	}
	return v
}

// fmtNum prints three significant digits, or an integer for large values.
func fmtNum(v float64) string {
	a := math.Abs(v)
	switch {
	case v == math.Trunc(v) && a < 1e9:
		return fmt.Sprintf("%.0f", v)
	case a >= 1000:
		return fmt.Sprintf("%.0f", v)
	case a >= 100:
		return fmt.Sprintf("%.0f", v)
	case a >= 10:
		return fmt.Sprintf("%.1f", v)
	case a >= 1:
		return fmt.Sprintf("%.2f", v)
	default:
		return fmt.Sprintf("%.3f", v)
	}
}

// ms converts a duration to milliseconds for figures.
func ms(d time.Duration) float64 { return float64(d) / float64(time.Millisecond) }

// percentile returns the p-th percentile (0..1) of sorted durations.
func percentile(sorted []time.Duration, p float64) time.Duration {
	if len(sorted) == 0 {
		return 0
	}
	i := int(math.Ceil(p*float64(len(sorted)))) - 1
	return sorted[max(0, min(i, len(sorted)-1))]
}
