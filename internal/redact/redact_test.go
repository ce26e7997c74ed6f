package redact

import (
	"strings"
	"testing"
	"unicode/utf8"
)

func TestText(t *testing.T) {
	cases := []struct{ in, want string }{
		{"https://user:pass@host/r.git", "https://***@host/r.git"},
		{"https://ghp_token@github.com/o/r.git", "https://***@github.com/o/r.git"},
		{"http://user:p%40ss@127.0.0.1:8080/r.git", "http://***@127.0.0.1:8080/r.git"},
		{`fetch https://a:b@h/r.git: authentication required; retry https://c:d@h2/x`, `fetch https://***@h/r.git: authentication required; retry https://***@h2/x`},
		{"https://user:p@ss@host/r.git", "https://***@host/r.git"},
		{"https://host/r.git", "https://host/r.git"},
		{"https://host/path@v1", "https://host/path@v1"},
		{"git@github.com:o/r.git", "git@github.com:o/r.git"},
		{"ssh://git:secret@host/r.git", "ssh://***@host/r.git"},
		{"mail me at a@b.c", "mail me at a@b.c"},
		{"/srv/repos/project", "/srv/repos/project"},
	}
	for _, tc := range cases {
		if got := Text(tc.in); got != tc.want {
			t.Errorf("Text(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}

func TestName(t *testing.T) {
	cases := []struct{ in, want string }{
		{"tools/greet.ts", "tools/greet.ts"},
		{"Fix the tool", "Fix the tool"},
		{"naïve 日本.ts", "naïve 日本.ts"},
		{"evil\x1b[2J\x1b[31mred.ts", `evil\x1b[2J\x1b[31mred.ts`},
		{"line\nbreak\ttab\rcr", `line\nbreak\ttab\rcr`},
		{"bell\x07del\x7f", `bell\x07del\x7f`},
		{"c1\u009bcsi", `c1\u009bcsi`},
		{"rtl\u202eexe.ts", `rtl\u202eexe.ts`},
		{"bad\xffutf8", `bad\xffutf8`},
		{`back\slash`, `back\\slash`},
	}
	for _, tc := range cases {
		if got := Name(tc.in); got != tc.want {
			t.Errorf("Name(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}

func FuzzName(f *testing.F) {
	for _, s := range []string{"a", "\x1b[31m", "\u202e", "\xff", `\`} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		got := Name(s)
		if !utf8.ValidString(got) {
			t.Fatalf("Name(%q) = %q: not valid UTF-8", s, got)
		}
		for _, r := range got {
			if r < 0x20 || r == 0x7f || unsafeRune(r) {
				t.Fatalf("Name(%q) = %q keeps %U", s, got, r)
			}
		}
		if !needsEscape(s) && got != s {
			t.Fatalf("Name changed a plain %q to %q", s, got)
		}
	})
}

func FuzzText(f *testing.F) {
	f.Add("https://user:pass@host/r.git")
	f.Add("x://a@b")
	f.Fuzz(func(t *testing.T, s string) {
		got := Text(s)
		if m := userinfo.FindAllString(got, -1); len(m) > 0 {
			for _, u := range m {
				if !strings.HasSuffix(u, "://***@") {
					t.Fatalf("Text(%q) = %q keeps userinfo %q", s, got, u)
				}
			}
		}
	})
}
