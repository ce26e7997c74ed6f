package controller

import (
	"encoding/json"

	"github.com/beeuni/beeuni/release"
)

// releaseEvent is the payload of release.* events: what an operator needs
// to see, without the entries.
type releaseEvent struct {
	Release  string            `json:"release"`
	Commit   string            `json:"commit"`
	Subject  string            `json:"subject"`
	Status   string            `json:"status"`
	Tools    int               `json:"tools"`
	Warnings []release.Finding `json:"warnings,omitempty"`
	Findings []release.Finding `json:"findings,omitempty"`
}

func eventOf(rec *release.Record) releaseEvent {
	return releaseEvent{Release: rec.ID, Commit: rec.Commit, Subject: rec.Subject, Status: rec.Status,
		Tools: len(rec.Tools), Warnings: rec.Warnings, Findings: rec.Findings}
}

// mustJSON encodes values that always encode (plain structs of strings,
// numbers and byte slices).
func mustJSON(v any) []byte {
	b, err := json.Marshal(v)
	if err != nil {
		panic("controller: encode " + err.Error())
	}
	return b
}

func jsonUnmarshal(b []byte, v any) error { return json.Unmarshal(b, v) }
