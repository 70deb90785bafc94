package main

import (
	"fmt"
	"strings"
)

// shellWords splits a command line as a POSIX shell would split plain
// words: spaces separate, '…' and "…" quote, a backslash escapes. raw
// holds each word as written (quotes kept), words its value. Variables,
// globs and redirections are not shell words here: none appear in the
// command lines this is for (examples, the guides' commands).
func splitShell(line string) (raw, words []string, err error) {
	var word, rawWord strings.Builder
	inWord := false
	var quote rune
	flush := func() {
		if inWord {
			raw, words = append(raw, rawWord.String()), append(words, word.String())
			word.Reset()
			rawWord.Reset()
			inWord = false
		}
	}
	runes := []rune(line)
	for i := 0; i < len(runes); i++ {
		r := runes[i]
		switch {
		case quote == 0 && (r == ' ' || r == '\t' || r == '\n'):
			flush()
			continue
		case quote == 0 && (r == '\'' || r == '"'):
			quote = r
		case quote != 0 && r == quote:
			quote = 0
		case r == '\\' && quote != '\'' && i+1 < len(runes):
			rawWord.WriteRune(r)
			i++
			r = runes[i]
			if r == '\n' { // a line continuation
				continue
			}
			word.WriteRune(r)
		default:
			word.WriteRune(r)
		}
		rawWord.WriteRune(r)
		inWord = true
	}
	if quote != 0 {
		return nil, nil, fmt.Errorf("unclosed %c quote in %q", quote, line)
	}
	flush()
	return raw, words, nil
}
