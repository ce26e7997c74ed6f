// Package examples embeds the demo project so `beeuni up --demo` can make a
// Git repository of it anywhere, with no checkout of beeuni at hand.
package examples

import "embed"

// Demo is the demo project; its files sit under "demo/".
//
//go:embed demo
var Demo embed.FS
