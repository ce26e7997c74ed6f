package intl

import (
	"embed"
	"encoding/json"
	"fmt"
	"io"
	"strings"
	"sync"

	"github.com/andybalholm/brotli"
)

//go:generate bun gen.js

// dataFS is what gen.js asked Bun's Intl (ICU, CLDR) for: patterns,
// symbols and words, one brotli'd JSON file a locale and one of what
// they share.
//
//go:embed data
var dataFS embed.FS

// bundle is the shared data: read-only once made. A locale's file is
// decoded on its first use (a runtime uses one or two locales).
type bundle struct {
	Version          string            `json:"version"`
	NumberingSystems map[string]string `json:"numberingSystems"`
	Zones            []string          `json:"zones"`
	ZoneGroups       [][]string        `json:"zoneGroups"`
	Currencies       []string          `json:"currencies"`
	Regions          []string          `json:"regions"`
	Languages        []string          `json:"languages"`
	Scripts          []string          `json:"scripts"`
	// Aliases are locales ICU has that format as one of the recorded do.
	Aliases map[string]string `json:"aliases"`
	// Bases: a regional locale's file is a JSON merge patch on its base's.
	Bases map[string]string `json:"bases"`

	zoneByFold  map[string]string // lower-case name: name
	zoneGroupOf map[string]int
	locales     map[string]func() *localeData
}

var data = sync.OnceValue(loadData)

func loadData() *bundle {
	b := &bundle{}
	if err := json.Unmarshal(readData("data/common.json.br"), b); err != nil {
		panic(fmt.Errorf("intl: decoding the embedded locale data: %w", err))
	}
	b.zoneByFold = make(map[string]string, len(b.Zones))
	for _, z := range b.Zones {
		b.zoneByFold[strings.ToLower(z)] = z
	}
	b.zoneGroupOf = map[string]int{}
	for i, g := range b.ZoneGroups {
		for _, z := range g {
			b.zoneGroupOf[z] = i
		}
	}
	files, err := dataFS.ReadDir("data/locales")
	if err != nil {
		panic(fmt.Errorf("intl: the embedded locale data: %w", err))
	}
	b.locales = make(map[string]func() *localeData, len(files))
	for _, f := range files {
		name := strings.TrimSuffix(f.Name(), ".json.br")
		b.locales[name] = sync.OnceValue(func() *localeData {
			l := &localeData{}
			if err := json.Unmarshal(b.localeJSON(name), l); err != nil {
				panic(fmt.Errorf("intl: decoding the data of %s: %w", name, err))
			}
			return l
		})
	}
	return b
}

// localeJSON is the JSON of a locale, its base's patched when it has one.
func (b *bundle) localeJSON(name string) []byte {
	raw := readData("data/locales/" + name + ".json.br")
	base, ok := b.Bases[name]
	if !ok {
		return raw
	}
	var doc, patch any
	if err := json.Unmarshal(b.localeJSON(base), &doc); err != nil {
		panic(fmt.Errorf("intl: decoding the data of %s: %w", base, err))
	}
	if err := json.Unmarshal(raw, &patch); err != nil {
		panic(fmt.Errorf("intl: decoding the data of %s: %w", name, err))
	}
	out, err := json.Marshal(mergePatch(doc, patch))
	if err != nil {
		panic(fmt.Errorf("intl: the data of %s: %w", name, err))
	}
	return out
}

// mergePatch applies an RFC 7386 merge patch (null deletes a key).
func mergePatch(doc, patch any) any {
	p, ok := patch.(map[string]any)
	if !ok {
		return patch
	}
	d, ok := doc.(map[string]any)
	if !ok {
		d = map[string]any{}
	}
	for k, v := range p {
		if v == nil {
			delete(d, k)
		} else {
			d[k] = mergePatch(d[k], v)
		}
	}
	return d
}

func readData(path string) []byte {
	f, err := dataFS.Open(path)
	if err != nil {
		panic(fmt.Errorf("intl: the embedded locale data: %w", err))
	}
	defer f.Close()
	raw, err := io.ReadAll(brotli.NewReader(f))
	if err != nil {
		panic(fmt.Errorf("intl: reading the embedded %s: %w", path, err))
	}
	return raw
}

// locale is the data of name (or of the locale it aliases), nil if
// gen.js did not record it.
func (b *bundle) locale(name string) *localeData {
	if a, ok := b.Aliases[name]; ok {
		name = a
	}
	if f := b.locales[name]; f != nil {
		return f()
	}
	return nil
}

// tmpl is a pattern as formatToParts parts ([type, value]); ["N"] is the
// formatted number.
type tmpl [][]string

type localeData struct {
	Num     numData                         `json:"num"`
	Plural  []string                        `json:"plural"`
	Ordinal []string                        `json:"ordinal"`
	RTF     map[string]map[string]rtfUnit   `json:"rtf"`
	List    map[string]map[string][4]string `json:"list"`
	DTF     dtfData                         `json:"dtf"`
	Names   map[string][]*string            `json:"names"`
}

type numData struct {
	Nu     string              `json:"nu"`
	Dec    string              `json:"dec"`
	Grp    string              `json:"grp"`
	Minus  string              `json:"minus"`
	Plus   string              `json:"plus"`
	Pct    string              `json:"pct"`
	Exp    string              `json:"exp"`
	NaN    string              `json:"nan"`
	Inf    string              `json:"inf"`
	G      [2]int              `json:"g"`
	Mg     int                 `json:"mg"`
	Styles map[string]signTmpl `json:"styles"`
	Cur    map[string]curData  `json:"cur"`
	// Compact: style, magnitude, plural category: [divisor exponent,
	// pattern, negative pattern].
	Compact map[string]map[string]map[string][]json.RawMessage `json:"compact"`
	// Units: unit, display, plural category.
	Units map[string]map[string]map[string]tmpl `json:"units"`
	Cats  []string                              `json:"cats"`
}

type signTmpl struct {
	Pos  tmpl   `json:"pos"`
	Neg  tmpl   `json:"neg"`
	Plus tmpl   `json:"plus"`
	G    [2]int `json:"g"` // the pattern's group sizes (en-IN's accounting groups by 3)
	// Dec and Grp are the pattern's symbols (de-AT groups currency by ".").
	Dec string `json:"dec"`
	Grp string `json:"grp"`
}

type curData struct {
	Symbol   string          `json:"s"`
	Narrow   string          `json:"n"`
	Names    map[string]tmpl `json:"names"`
	NegNames map[string]tmpl `json:"negNames"`
}

type rtfUnit struct {
	Future map[string]tmpl   `json:"future"`
	Past   map[string]tmpl   `json:"past"`
	Auto   map[string]string `json:"auto"`
}

type dtfData struct {
	Calendar string            `json:"calendar"`
	Nu       string            `json:"nu"`
	Hc       string            `json:"hc"`
	Hc12     string            `json:"hc12"`
	D        map[string]string `json:"d"`
	T        map[string]string `json:"t"`
	Glue     map[string]string `json:"glue"`
	Both     map[string]string `json:"both"`
	Styles   map[string]string `json:"styles"`
	Lists    [][]string        `json:"lists"`
	Zones    zoneData          `json:"zones"`
}

type zoneData struct {
	GMT       map[string]string   `json:"gmt"`
	Short     map[string][]string `json:"short"`
	Long      [][]string          `json:"long"`
	LongZones map[string][]string `json:"longZones"`
}
