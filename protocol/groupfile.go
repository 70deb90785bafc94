package protocol

// A group's declaration: .specdev/groups/<name>.json names the loops
// (assignments) of a group of parallel loops, so that the group is
// judged over exactly them — a loop declared but not started yet keeps
// the group open — and, with Expect, how many loops it waits for while
// they join (work request --group NAME --expect N).

// GroupVersion is the newest group file version this build reads.
const GroupVersion = 1

// MaxGroupLoops bounds the loops of one group.
const MaxGroupLoops = 1000

// Group is one group's declaration.
type Group struct {
	Version   int       `json:"version" specdev:"required" check:"version"`
	Name      string    `json:"name" specdev:"required" check:"name"`
	CreatedAt Timestamp `json:"created_at" specdev:"required" check:"set"`
	Loops     []string  `json:"loops" specdev:"required" check:"names"` // assignment folder names
	Expect    int       `json:"expect,omitzero" specdev:"nonzero" check:"loops"`

	// Extra keeps fields this version does not know.
	Extra Extra `json:",embed"`
}

// groupFields is Group for the encoder, as requestFields is Request.
type groupFields Group

// Waits is how many loops the group still waits for to join.
func (g *Group) Waits() int { return max(g.Expect-len(g.Loops), 0) }

// Validate applies every rule of a group file.
func (g *Group) Validate() error {
	return semantic(g.file(), "group", g)
}

func (g *Group) file() string { return StateDir + "/groups/" + g.Name + ".json" }

func (g *Group) semantics(c *check) {
	seen := map[string]bool{}
	for i, l := range g.Loops {
		if seen[l] {
			c.failHint("loops"+indexField(i), hintHandEdit, "loop %s is listed twice", QuotePrefix(l))
		}
		seen[l] = true
	}
	if g.Expect > 0 && g.Expect < len(g.Loops) {
		c.failHint("expect", hintHandEdit, "is %d, but %d loops are declared", g.Expect, len(g.Loops))
	}
}

// EncodeGroup is a group file as specdev writes it.
func EncodeGroup(g *Group) ([]byte, error) { return encodeState(g.file(), (*groupFields)(g), 0) }

// DecodeGroup reads and validates a group file.
func DecodeGroup(file string, data []byte) (*Group, error) {
	return decode[Group](file, "group", data, false)
}
