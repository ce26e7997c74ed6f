package loader

import (
	"github.com/beeuni/beeuni/loader/builtin"
	"github.com/beeuni/beeuni/loader/jshost"
)

// Specs turns the tools a session gets into the JS host's load specs: a
// Beeuni tool runs the source embedded in the binary (the bytes `tools eject`
// writes), any other tool its module in the checkout; a module of the legacy
// folder on the default runtime is marked Legacy (it may take opencode's
// form). The controller, the executor and `beeuni tools call` all load
// through it, so they agree.
func (p *Project) Specs() []jshost.Spec {
	specs := make([]jshost.Spec, 0, len(p.Tools))
	for _, t := range p.Tools {
		if code, ok := builtin.Source(t.BuiltinName()); t.IsBuiltin() && ok {
			specs = append(specs, jshost.Spec{Name: t.Name, Source: t.Source, Code: code})
			continue
		}
		specs = append(specs, jshost.Spec{Name: t.Name, Source: t.Source, Path: t.Source, Legacy: p.legacy[t.Name] == t.Source})
	}
	return specs
}
