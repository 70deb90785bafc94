package kong

import (
	"regexp"
	"testing"
)

// upstreamInterpolate is interpolate as kong v1.17.0 ships it, with the
// expression compiled eagerly: the reference the specdev patch must match.
var upstreamRegex = regexp.MustCompile(`(\$\$)|((?:\${([[:alpha:]_][[:word:]]*))(?:(=)([^}]*))?})|(\$)|([^$]+)`)

func upstreamInterpolate(s string, vars Vars) (string, error) {
	out := ""
	matches := upstreamRegex.FindAllStringSubmatch(s, -1)
	if len(matches) == 0 {
		return s, nil
	}
	for _, match := range matches {
		if dollar := match[1]; dollar != "" {
			out += "$"
		} else if name := match[3]; name != "" {
			value, ok := vars[name]
			if !ok {
				if match[4] == "" {
					return "", errUndefined
				}
				value = match[5]
			}
			out += value
		} else {
			out += match[0]
		}
	}
	return out, nil
}

// upstreamHas is HasInterpolatedVar as kong v1.17.0 ships it.
func upstreamHas(s, v string) bool {
	for _, match := range upstreamRegex.FindAllStringSubmatch(s, -1) {
		if match[3] == v {
			return true
		}
	}
	return false
}

var errUndefined = &undefinedVar{}

type undefinedVar struct{}

func (*undefinedVar) Error() string { return "undefined" }

func TestInterpolatePatchMatchesUpstream(t *testing.T) {
	vars := Vars{"default": "warn", "enum": "a,b", "x": "$"}
	for _, s := range []string{
		"", "plain help text.", "Log level (default ${default}).", "$$ and $", "${x}${x}",
		"${missing=fallback}", "${missing=}", "${enum}", "trailing $", "$ {default}", "a}b{c",
		"unicode: été ✓", "${default", "${9bad}", "$${default}",
	} {
		want, wantErr := upstreamInterpolate(s, vars)
		got, err := interpolate(s, vars, nil)
		if (err != nil) != (wantErr != nil) || got != want {
			t.Errorf("interpolate(%q) = %q, %v; upstream gives %q, %v", s, got, err, want, wantErr)
		}
		for _, v := range []string{"default", "enum", "x", "missing"} {
			if got, want := HasInterpolatedVar(s, v), upstreamHas(s, v); got != want {
				t.Errorf("HasInterpolatedVar(%q, %q) = %v, want %v", s, v, got, want)
			}
		}
	}
}
