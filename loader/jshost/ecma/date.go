package ecma

import (
	"strings"

	"github.com/dop251/goja"
)

// Date#toString and #toTimeString end with the zone's name in
// parentheses. goja writes Go's abbreviation ("UTC", "CET"); V8 and
// JavaScriptCore write ICU's long English name ("Coordinated Universal
// Time"), which is what tools print and compare. zoneNames are the
// abbreviations tzdata uses that name one zone only; an abbreviation that
// is an offset ("+03") is written as ICU does ("GMT+03:00"); any other is
// left as goja wrote it.
var zoneNames = map[string]string{
	"UTC": "Coordinated Universal Time", "GMT": "Greenwich Mean Time",
	"BST": "British Summer Time",
	"WET": "Western European Standard Time", "WEST": "Western European Summer Time",
	"CET": "Central European Standard Time", "CEST": "Central European Summer Time",
	"EET": "Eastern European Standard Time", "EEST": "Eastern European Summer Time",
	"MSK": "Moscow Standard Time",
	"EST": "Eastern Standard Time", "EDT": "Eastern Daylight Time",
	"MST": "Mountain Standard Time", "MDT": "Mountain Daylight Time",
	"PST": "Pacific Standard Time", "PDT": "Pacific Daylight Time",
	"AKST": "Alaska Standard Time", "AKDT": "Alaska Daylight Time",
	"HST": "Hawaii-Aleutian Standard Time",
	"JST": "Japan Standard Time", "KST": "Korean Standard Time",
	"AEST": "Australian Eastern Standard Time", "AEDT": "Australian Eastern Daylight Time",
	"ACST": "Australian Central Standard Time", "ACDT": "Australian Central Daylight Time",
	"AWST": "Australian Western Standard Time",
	"NZST": "New Zealand Standard Time", "NZDT": "New Zealand Daylight Time",
}

// zoneByOffset are the abbreviations several zones share, told apart by
// the offset the string carries ("GMT+0530").
var zoneByOffset = map[string]string{
	"IST GMT+0530": "India Standard Time", "IST GMT+0100": "Irish Standard Time", "IST GMT+0200": "Israel Standard Time",
	"CST GMT-0600": "Central Standard Time", "CST GMT+0800": "China Standard Time", "CST GMT-0500": "Cuba Standard Time",
	"CDT GMT-0500": "Central Daylight Time", "CDT GMT-0400": "Cuba Daylight Time",
}

func installDate(vm *goja.Runtime) {
	proto := vm.Get("Date").ToObject(vm).Get("prototype").ToObject(vm)
	for _, name := range []string{"toString", "toTimeString"} {
		ov := proto.Get(name)
		orig, ok := goja.AssertFunction(ov)
		if !ok {
			continue
		}
		fn := vm.ToValue(func(call goja.FunctionCall) goja.Value {
			v, err := orig(call.This, call.Arguments...)
			if err != nil {
				panic(err)
			}
			return vm.ToValue(longZone(v.String()))
		}).(*goja.Object)
		describe(vm, fn, name, ov)
		_ = proto.DefineDataProperty(name, fn, goja.FLAG_TRUE, goja.FLAG_TRUE, goja.FLAG_FALSE)
	}
}

// longZone replaces the abbreviation in a trailing "(ABBR)" by its long name.
func longZone(s string) string {
	if !strings.HasSuffix(s, ")") {
		return s
	}
	i := strings.LastIndexByte(s, '(')
	if i < 0 {
		return s
	}
	abbr := s[i+1 : len(s)-1]
	if long, ok := zoneNames[abbr]; ok {
		return s[:i+1] + long + ")"
	}
	if g := strings.LastIndex(s[:i], "GMT"); g >= 0 {
		if long, ok := zoneByOffset[abbr+" "+strings.TrimSpace(s[g:i])]; ok {
			return s[:i+1] + long + ")"
		}
	}
	if off, ok := offsetName(abbr); ok {
		return s[:i+1] + off + ")"
	}
	return s
}

// offsetName is ICU's "GMT+03:00" for tzdata's "+03" or "+0530".
func offsetName(a string) (string, bool) {
	if (len(a) != 3 && len(a) != 5) || (a[0] != '+' && a[0] != '-') {
		return "", false
	}
	for _, c := range a[1:] {
		if c < '0' || c > '9' {
			return "", false
		}
	}
	mm := "00"
	if len(a) == 5 {
		mm = a[3:]
	}
	return "GMT" + a[:3] + ":" + mm, true
}

// describe gives a replacement the original's name and length.
func describe(vm *goja.Runtime, fn *goja.Object, name string, orig goja.Value) {
	_ = fn.DefineDataProperty("name", vm.ToValue(name), goja.FLAG_FALSE, goja.FLAG_TRUE, goja.FLAG_FALSE)
	_ = fn.DefineDataProperty("length", orig.ToObject(vm).Get("length"), goja.FLAG_FALSE, goja.FLAG_TRUE, goja.FLAG_FALSE)
}
