// Package herdout reads herd7's output, for the tests that compare this
// project's answers with herd's on the shared corpus.
package herdout

import (
	"bufio"
	"os"
	"strconv"
	"strings"
)

// Output is what the tests compare in one herd7 output.
type Output struct {
	Name, Kind  string   // "Test NAME Allowed|Forbidden|Required"
	States      []string // the state lines, as printed
	Ok          bool
	Loop        bool // the verdict line is "Loop Ok" or "Loop No": some path was cut
	Condition   string
	Observation string // "Never", "Sometimes", "Always"
	Pos, Neg    int
	Flags       []string
}

// Read parses the herd7 output file at path.
func Read(path string) (*Output, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	h := &Output{}
	sc := bufio.NewScanner(f)
	inStates := false
	for sc.Scan() {
		line := strings.TrimSpace(sc.Text())
		fields := strings.Fields(line)
		switch {
		case strings.HasPrefix(line, "Test ") && len(fields) >= 3 && h.Name == "":
			h.Name, h.Kind = fields[1], fields[2]
		case strings.HasPrefix(line, "States "):
			inStates = true
			continue
		case line == "Ok" || line == "No" || line == "Loop Ok" || line == "Loop No":
			h.Ok = strings.HasSuffix(line, "Ok")
			h.Loop = strings.HasPrefix(line, "Loop")
			inStates = false
		case strings.HasPrefix(line, "Flag "):
			h.Flags = append(h.Flags, strings.TrimPrefix(line, "Flag "))
		case strings.HasPrefix(line, "Condition "):
			h.Condition = strings.TrimPrefix(line, "Condition ")
		case strings.HasPrefix(line, "Observation ") && len(fields) >= 5:
			h.Observation = fields[2]
			h.Pos, _ = strconv.Atoi(fields[3])
			h.Neg, _ = strconv.Atoi(fields[4])
		}
		if inStates && line != "" {
			h.States = append(h.States, line)
		}
	}
	return h, sc.Err()
}
