package hw

import (
	"fmt"
	"os"
	"strconv"
	"strings"
)

// Cache is one cache of CPU 0 as sysfs describes it.
type Cache struct {
	Level int
	Type  string // "Data", "Instruction", "Unified"
	Bytes int64
}

// Name is the cache's short name: "L1d", "L1i", "L2", "L3".
func (c Cache) Name() string {
	s := "L" + strconv.Itoa(c.Level)
	switch c.Type {
	case "Data":
		s += "d"
	case "Instruction":
		s += "i"
	}
	return s
}

// Caches reads CPU 0's caches from /sys/devices/system/cpu/cpu0/cache; it
// returns none where sysfs does not say.
func Caches() []Cache {
	var out []Cache
	for i := range 16 {
		dir := fmt.Sprintf("/sys/devices/system/cpu/cpu0/cache/index%d/", i)
		level, err1 := os.ReadFile(dir + "level")
		typ, err2 := os.ReadFile(dir + "type")
		size, err3 := os.ReadFile(dir + "size")
		if err1 != nil || err2 != nil || err3 != nil {
			break
		}
		l, err := strconv.Atoi(strings.TrimSpace(string(level)))
		if err != nil {
			continue
		}
		b, ok := parseSize(strings.TrimSpace(string(size)))
		if !ok {
			continue
		}
		out = append(out, Cache{Level: l, Type: strings.TrimSpace(string(typ)), Bytes: b})
	}
	return out
}

// parseSize parses sysfs sizes: "48K", "2048K", "260M", "1G", "512".
func parseSize(s string) (int64, bool) {
	mult := int64(1)
	switch {
	case strings.HasSuffix(s, "K"):
		mult, s = 1<<10, s[:len(s)-1]
	case strings.HasSuffix(s, "M"):
		mult, s = 1<<20, s[:len(s)-1]
	case strings.HasSuffix(s, "G"):
		mult, s = 1<<30, s[:len(s)-1]
	}
	n, err := strconv.ParseInt(s, 10, 64)
	if err != nil || n < 0 {
		return 0, false
	}
	return n * mult, true
}

// LLCBytes returns the size of CPU 0's last-level cache (the highest level
// that is not an instruction cache), or 0 when sysfs does not say.
func LLCBytes() int64 {
	var best Cache
	for _, c := range Caches() {
		if c.Type != "Instruction" && c.Level >= best.Level {
			best = c
		}
	}
	return best.Bytes
}

// CPUModel returns /proc/cpuinfo's model name (or CPU part on arm64), or
// "unknown CPU".
func CPUModel() string {
	b, err := os.ReadFile("/proc/cpuinfo")
	if err != nil {
		return "unknown CPU"
	}
	for line := range strings.Lines(string(b)) {
		if k, v, ok := strings.Cut(line, ":"); ok && strings.TrimSpace(k) == "model name" {
			return strings.TrimSpace(v)
		}
	}
	for line := range strings.Lines(string(b)) {
		if k, v, ok := strings.Cut(line, ":"); ok && strings.TrimSpace(k) == "CPU part" {
			return "CPU part " + strings.TrimSpace(v)
		}
	}
	return "unknown CPU"
}

// Describe describes the machine the way lscpu does: model, the CPUs this
// process may use, and CPU 0's caches.
func Describe() string {
	s := fmt.Sprintf("%s, %d CPUs", CPUModel(), len(AllowedCPUs()))
	var cs []string
	for _, c := range Caches() {
		cs = append(cs, fmt.Sprintf("%s %s", c.Name(), FormatBytes(c.Bytes)))
	}
	if len(cs) > 0 {
		s += ", " + strings.Join(cs, ", ") + " (per cpu0)"
	}
	return s
}

// FormatBytes prints a size as sysfs and the patches do: "48K", "2M",
// "260M", "1G".
func FormatBytes(b int64) string {
	switch {
	case b >= 1<<30 && b%(1<<30) == 0:
		return fmt.Sprintf("%dG", b>>30)
	case b >= 1<<20 && b%(1<<20) == 0:
		return fmt.Sprintf("%dM", b>>20)
	case b >= 1<<10 && b%(1<<10) == 0:
		return fmt.Sprintf("%dK", b>>10)
	}
	return fmt.Sprintf("%d", b)
}
