// Package compat is the host-compatibility corpus (SPEC section 11): real tool
// modules from public repositories, one small tool per popular npm package,
// and probes of the Node and Bun APIs tool authors use. Its test runs each
// case through `beeuni tools call` and compares the answer with what Bun
// prints for the same module and arguments (Node too, where the module is
// not Bun-specific). manifest.json lists the cases and their origins,
// golden/ holds Bun's answers, expected.json says which cases must match,
// and RESULTS.md is the last table (go test ./e2e/compat -update writes it).
package compat
