package intl

import (
	"unicode"
	"unicode/utf16"

	"github.com/dop251/goja"
	"github.com/rivo/uniseg"
)

// segmenter is one Intl.Segmenter over uniseg's UAX #29 breaks (what ICU
// does without dictionaries).
type segmenter struct {
	loc         resolved
	granularity string
}

func newSegmenter(vm *goja.Runtime, locales, optv goja.Value) *segmenter {
	loc := resolveLocale(vm, locales)
	o := newOptions(vm, optv)
	o.localeMatcher()
	sg := &segmenter{loc: loc}
	sg.granularity = o.str("granularity", "grapheme", `granularity must be either "grapheme", "word", or "sentence"`, "grapheme", "word", "sentence")
	return sg
}

// dictionaryScripts are the scripts ICU breaks into words with a
// dictionary: UAX #29 alone breaks them otherwise.
var dictionaryScripts = []*unicode.RangeTable{unicode.Han, unicode.Hiragana, unicode.Katakana, unicode.Thai, unicode.Lao, unicode.Khmer, unicode.Myanmar}

// segment answers the UTF-16 start of each segment of s, then its
// length; for words, whether each is word-like (has a letter or digit).
func (sg *segmenter) segment(vm *goja.Runtime, s string) ([]int, []bool) {
	var starts []int
	var wordLike []bool
	pos := 0
	state := -1
	for s != "" {
		var seg string
		switch sg.granularity {
		case "word":
			seg, s, state = uniseg.FirstWordInString(s, state)
		case "sentence":
			seg, s, state = uniseg.FirstSentenceInString(s, state)
		default:
			seg, s, _, state = uniseg.FirstGraphemeClusterInString(s, state)
		}
		starts = append(starts, pos)
		like := false
		for _, r := range seg {
			pos += utf16.RuneLen(r)
			if sg.granularity == "word" {
				if unicode.In(r, dictionaryScripts...) {
					panic(unsupported(vm, "Intl.Segmenter word breaks in Chinese, Japanese, Thai, Lao, Khmer or Myanmar text"))
				}
				like = like || unicode.IsLetter(r) || unicode.IsNumber(r)
			}
		}
		wordLike = append(wordLike, like)
	}
	return append(starts, pos), wordLike
}

func (sg *segmenter) resolvedOptions(vm *goja.Runtime) *goja.Object {
	o := vm.NewObject()
	_ = o.Set("locale", sg.loc.name)
	_ = o.Set("granularity", sg.granularity)
	return o
}
