package executor

import (
	"fmt"
	"time"

	"github.com/prometheus/client_golang/prometheus"
)

// Call outcomes, the values of the calls counter's "outcome" label.
const (
	outcomeOK          = "ok"          // the tool answered
	outcomeToolError   = "tool_error"  // the tool threw, timed out or was interrupted
	outcomeCanceled    = "canceled"    // the client went away before the tool answered
	outcomeNotLoaded   = "not_loaded"  // 404
	outcomeHidden      = "hidden"      // 403
	outcomeBadRequest  = "bad_request" // 400
	outcomeTooLarge    = "too_large"   // 413
	outcomeUnavailable = "unavailable" // 503: no tool set loaded yet

	outcomeInvalidArgs       = "invalid_args"        // the arguments were rejected (§1.6): the tool did not run
	outcomeInvalidArgsWarned = "invalid_args_warned" // --validate-args warn: they did not match, the tool ran
)

// unknownTool labels calls to names that are not loaded, so a client sending
// random names cannot grow the label set without bound.
const unknownTool = "(not loaded)"

// metrics are one executor's Prometheus collectors, registered on the
// executor's own registry.
type metrics struct {
	calls        *prometheus.CounterVec
	latency      *prometheus.HistogramVec
	release      *prometheus.GaugeVec
	switches     prometheus.Counter
	switchDrain  prometheus.Histogram
	loadSeconds  prometheus.Histogram
	toolsLoaded  prometheus.Gauge
	loadFailed   prometheus.Gauge
	loadFailures prometheus.Counter

	idleReleases prometheus.Counter // heap given back to the OS when idle

	batches    *prometheus.CounterVec // POST /beeuni/batch, by outcome
	batchCalls prometheus.Histogram   // calls per batch
}

func newMetrics(reg prometheus.Registerer, turns, inFlight func() float64) (*metrics, error) {
	m := &metrics{
		calls: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "beeuni_executor_calls_total",
			Help: "Tool calls answered, by tool and outcome (ok, tool_error, canceled, not_loaded, hidden, bad_request, too_large, unavailable, invalid_args, invalid_args_warned).",
		}, []string{"tool", "outcome"}),
		latency: prometheus.NewHistogramVec(prometheus.HistogramOpts{
			Name:    "beeuni_executor_call_duration_seconds",
			Help:    "Time a loaded tool took to answer a call, by tool.",
			Buckets: []float64{.0005, .001, .0025, .005, .01, .025, .05, .1, .25, .5, 1, 2.5, 5, 10, 30, 60},
		}, []string{"tool"}),
		release: prometheus.NewGaugeVec(prometheus.GaugeOpts{
			Name: "beeuni_executor_release_info",
			Help: "The release whose tool set new sessions get (value 1).",
		}, []string{"release"}),
		switches: prometheus.NewCounter(prometheus.CounterOpts{
			Name: "beeuni_executor_switches_total",
			Help: "Tool set switches.",
		}),
		switchDrain: prometheus.NewHistogram(prometheus.HistogramOpts{
			Name:    "beeuni_executor_switch_duration_seconds",
			Help:    "Time from a switch until the previous tool set was freed: every turn and call that used it had ended.",
			Buckets: prometheus.ExponentialBuckets(0.001, 4, 12),
		}),
		loadSeconds: prometheus.NewHistogram(prometheus.HistogramOpts{
			Name:    "beeuni_executor_load_duration_seconds",
			Help:    "Time to read the manifest and load a release's tool set, for the sets switched in.",
			Buckets: prometheus.ExponentialBuckets(0.005, 2.5, 10),
		}),
		toolsLoaded: prometheus.NewGauge(prometheus.GaugeOpts{
			Name: "beeuni_executor_tools_loaded",
			Help: "Tools loaded in the current tool set.",
		}),
		loadFailed: prometheus.NewGauge(prometheus.GaugeOpts{
			Name: "beeuni_executor_tool_load_failures",
			Help: "Failures (tools that did not load, manifest errors) of the current tool set.",
		}),
		loadFailures: prometheus.NewCounter(prometheus.CounterOpts{
			Name: "beeuni_executor_tool_load_failures_total",
			Help: "Failures of every tool set switched in since start.",
		}),
	}
	m.idleReleases = prometheus.NewCounter(prometheus.CounterOpts{
		Name: "beeuni_executor_idle_memory_releases_total",
		Help: "Times the executor gave its heap back to the OS after going idle (--idle-release).",
	})
	m.batches = prometheus.NewCounterVec(prometheus.CounterOpts{
		Name: "beeuni_batch_requests_total",
		Help: "Batch requests answered, by outcome (ok, bad_request, too_large, unavailable, canceled).",
	}, []string{"outcome"})
	m.batchCalls = prometheus.NewHistogram(prometheus.HistogramOpts{
		Name:    "beeuni_batch_calls",
		Help:    "Calls in each batch request.",
		Buckets: []float64{1, 2, 4, 8, 16, 32, 64},
	})
	turnsGauge := prometheus.NewGaugeFunc(prometheus.GaugeOpts{
		Name: "beeuni_executor_turns_running",
		Help: "Sessions whose turn is running (each keeps the tool set its turn began on).",
	}, turns)
	inFlightGauge := prometheus.NewGaugeFunc(prometheus.GaugeOpts{
		Name: "beeuni_executor_calls_in_flight",
		Help: "Tool calls running now.",
	}, inFlight)
	for _, c := range []prometheus.Collector{m.calls, m.latency, m.release, m.switches, m.switchDrain,
		m.loadSeconds, m.toolsLoaded, m.loadFailed, m.loadFailures, turnsGauge, inFlightGauge, m.batches, m.batchCalls, m.idleReleases} {
		if err := reg.Register(c); err != nil {
			return nil, fmt.Errorf("register executor metrics: %w", err)
		}
	}
	return m, nil
}

// switched records that ts became the current tool set.
func (m *metrics) switched(ts *ToolSet) {
	m.switches.Inc()
	m.release.Reset()
	m.release.WithLabelValues(ts.Release()).Set(1)
	m.loadSeconds.Observe(ts.loadDuration.Seconds())
	m.toolsLoaded.Set(float64(len(ts.tools)))
	m.loadFailed.Set(float64(len(ts.failures)))
	m.loadFailures.Add(float64(len(ts.failures)))
}

// called records one answered call.
func (m *metrics) called(tool, outcome string, d time.Duration) {
	m.calls.WithLabelValues(tool, outcome).Inc()
	if d > 0 {
		m.latency.WithLabelValues(tool).Observe(d.Seconds())
	}
}

// batch records one batch request and its number of calls (0: the
// envelope was refused before they were counted).
func (m *metrics) batch(outcome string, calls int) {
	m.batches.WithLabelValues(outcome).Inc()
	if calls > 0 {
		m.batchCalls.Observe(float64(calls))
	}
}
