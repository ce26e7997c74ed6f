package executor

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"slices"
	"strconv"
	"time"
)

// parseBatch checks a batch's body (SPEC-beyond §2.2). Its error says
// which field to change; no call runs when there is one.
func parseBatch(body []byte) (batch, error) {
	const shape = `send {"calls": [{"name": "<tool>", "args": {...}}, ...]}`
	top, err := jsonObject(body, "the body")
	if err != nil {
		return batch{}, fmt.Errorf("%w: %s", err, shape)
	}
	b := batch{maxConcurrency: defaultBatchParallel}
	for _, k := range sortedKeys(top) {
		v := top[k]
		switch k {
		case "calls":
		case "timeout_ms":
			if b.timeoutMS, err = positiveInt(v, "timeout_ms", math.MaxInt64/int64(time.Millisecond)); err != nil {
				return batch{}, err
			}
			b.timeout = time.Duration(b.timeoutMS) * time.Millisecond
		case "max_concurrency":
			n, err := positiveInt(v, "max_concurrency", maxBatchConcurrency)
			if err != nil {
				return batch{}, fmt.Errorf("max_concurrency must be a whole number from 1 to %d", maxBatchConcurrency)
			}
			b.maxConcurrency = int(n)
		case "stop_on_error":
			if err := json.Unmarshal(v, &b.stopOnError); err != nil || bytes.Equal(v, []byte("null")) {
				return batch{}, fmt.Errorf("stop_on_error must be true or false")
			}
		default:
			return batch{}, fmt.Errorf("unknown key %q: a batch takes calls, timeout_ms, max_concurrency and stop_on_error", k)
		}
	}
	raw, ok := top["calls"]
	if !ok {
		return batch{}, fmt.Errorf("calls is missing: %s", shape)
	}
	var calls []json.RawMessage
	if err := json.Unmarshal(raw, &calls); err != nil || calls == nil {
		return batch{}, fmt.Errorf("calls must be an array of calls: %s", shape)
	}
	switch {
	case len(calls) == 0:
		return batch{}, fmt.Errorf("calls is empty: send 1 to %d calls", maxBatchCalls)
	case len(calls) > maxBatchCalls:
		return batch{}, fmt.Errorf("calls has %d entries: send at most %d per batch (split it)", len(calls), maxBatchCalls)
	}
	seen := make(map[string]int, len(calls))
	for i, rc := range calls {
		c, err := parseBatchCall(i, rc)
		if err != nil {
			return batch{}, err
		}
		if _, dup := seen[c.id]; dup {
			return batch{}, fmt.Errorf("calls[%d].id %q is used twice: give each call its own id (or leave id out)", i, c.id)
		}
		seen[c.id] = i
		b.calls = append(b.calls, c)
	}
	return b, nil
}

func parseBatchCall(i int, raw json.RawMessage) (batchCall, error) {
	field := func(name string) string { return fmt.Sprintf("calls[%d].%s", i, name) }
	obj, err := jsonObject(raw, fmt.Sprintf("calls[%d]", i))
	if err != nil {
		return batchCall{}, fmt.Errorf(`%w: a call is {"id", "name", "args", "timeout_ms"}`, err)
	}
	c := batchCall{id: strconv.Itoa(i), args: json.RawMessage("{}")}
	for _, k := range sortedKeys(obj) {
		v := obj[k]
		switch k {
		case "id":
			if err := json.Unmarshal(v, &c.id); err != nil || len(c.id) == 0 || len(c.id) > maxBatchCallIDLen {
				return batchCall{}, fmt.Errorf("%s must be a string of 1 to %d bytes (or leave id out)", field("id"), maxBatchCallIDLen)
			}
		case "name":
			if err := json.Unmarshal(v, &c.name); err != nil || c.name == "" {
				return batchCall{}, fmt.Errorf("%s must be the tool's name, a string", field("name"))
			}
		case "args":
			if _, err := jsonObject(v, field("args")); err != nil {
				return batchCall{}, fmt.Errorf(`%w: send the arguments as a JSON object, e.g. {"query": "..."}`, err)
			}
			c.args = v
		case "timeout_ms":
			if c.timeoutMS, err = positiveInt(v, field("timeout_ms"), math.MaxInt64/int64(time.Millisecond)); err != nil {
				return batchCall{}, err
			}
		default:
			return batchCall{}, fmt.Errorf("%s: unknown key %q: a call takes id, name, args and timeout_ms", fmt.Sprintf("calls[%d]", i), k)
		}
	}
	if c.name == "" {
		return batchCall{}, fmt.Errorf("%s is missing: name the tool to call", field("name"))
	}
	return c, nil
}

// jsonObject decodes one JSON object's members (values kept raw, so the
// arguments' own duplicate keys reach the call's checks); what names the
// value in the error.
func jsonObject(raw []byte, what string) (map[string]json.RawMessage, error) {
	raw = bytes.Trim(raw, " \t\r\n")
	if len(raw) == 0 {
		return nil, fmt.Errorf("%s is empty", what)
	}
	if raw[0] != '{' {
		if !json.Valid(raw) {
			return nil, fmt.Errorf("%s is not valid JSON", what)
		}
		return nil, fmt.Errorf("%s must be a JSON object, not %s", what, jsonKind(raw[0]))
	}
	var obj map[string]json.RawMessage
	if err := json.Unmarshal(raw, &obj); err != nil {
		return nil, fmt.Errorf("%s is not valid JSON (%v)", what, err)
	}
	return obj, nil
}

// positiveInt reads a whole number from 1 to limit.
func positiveInt(raw json.RawMessage, name string, limit int64) (int64, error) {
	var f float64
	if err := json.Unmarshal(raw, &f); err != nil || bytes.Equal(raw, []byte("null")) || f < 1 || f != math.Trunc(f) || f > float64(limit) {
		return 0, fmt.Errorf("%s must be a whole number of milliseconds, at least 1", name)
	}
	return int64(f), nil
}

// sortedKeys orders an object's keys, so the first error named is the
// same on every run.
func sortedKeys(m map[string]json.RawMessage) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}
