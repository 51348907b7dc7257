package main

import (
	"bufio"
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// TestCheckJSONFaults is the golden test of --json's faults field under
// every model: the fault tests list their access (thread, place, value,
// witness) in each model's record, a code test without a fault has
// "faults":[], and a test without objects (where a model does not look
// for faults) has no field.
func TestCheckJSONFaults(t *testing.T) {
	for _, c := range []struct {
		file   string
		faults bool // the test has a fault
		looks  bool // the models look for faults
	}{
		{"../../testdata/code/rcu-null-code.litmus", true, true},
		{"../../testdata/code/ring-underrun-code.litmus", true, true},
		{"../../testdata/code/ring-dep-code.litmus", false, true},
		{"../../testdata/nospace.litmus", false, false},
	} {
		name := strings.TrimSuffix(filepath.Base(c.file), ".litmus")
		t.Run(name, func(t *testing.T) {
			out, errOut, _ := run(t, "check", "--model", "all", "--json", c.file)
			var b strings.Builder
			sc := bufio.NewScanner(strings.NewReader(out))
			n := 0
			for sc.Scan() {
				n++
				var obj map[string]any
				require.NoError(t, json.Unmarshal(sc.Bytes(), &obj), "not JSON: %s", sc.Text())
				var rec struct {
					Model  string       `json:"model"`
					Faults *[]jsonFault `json:"faults"`
				}
				require.NoError(t, json.Unmarshal(sc.Bytes(), &rec))
				require.Equal(t, c.looks, rec.Faults != nil, "%s: a faults field", rec.Model)
				if rec.Faults != nil {
					require.Equal(t, c.faults, len(*rec.Faults) > 0, "%s: faults %v", rec.Model, *rec.Faults)
					for _, f := range *rec.Faults {
						require.Equal(t, 1, f.Thread, rec.Model)
						require.True(t, f.Witness, "%s: a witness", rec.Model)
						require.Contains(t, f.Pos, filepath.Base(c.file)+":", rec.Model)
						require.NotEmpty(t, f.Value, rec.Model)
					}
				}
				obj["elapsed_s"] = 0
				line, err := json.Marshal(obj)
				require.NoError(t, err)
				b.Write(line)
				b.WriteByte('\n')
			}
			require.Equal(t, 8, n, "one record per model: %s", errOut)
			golden(t, "json/faults-"+name+".jsonl", b.String())
		})
	}
}
