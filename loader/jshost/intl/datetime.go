package intl

import (
	"math"
	"os"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/dop251/goja"
)

// dateTimeFormat is one Intl.DateTimeFormat: its pattern and settings.
type dateTimeFormat struct {
	loc                  resolved
	calendar, nu, digits string
	zone                 string
	location             *time.Location
	hc                   string // the hour cycle, "" without an hour
	hour12Set            bool   // hour12, hourCycle or -u-hc- chose the hour cycle
	hourOption           bool   // hour12 or hourCycle did
	monthAsIs            bool   // the pattern is ICU's for a 2-digit month: its width stays
	minuteAsIs           bool   // and for a 2-digit minute
	pattern              []token
	dateStyle, timeStyle string
	req                  map[string]string // the component options asked for
}

// token is a pattern piece: a literal, or a field ({y}, {M:3}...).
type token struct {
	lit   string
	field string // y yy M MM d dd h hh m mm s ss z, or M E a G with list
	list  int
}

var componentOptions = []struct {
	name    string
	allowed []string
	message string
}{
	{"weekday", []string{"narrow", "short", "long"}, `weekday must be "narrow", "short", or "long"`},
	{"era", []string{"narrow", "short", "long"}, `era must be "narrow", "short", or "long"`},
	{"year", []string{"2-digit", "numeric"}, `year must be "2-digit" or "numeric"`},
	{"month", []string{"2-digit", "numeric", "narrow", "short", "long"}, `month must be "2-digit", "numeric", "narrow", "short", or "long"`},
	{"day", []string{"2-digit", "numeric"}, `day must be "2-digit" or "numeric"`},
	{"dayPeriod", []string{"narrow", "short", "long"}, `dayPeriod must be "narrow", "short", or "long"`},
	{"hour", []string{"2-digit", "numeric"}, `hour must be "2-digit" or "numeric"`},
	{"minute", []string{"2-digit", "numeric"}, `minute must be "2-digit" or "numeric"`},
	{"second", []string{"2-digit", "numeric"}, `second must be "2-digit" or "numeric"`},
	{"fractionalSecondDigits", nil, ""},
	{"timeZoneName", []string{"short", "long", "shortOffset", "longOffset", "shortGeneric", "longGeneric"}, `timeZoneName must be "short", "long", "shortOffset", "longOffset", "shortGeneric", or "longGeneric"`},
}

var styleNames = []string{"full", "long", "medium", "short"}

// newDateTimeFormat is ECMA-402's CreateDateTimeFormat; required and
// defaults are ToDateTimeOptions' (any/date/time, date/time/all).
func newDateTimeFormat(vm *goja.Runtime, locales, optv goja.Value, required, defaults string) *dateTimeFormat {
	loc := resolveLocale(vm, locales)
	o := newOptions(vm, optv)
	df := &dateTimeFormat{loc: loc, req: map[string]string{}}
	dd := &loc.data.DTF
	o.localeMatcher()
	if dd.Calendar == "" {
		panic(unsupported(vm, "Intl.DateTimeFormat in %s", loc.name))
	}
	df.calendar = o.str("calendar", "", "")
	if df.calendar == "" {
		df.calendar = loc.ext["ca"]
	}
	if df.calendar == "" {
		df.calendar = dd.Calendar
	}
	if df.calendar == "gregorian" {
		df.calendar = "gregory"
	}
	if df.calendar != "gregory" { // iso8601 too: ICU writes it otherwise ("2024  2, 15:04")
		panic(unsupported(vm, "Intl.DateTimeFormat calendar %q (of locale %s)", df.calendar, loc.name))
	}
	df.nu = o.str("numberingSystem", "", "")
	nss := data().NumberingSystems
	if df.nu == "" {
		if nu := loc.ext["nu"]; nss[nu] != "" {
			df.nu = nu
		} else {
			df.nu = dd.Nu
		}
	} else if nss[df.nu] == "" {
		panic(unsupported(vm, "numberingSystem %q", df.nu))
	}
	df.digits = nss[df.nu]
	hour12 := o.boolean("hour12")
	hourCycle := o.str("hourCycle", "", `hourCycle must be "h11", "h12", "h23", or "h24"`, "h11", "h12", "h23", "h24")
	if hour12 != 0 {
		hourCycle = ""
	}
	tz := o.get("timeZone")
	if goja.IsUndefined(tz) {
		df.zone = defaultTimeZone()
	} else {
		df.zone = tz.String()
	}
	var ok bool
	if df.zone, df.location, ok = loadZone(df.zone); !ok {
		panic(rangeError(vm, "invalid time zone: %s", tz.String()))
	}
	any := false
	for _, c := range componentOptions {
		if c.name == "fractionalSecondDigits" {
			if n := o.number(c.name, 1, 3, -1); n > 0 {
				panic(unsupported(vm, "Intl.DateTimeFormat fractionalSecondDigits"))
			}
			continue
		}
		if v := o.str(c.name, "", c.message, c.allowed...); v != "" {
			df.req[c.name] = v
			any = true
		}
	}
	o.str("formatMatcher", "best fit", `formatMatcher must be either "basic" or "best fit"`, "basic", "best fit")
	df.dateStyle = o.str("dateStyle", "", `dateStyle must be "full", "long", "medium", or "short"`, styleNames...)
	df.timeStyle = o.str("timeStyle", "", `timeStyle must be "full", "long", "medium", or "short"`, styleNames...)
	styled := df.dateStyle != "" || df.timeStyle != ""
	if styled && any {
		panic(vm.NewTypeError("dateStyle and timeStyle may not be used with other DateTimeFormat options"))
	}
	if styled {
		if required == "date" && df.timeStyle != "" && df.dateStyle == "" {
			panic(vm.NewTypeError("timeStyle is not allowed in toLocaleDateString"))
		}
		if required == "time" && df.dateStyle != "" && df.timeStyle == "" {
			panic(vm.NewTypeError("dateStyle is not allowed in toLocaleTimeString"))
		}
	} else {
		df.defaults(required, defaults)
	}
	if df.req["dayPeriod"] != "" {
		panic(unsupported(vm, "Intl.DateTimeFormat dayPeriod"))
	}
	hasHour := df.req["hour"] != "" || df.timeStyle != ""
	if hasHour {
		df.hc = resolveHourCycle(dd, loc.ext["hc"], hour12, hourCycle)
		df.hourOption = hour12 != 0 || hourCycle != ""
		df.hour12Set = df.hourOption || loc.ext["hc"] != ""
	}
	var src string
	if styled {
		key := or(df.dateStyle, "-") + "/" + or(df.timeStyle, "-")
		if df.timeStyle != "" && df.hour12Set {
			key += map[bool]string{true: "/12", false: "/23"}[df.hc == "h11" || df.hc == "h12"]
		}
		src, ok = dd.Styles[key]
	} else {
		src, ok = df.componentPattern(vm, dd)
	}
	if !ok {
		panic(unsupported(vm, "this combination of Intl.DateTimeFormat options in %s", loc.name))
	}
	df.pattern = parsePattern(src)
	if !styled {
		df.widen()
	}
	if strings.HasPrefix(df.req["timeZoneName"], "short") && df.req["timeZoneName"] != "short" && df.req["timeZoneName"] != "shortOffset" ||
		strings.HasSuffix(df.req["timeZoneName"], "Generic") {
		panic(unsupported(vm, "Intl.DateTimeFormat timeZoneName %q", df.req["timeZoneName"]))
	}
	return df
}

func or(s, def string) string {
	if s == "" {
		return def
	}
	return s
}

// defaults is ToDateTimeOptions: the fields added when none of the
// required kind was asked for.
func (df *dateTimeFormat) defaults(required, defaults string) {
	need := true
	if required == "date" || required == "any" {
		for _, k := range []string{"weekday", "year", "month", "day"} {
			if df.req[k] != "" {
				need = false
			}
		}
	}
	if required == "time" || required == "any" {
		for _, k := range []string{"dayPeriod", "hour", "minute", "second"} {
			if df.req[k] != "" {
				need = false
			}
		}
	}
	if need && (defaults == "date" || defaults == "all") {
		df.req["year"], df.req["month"], df.req["day"] = "numeric", "numeric", "numeric"
	}
	if need && (defaults == "time" || defaults == "all") {
		df.req["hour"], df.req["minute"], df.req["second"] = "numeric", "numeric", "numeric"
	}
}

func resolveHourCycle(dd *dtfData, ext string, hour12 int, hourCycle string) string {
	switch {
	case hour12 == 2:
		return dd.Hc12
	case hour12 == 1:
		return "h23"
	case hourCycle != "":
		return hourCycle
	case ext == "h11" || ext == "h12" || ext == "h23" || ext == "h24":
		return ext
	}
	return dd.Hc
}

// componentPattern is ICU's pattern for the asked fields: a recorded
// combination, or the date and time patterns joined as the locale joins
// them.
func (df *dateTimeFormat) componentPattern(vm *goja.Runtime, dd *dtfData) (string, bool) {
	r := df.req
	key := func(v string, m map[string]string) string {
		if v == "" {
			return "-"
		}
		return m[v]
	}
	width := map[string]string{"long": "l", "short": "s", "narrow": "n"}
	month := map[string]string{"numeric": "n", "2-digit": "n", "long": "l", "short": "s", "narrow": "r"}
	num := map[string]string{"numeric": "y", "2-digit": "y"}
	dk := key(r["weekday"], width) + key(r["year"], num) + key(r["month"], month) + key(r["day"], map[string]string{"numeric": "d", "2-digit": "d"}) + key(r["era"], width)
	if r["month"] == "2-digit" {
		// ICU may pick another pattern for a 2-digit month (vi "tháng 07,
		// 2024"); the data has those where gen.js recorded them.
		if n := dk[:2] + "N" + dk[3:]; hasDateKey(dd, n) {
			dk = n
			df.monthAsIs = true
		}
	}
	if r["era"] != "" && r["year"] == "" {
		panic(unsupported(vm, "Intl.DateTimeFormat era without year"))
	}
	h := "-"
	if r["hour"] != "" {
		h = "2"
		if df.hc == "h11" || df.hc == "h12" {
			h = "1"
		}
		// The locale's own hour cycle has patterns of its own (bg "11:08"
		// but "11:08 ч." with hour12: false).
		if !df.hour12Set {
			if _, ok := dd.T["j---"]; ok {
				h = "j"
			}
		}
	}
	z := "-"
	if tzn := r["timeZoneName"]; tzn != "" {
		z = "s"
		if strings.HasPrefix(tzn, "long") {
			z = "l"
		}
	}
	m := key(r["minute"], map[string]string{"numeric": "m", "2-digit": "m"})
	if _, ok := dd.T["-M--"]; ok && r["minute"] == "2-digit" {
		m, df.minuteAsIs = "M", true // ICU's pattern for a 2-digit minute (bg "0:00", not "00:00 ч.")
	}
	tk := h + m + key(r["second"], map[string]string{"numeric": "s", "2-digit": "s"}) + z
	switch {
	case tk == "----":
		p, ok := dd.D[dk]
		return p, ok
	case dk == "-----":
		if strings.HasPrefix(tk, "---") { // a zone name alone has the default date (defaults)
			return "", false
		}
		p, ok := dd.T[tk]
		return p, ok
	}
	if p, ok := dd.Both[dk+"/"+tk]; ok {
		return p, true
	}
	d, ok1 := dd.D[dk]
	t, ok2 := dd.T[tk]
	g, ok3 := dd.Glue[dk]
	if !ok1 || !ok2 || !ok3 || g == "" {
		return "", false
	}
	if g[0] == 't' {
		return t + g[1:] + d, true
	}
	return d + g[1:] + t, true
}

func hasDateKey(dd *dtfData, k string) bool {
	_, ok := dd.D[k]
	return ok
}

func parsePattern(s string) []token {
	var out []token
	for s != "" {
		i := strings.IndexByte(s, '{')
		if i != 0 {
			if i < 0 {
				i = len(s)
			}
			out = append(out, token{lit: s[:i]})
			s = s[i:]
			continue
		}
		j := strings.IndexByte(s, '}')
		f := s[1:j]
		s = s[j+1:]
		t := token{field: f, list: -1}
		if name, n, ok := strings.Cut(f, ":"); ok {
			t.field = name
			t.list, _ = strconv.Atoi(n)
		}
		out = append(out, t)
	}
	return out
}

// widen makes the numeric fields asked for as 2-digit two digits wide,
// as ICU adjusts a pattern's field lengths to the skeleton.
func (df *dateTimeFormat) widen() {
	two := map[string]string{"y": "year", "M": "month", "d": "day", "h": "hour", "m": "minute", "s": "second"}
	for i, t := range df.pattern {
		if opt, ok := two[t.field]; ok && df.req[opt] == "2-digit" && !(opt == "month" && df.monthAsIs) && !(opt == "minute" && df.minuteAsIs) {
			df.pattern[i].field = t.field + t.field
		}
	}
}

// format is the parts of the date v (a Date, a time value, undefined for
// now).
func (df *dateTimeFormat) format(vm *goja.Runtime, v goja.Value) []part {
	var ms float64
	if v == nil || goja.IsUndefined(v) {
		ms = float64(time.Now().UnixMilli())
	} else {
		ms = v.ToFloat()
	}
	if math.IsNaN(ms) || math.IsInf(ms, 0) || math.Abs(ms) > 8.64e15 {
		panic(rangeError(vm, "date value is not finite in DateTimeFormat format()"))
	}
	t := time.UnixMilli(int64(ms)).In(df.location)
	dd := &df.loc.data.DTF
	var out []part
	num := func(typ string, n, width int) {
		s := strconv.Itoa(n)
		if len(s) < width {
			s = strings.Repeat("0", width-len(s)) + s
		}
		out = append(out, part{typ, localize(s, df.digits)})
	}
	list := func(i, k int) string {
		if i < len(dd.Lists) && k < len(dd.Lists[i]) {
			return dd.Lists[i][k]
		}
		return ""
	}
	year := t.Year()
	yoe := year
	if year <= 0 {
		yoe = 1 - year
	}
	for _, tk := range df.pattern {
		switch tk.field {
		case "":
			out = append(out, part{"literal", tk.lit})
		case "y":
			num("year", yoe, 1)
		case "yy":
			num("year", yoe%100, 2)
		case "M":
			if tk.list >= 0 {
				out = append(out, part{"month", list(tk.list, int(t.Month())-1)})
			} else {
				num("month", int(t.Month()), 1)
			}
		case "MM":
			num("month", int(t.Month()), 2)
		case "d":
			num("day", t.Day(), 1)
		case "dd":
			num("day", t.Day(), 2)
		case "E":
			out = append(out, part{"weekday", list(tk.list, int(t.Weekday()))})
		case "G":
			era := 1
			if year <= 0 {
				era = 0
			}
			out = append(out, part{"era", list(tk.list, era)})
		case "a":
			out = append(out, part{"dayPeriod", list(tk.list, t.Hour())})
		case "h", "hh":
			num("hour", cycleHour(t.Hour(), df.hc), len(tk.field))
		case "m", "mm":
			num("minute", t.Minute(), len(tk.field))
		case "s", "ss":
			num("second", t.Second(), len(tk.field))
		case "z":
			out = append(out, part{"timeZoneName", df.zoneName(t)})
		}
	}
	return out
}

func cycleHour(h int, hc string) int {
	switch hc {
	case "h11":
		return h % 12
	case "h12":
		if h%12 == 0 {
			return 12
		}
		return h % 12
	case "h24":
		if h == 0 {
			return 24
		}
	}
	return h
}

// zoneName is the zone's name at t in the asked style: the locale's
// name where ICU has one, else the GMT offset form.
func (df *dateTimeFormat) zoneName(t time.Time) string {
	zd := &df.loc.data.DTF.Zones
	style := df.req["timeZoneName"]
	if style == "" { // a dateStyle/timeStyle pattern: full has the long name, long the short
		style = "short"
		if df.timeStyle == "full" {
			style = "long"
		}
	}
	_, off := t.Zone()
	summer := 0
	y := t.Year()
	_, jan := time.Date(y, 1, 15, 12, 0, 0, 0, df.location).Zone()
	_, jul := time.Date(y, 7, 15, 12, 0, 0, 0, df.location).Zone()
	if jan != jul && off == max(jan, jul) {
		summer = 1
	}
	pick := func(names []string) string {
		if len(names) == 0 {
			return ""
		}
		if summer < len(names) {
			return names[summer]
		}
		return names[0]
	}
	switch style {
	case "short":
		if n := pick(zd.Short[df.zone]); n != "" {
			return n
		}
		return df.gmt(off, false)
	case "long":
		names, ok := zd.LongZones[df.zone]
		if !ok {
			if g, found := data().zoneGroupOf[df.zone]; found && g < len(zd.Long) {
				names = zd.Long[g]
			}
		}
		if n := pick(names); n != "" {
			return n
		}
		return df.gmt(off, true)
	case "longOffset":
		return df.gmt(off, true)
	}
	return df.gmt(off, false)
}

// gmt is the locale's GMT offset form (GMT+9, GMT+05:30, GMT-03:00).
func (df *dateTimeFormat) gmt(off int, long bool) string {
	g := df.loc.data.DTF.Zones.GMT
	if off == 0 {
		if long {
			return g["longZero"]
		}
		return g["zero"]
	}
	neg := off < 0
	if neg {
		off = -off
	}
	h, m := off/3600, off/60%60
	var p string
	switch {
	case long && neg:
		p = g["longNeg"]
	case long:
		p = g["long"]
	case neg && m != 0:
		p = g["shortNegM"]
	case neg:
		p = g["shortNeg"]
	case m != 0:
		p = g["shortM"]
	default:
		p = g["short"]
	}
	two := func(n int) string { return localize(strconv.Itoa(n/10)+strconv.Itoa(n%10), df.digits) }
	p = strings.Replace(p, "{HH}", two(h), 1)
	p = strings.Replace(p, "{H}", localize(strconv.Itoa(h), df.digits), 1)
	return strings.Replace(p, "{mm}", two(m), 1)
}

func (df *dateTimeFormat) resolvedOptions(vm *goja.Runtime) *goja.Object {
	o := vm.NewObject()
	set := func(k string, v any) { _ = o.Set(k, v) }
	// The locale names the -u- keywords that were used: a keyword an
	// option overrode is left out.
	ca, hc, nu := "", "", ""
	if df.loc.ext["ca"] == df.calendar {
		ca = df.calendar
	}
	if df.loc.ext["hc"] != "" && df.loc.ext["hc"] == df.hc && !df.hourOption {
		hc = df.hc
	}
	if df.loc.ext["nu"] == df.nu {
		nu = df.nu
	}
	set("locale", withExtensions(df.loc.name, "ca", ca, "hc", hc, "nu", nu))
	set("calendar", df.calendar)
	set("numberingSystem", df.nu)
	set("timeZone", df.zone)
	if df.hc != "" {
		set("hourCycle", df.hc)
		set("hour12", df.hc == "h11" || df.hc == "h12")
	}
	if df.dateStyle != "" || df.timeStyle != "" {
		if df.dateStyle != "" {
			set("dateStyle", df.dateStyle)
		}
		if df.timeStyle != "" {
			set("timeStyle", df.timeStyle)
		}
		return o
	}
	shown := map[string]string{}
	for _, t := range df.pattern {
		switch t.field {
		case "y", "d", "h", "m", "s":
			shown[map[string]string{"y": "year", "d": "day", "h": "hour", "m": "minute", "s": "second"}[t.field]] = "numeric"
		case "yy", "dd", "hh", "mm", "ss", "MM":
			shown[map[string]string{"yy": "year", "dd": "day", "hh": "hour", "mm": "minute", "ss": "second", "MM": "month"}[t.field]] = "2-digit"
		case "M":
			if df.req["month"] == "numeric" || df.req["month"] == "2-digit" {
				shown["month"] = "numeric"
			} else {
				shown["month"] = df.req["month"]
			}
		case "E":
			shown["weekday"] = df.req["weekday"]
		case "G":
			shown["era"] = df.req["era"]
		case "z":
			shown["timeZoneName"] = df.req["timeZoneName"]
		}
	}
	for _, k := range []string{"weekday", "era", "year", "month", "day", "hour", "minute", "second", "timeZoneName"} {
		if v := shown[k]; v != "" {
			set(k, v)
		}
	}
	return o
}

var offsetZone = regexp.MustCompile(`^([+-])(\d\d)(?::?(\d\d))?$`)

// loadZone is the canonical name and location of an IANA zone (any case)
// or a UTC offset (+05:30); false when neither.
func loadZone(name string) (string, *time.Location, bool) {
	if m := offsetZone.FindStringSubmatch(name); m != nil {
		h, _ := strconv.Atoi(m[2])
		mi, _ := strconv.Atoi(m[3])
		if h > 23 || mi > 59 {
			return "", nil, false
		}
		off := h*3600 + mi*60
		if m[1] == "-" {
			off = -off
		}
		canon := m[1] + m[2] + ":" + or(m[3], "00")
		return canon, time.FixedZone(canon, off), true
	}
	canon, ok := data().zoneByFold[strings.ToLower(name)]
	if !ok {
		return "", nil, false
	}
	l, err := time.LoadLocation(canon)
	if err != nil {
		return "", nil, false
	}
	return canon, l, true
}

// defaultTimeZone is the process's zone as ICU finds it: TZ, else the
// zone /etc/localtime links to, else UTC.
var defaultTimeZone = sync.OnceValue(func() string {
	if tz := strings.TrimPrefix(os.Getenv("TZ"), ":"); tz != "" {
		if canon, _, ok := loadZone(tz); ok {
			return canon
		}
	}
	if target, err := os.Readlink("/etc/localtime"); err == nil {
		if _, rest, ok := strings.Cut(target, "zoneinfo/"); ok {
			if canon, _, ok := loadZone(rest); ok {
				return canon
			}
		}
	}
	return "UTC"
})
