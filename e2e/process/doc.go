// Package process is beeuni's end-to-end fault suite with real processes:
// the beeuni binary is built once per run, controllers and executors run as
// child processes against a real NATS server, and the tests kill, restart
// and flood them to prove no data is lost and the fleet ends up right.
//
// The package has no code of its own; run it with `go test ./e2e/process/`
// (skipped with -short).
package process
