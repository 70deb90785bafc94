// Package shellword writes values as words for sh, so that a command
// printed for a person or an agent to run works when pasted as it is.
package shellword

import "strings"

// safe are the bytes a word may hold unquoted.
const safe = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789._/=+:,@-"

// Word is s as one word for sh: as it is when that is safe, otherwise
// quoted.
func Word(s string) string {
	if s != "" && strings.Trim(s, safe) == "" {
		return s
	}
	return Quote(s)
}

// Quote makes s one word for sh, whatever it contains.
func Quote(s string) string {
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}

// Join is words as one sh command line, each written by Word.
func Join(words []string) string {
	out := make([]string, len(words))
	for i, w := range words {
		out[i] = Word(w)
	}
	return strings.Join(out, " ")
}
