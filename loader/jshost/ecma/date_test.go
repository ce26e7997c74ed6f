package ecma

import "testing"

// TestLongZone: what goja writes, and what Node 20 printed for the same
// instant in that zone (TZ=... node -e 'console.log(String(d))'), but
// where a row says otherwise.
func TestLongZone(t *testing.T) {
	for _, c := range []struct{ goja, node string }{
		{"Tue Jan 02 2024 03:04:05 GMT+0000 (UTC)", "Tue Jan 02 2024 03:04:05 GMT+0000 (Coordinated Universal Time)"},
		{"03:04:05 GMT+0000 (UTC)", "03:04:05 GMT+0000 (Coordinated Universal Time)"},
		{"Tue Jan 02 2024 04:04:05 GMT+0100 (CET)", "Tue Jan 02 2024 04:04:05 GMT+0100 (Central European Standard Time)"},
		{"Tue Jan 02 2024 08:34:05 GMT+0530 (IST)", "Tue Jan 02 2024 08:34:05 GMT+0530 (India Standard Time)"},
		{"Tue Jan 02 2024 03:04:05 GMT+0000 (GMT)", "Tue Jan 02 2024 03:04:05 GMT+0000 (Greenwich Mean Time)"},
		{"Tue Jan 02 2024 05:04:05 GMT+0200 (IST)", "Tue Jan 02 2024 05:04:05 GMT+0200 (Israel Standard Time)"},
		{"Mon Jan 01 2024 21:04:05 GMT-0600 (CST)", "Mon Jan 01 2024 21:04:05 GMT-0600 (Central Standard Time)"},
		{"Tue Jan 02 2024 11:04:05 GMT+0800 (CST)", "Tue Jan 02 2024 11:04:05 GMT+0800 (China Standard Time)"},
		{"Tue Jan 02 2024 14:04:05 GMT+1100 (AEDT)", "Tue Jan 02 2024 14:04:05 GMT+1100 (Australian Eastern Daylight Time)"},
		// Zones tzdata names by offset only: ICU's fallback form. Node knows
		// names for these (Arabian Standard Time, Nepal Time) that Go has
		// no table of: a known difference.
		{"Tue Jan 02 2024 06:04:05 GMT+0300 (+03)", "Tue Jan 02 2024 06:04:05 GMT+0300 (GMT+03:00)"},
		{"Tue Jan 02 2024 08:49:05 GMT+0545 (+0545)", "Tue Jan 02 2024 08:49:05 GMT+0545 (GMT+05:45)"},
		{"Invalid Date", "Invalid Date"},
		{"Tue Jan 02 2024 03:04:05 GMT+0000 (XYZ)", "Tue Jan 02 2024 03:04:05 GMT+0000 (XYZ)"}, // unknown: left as is
	} {
		if got := longZone(c.goja); got != c.node {
			t.Errorf("longZone(%q) = %q, want %q", c.goja, got, c.node)
		}
	}
}
