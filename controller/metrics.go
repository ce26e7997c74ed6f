package controller

import "github.com/prometheus/client_golang/prometheus"

type metrics struct {
	builds        *prometheus.CounterVec
	buildDuration prometheus.Histogram
	rejected      prometheus.Counter
	lastSuccess   prometheus.Gauge
	gitErrors     prometheus.Counter
	publishErrors prometheus.Counter
	hooks         *prometheus.CounterVec
}

func newMetrics(reg prometheus.Registerer, project string) (*metrics, error) {
	labels := prometheus.Labels{"project": project}
	m := &metrics{
		builds: prometheus.NewCounterVec(prometheus.CounterOpts{Name: "beeuni_controller_builds_total",
			Help: "Releases built, by outcome (published, rejected, error).", ConstLabels: labels}, []string{"outcome"}),
		buildDuration: prometheus.NewHistogram(prometheus.HistogramOpts{Name: "beeuni_controller_build_duration_seconds",
			Help: "Time to build and validate one release.", ConstLabels: labels, Buckets: prometheus.ExponentialBuckets(0.001, 2, 16)}),
		rejected: prometheus.NewCounter(prometheus.CounterOpts{Name: "beeuni_controller_rejected_releases_total",
			Help: "Releases rejected because their manifest has errors.", ConstLabels: labels}),
		lastSuccess: prometheus.NewGauge(prometheus.GaugeOpts{Name: "beeuni_controller_last_success_timestamp_seconds",
			Help: "When the controller last looked at the branch without error.", ConstLabels: labels}),
		gitErrors: prometheus.NewCounter(prometheus.CounterOpts{Name: "beeuni_controller_git_errors_total",
			Help: "Failed reads or fetches of the watched repository.", ConstLabels: labels}),
		publishErrors: prometheus.NewCounter(prometheus.CounterOpts{Name: "beeuni_controller_publish_errors_total",
			Help: "Failed publishes to NATS (retried).", ConstLabels: labels}),
		hooks: prometheus.NewCounterVec(prometheus.CounterOpts{Name: "beeuni_controller_hooks_total",
			Help: "Merge hook calls, by result.", ConstLabels: labels}, []string{"result"}),
	}
	for _, c := range []prometheus.Collector{m.builds, m.buildDuration, m.rejected, m.lastSuccess, m.gitErrors, m.publishErrors, m.hooks} {
		if err := reg.Register(c); err != nil {
			return nil, err
		}
	}
	return m, nil
}
