package rt

// The versions the host emulates: process.versions.bun and Bun.version
// say BunVersion (the Bun 1.x whose APIs the bun platform follows).
const (
	BunVersion  = "1.2.0"
	BunRevision = "beeuni" // Bun.revision: not a Bun build, so no Bun commit
)
