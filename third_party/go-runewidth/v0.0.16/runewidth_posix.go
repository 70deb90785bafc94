//go:build !windows && !js && !appengine
// +build !windows,!js,!appengine

package runewidth

import (
	"os"
	"strings"
)

// localeCharset returns the charset of a locale such as "en_US.UTF-8"
// ("UTF-8"), as the regexp ^[a-z][a-z][a-z]?(?:_[A-Z][A-Z])?\.(.+) found
// it; ok is false when the locale is not of that form. (The regexp was
// compiled in init, which cost more than everything else a short-lived
// program does at start-up.)
func localeCharset(locale string) (charset string, ok bool) {
	i := 0
	for i < len(locale) && i < 3 && locale[i] >= 'a' && locale[i] <= 'z' {
		i++
	}
	if i < 2 {
		return "", false
	}
	if i+3 <= len(locale) && locale[i] == '_' && isUpper(locale[i+1]) && isUpper(locale[i+2]) {
		i += 3
	}
	if i+1 < len(locale) && locale[i] == '.' {
		return locale[i+1:], true
	}
	return "", false
}

func isUpper(b byte) bool { return b >= 'A' && b <= 'Z' }

var mblenTable = map[string]int{
	"utf-8":   6,
	"utf8":    6,
	"jis":     8,
	"eucjp":   3,
	"euckr":   2,
	"euccn":   2,
	"sjis":    2,
	"cp932":   2,
	"cp51932": 2,
	"cp936":   2,
	"cp949":   2,
	"cp950":   2,
	"big5":    2,
	"gbk":     2,
	"gb2312":  2,
}

func isEastAsian(locale string) bool {
	charset := strings.ToLower(locale)
	if cs, ok := localeCharset(locale); ok {
		charset = strings.ToLower(cs)
	}

	if strings.HasSuffix(charset, "@cjk_narrow") {
		return false
	}

	for pos, b := range []byte(charset) {
		if b == '@' {
			charset = charset[:pos]
			break
		}
	}
	max := 1
	if m, ok := mblenTable[charset]; ok {
		max = m
	}
	if max > 1 && (charset[0] != 'u' ||
		strings.HasPrefix(locale, "ja") ||
		strings.HasPrefix(locale, "ko") ||
		strings.HasPrefix(locale, "zh")) {
		return true
	}
	return false
}

// IsEastAsian return true if the current locale is CJK
func IsEastAsian() bool {
	locale := os.Getenv("LC_ALL")
	if locale == "" {
		locale = os.Getenv("LC_CTYPE")
	}
	if locale == "" {
		locale = os.Getenv("LANG")
	}

	// ignore C locale
	if locale == "POSIX" || locale == "C" {
		return false
	}
	if len(locale) > 1 && locale[0] == 'C' && (locale[1] == '.' || locale[1] == '-') {
		return false
	}

	return isEastAsian(locale)
}
