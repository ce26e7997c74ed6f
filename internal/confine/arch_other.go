//go:build !amd64 && !arm64

package confine

// auditArch 0: no socket filter here, so a policy without the network
// is refused rather than applied by halves.
const auditArch = 0
