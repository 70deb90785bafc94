package runewidth

import (
	"regexp"
	"testing"
)

func TestLocaleCharsetMatchesRegexp(t *testing.T) {
	re := regexp.MustCompile(`^[a-z][a-z][a-z]?(?:_[A-Z][A-Z])?\.(.+)`)
	for _, l := range []string{"en_US.UTF-8", "ja_JP.eucJP", "zh.GBK", "abc_DE.x", "a.UTF-8", "abcd.x", "en_us.UTF-8", "en_US", "en_US.", "de.", "C", "", "xx_YY.z@cjk_narrow", "fr_FR.UTF-8@euro", "en_U.x", "eng_GB.ISO-8859-1", "ja_JPX.x"} {
		m := re.FindStringSubmatch(l)
		cs, ok := localeCharset(l)
		if (len(m) == 2) != ok || (ok && m[1] != cs) {
			t.Errorf("%q: regexp %q, localeCharset %q %v", l, m, cs, ok)
		}
	}
}
