package kong

import (
	"fmt"
	"regexp"
	"strings"
	"sync"
)

// interpolationRegex is compiled on first use, not at start-up: every
// program that links kong paid for the compilation in init, and a string
// without "$" (most help texts) never needs it. (specdev patch)
var interpolationRegex = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`(\$\$)|((?:\${([[:alpha:]_][[:word:]]*))(?:(=)([^}]*))?})|(\$)|([^$]+)`)
})

// HasInterpolatedVar returns true if the variable "v" is interpolated in "s".
func HasInterpolatedVar(s string, v string) bool {
	if !strings.Contains(s, "${") { // (specdev patch) no variable to find
		return false
	}
	matches := interpolationRegex().FindAllStringSubmatch(s, -1)
	for _, match := range matches {
		if name := match[3]; name == v {
			return true
		}
	}
	return false
}

// Interpolate variables from vars into s for substrings in the form ${var} or ${var=default}.
func interpolate(s string, vars Vars, updatedVars map[string]string) (string, error) {
	if !strings.Contains(s, "$") { // (specdev patch) the expression would match s whole, as text
		return s, nil
	}
	out := ""
	matches := interpolationRegex().FindAllStringSubmatch(s, -1)
	if len(matches) == 0 {
		return s, nil
	}
	for key, val := range updatedVars {
		if vars[key] != val {
			vars = vars.CloneWith(updatedVars)
			break
		}
	}
	for _, match := range matches {
		if dollar := match[1]; dollar != "" {
			out += "$"
		} else if name := match[3]; name != "" {
			value, ok := vars[name]
			if !ok {
				// Check for "=" rather than an empty default, as "${name=}" is an empty default.
				if match[4] == "" {
					return "", fmt.Errorf("undefined variable ${%s}", name)
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
