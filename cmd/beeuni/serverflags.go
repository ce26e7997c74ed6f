package main

import (
	"strings"

	"github.com/beeuni/beeuni/executor"
)

// serverFlags are the executor API's flags of SPEC-beyond (`beeuni
// executor` and `beeuni up`): argument validation and MCP's origins.
type serverFlags struct {
	validateArgs string
	mcpOrigins   string
	mode         executor.ValidateMode // validateArgs, once checked
}

func (a *app) addServerFlags(fl interface {
	StringVar(*string, string, string, string)
}, f *serverFlags) {
	fl.StringVar(&f.validateArgs, "validate-args", a.getenv("BEEUNI_VALIDATE_ARGS"),
		"check tool arguments against their parameters schema: off (the default: tools get the arguments as sent), warn or enforce; MCP enforces unless this is off (env BEEUNI_VALIDATE_ARGS)")
	fl.StringVar(&f.mcpOrigins, "mcp-allowed-origins", "",
		"comma-separated origins (scheme://host[:port]) a browser may call /beeuni/mcp from; loopback origins are allowed on a loopback address")
}

// checkServerFlags checks the flags and reports a usage error.
func (a *app) checkServerFlags(f *serverFlags) bool {
	mode, err := executor.ParseValidateMode(f.validateArgs)
	if err != nil {
		a.errorf(nil, "--validate-args: %v", err)
		return false
	}
	f.mode = mode
	return true
}

// apply sets the flags' options on o.
func (f *serverFlags) apply(o executor.Options) executor.Options {
	o.ValidateArgs = f.mode
	for _, origin := range strings.Split(f.mcpOrigins, ",") {
		if origin = strings.TrimSpace(origin); origin != "" {
			o.MCPAllowedOrigins = append(o.MCPAllowedOrigins, origin)
		}
	}
	return o
}
