package main

import (
	"fmt"
	"os"
	"regexp"
	"strconv"
	"strings"
	"time"

	"github.com/litmus-dev/litmus/model"
)

// herd7's configuration files (-conf FILE.cfg, --cat FILE.cfg) are lines
// "key arg" or "key = arg", with # comments, each key one of herd's
// command-line options (herd/lexConf_herd.mll). The model loader reads
// the model, bell, variant and macros lines; readConfs reads the whole
// file and gives every other key herd's meaning, or refuses it naming
// the key and the line. What the command line says wins over the file.

// confKey is what litmus does with one key of a herd .cfg.
type confKey struct {
	// apply gives the key's argument its meaning in o; nil for a key
	// with no effect on an answer (herd's pictures and messages).
	apply func(o *runOptions, arg string) error
	// refused, when not empty, is why the key is refused.
	refused string
}

// confModelKey is a key the model loader reads (model.LoadCat).
var confModelKey = confKey{}

// confPictureKey is a key of herd's pictures or messages: litmus draws
// its own (explain --dot) and prints herd's answer, so the key changes
// nothing here.
var confPictureKey = confKey{}

// confRefused is a key of herd's that litmus does not support.
func confRefused(why string) confKey { return confKey{refused: why} }

// confKeys are herd7 7.58's configuration keys (lexConf_herd.mll's
// handle_key), each read, given its meaning, or refused.
var confKeys = map[string]confKey{
	"model": confModelKey, "cat": confModelKey, "bell": confModelKey,
	"macros": confModelKey, "variant": confModelKey,

	"unroll": {apply: func(o *runOptions, arg string) error {
		n, err := strconv.Atoi(arg)
		if err != nil || n < 1 {
			return fmt.Errorf("unroll takes a number of times, at least 1, not %q", arg)
		}
		if o.loopBound == 0 {
			o.loopBound = n
		}
		return nil
	}},
	"skipchecks": {apply: func(o *runOptions, arg string) error {
		for _, n := range strings.Split(arg, ",") {
			if n = strings.TrimSpace(n); n != "" {
				o.skipChecks = append(o.skipChecks, n)
			}
		}
		return nil
	}},
	"strictskip": {apply: func(o *runOptions, arg string) error {
		b, err := herdBool("strictskip", arg)
		o.strictSkip = o.strictSkip || b
		return err
	}},
	"through": {apply: func(o *runOptions, arg string) error {
		switch strings.ToLower(arg) {
		case "none":
		case "all", "invalid":
			o.skipAll = true
		default:
			return fmt.Errorf("through takes all, invalid or none, not %q", arg)
		}
		return nil
	}},
	"timeout": {apply: func(o *runOptions, arg string) error {
		s, err := strconv.ParseFloat(arg, 64)
		if err != nil || s < 0 {
			return fmt.Errorf("timeout takes seconds, not %q", arg)
		}
		if o.timeout == 0 {
			o.timeout = time.Duration(s * float64(time.Second))
		}
		return nil
	}},
	"speedcheck": {apply: func(o *runOptions, arg string) error {
		if strings.ToLower(arg) != "false" {
			return fmt.Errorf("speedcheck %s (settle the condition with a subset of the executions) is not supported: litmus lists every final state; bound the work with --max-states N or --timeout D", arg)
		}
		return nil
	}},

	// herd's messages and file names.
	"verbose": confPictureKey, "debug": confPictureKey, "suffix": confPictureKey,

	"conf":          confRefused("a configuration file that reads another: give each with its own -conf"),
	"include":       confRefused("use -I DIR on the command line"),
	"names":         confRefused("select the tests by the files given"),
	"excl":          confRefused("select the tests by the files given"),
	"rename":        confRefused("name the tests in their files"),
	"kinds":         confRefused("the expectations are the tests' own comments"),
	"conds":         confRefused("give the condition in the test"),
	"machsize":      confRefused("litmus sizes C types as the kernel's 64-bit architectures do"),
	"endian":        confRefused("litmus's mixed-size accesses are little-endian"),
	"optace":        confRefused("litmus has no such optimisation to turn on or off"),
	"archcheck":     confRefused("a cat model applies to the tests of its own dialect"),
	"initwrites":    confRefused("the initial writes are events as herd's default makes them"),
	"badexecs":      confRefused("litmus reports every execution a model flags"),
	"badflag":       confRefused("litmus reports every flag a model raises"),
	"dumpallfaults": confRefused("litmus has no fault handling"),
	"outcomereads":  confRefused("litmus's final states are the test's locations and registers"),
	"restrict":      confRefused("litmus keeps every test"),
}

// confPictureKeys are herd's keys of its pictures and output (its "Control
// output" and PP options): no effect on an answer.
var confPictureKeys = strings.Fields(`show showflag nshow showkind shortlegend texmacros
	hexa dotmode dotcom view showevents graph mono fontname fontsize edgefontsizedelta
	penwidth arrowsize splines overlap sep margin pad scale xscale yscale dsiy siwidth
	boxscale ptscale squished showpo relabel withbox labelbox showfinalrf showinitrf
	finalrfpos initrfpos oneinit labelinit initpos threadposy showinitwrites showthread
	showlegend brackets showobserved movelabel fixedsize extrachars dotheader doshow
	unshow noid symetric classes showraw edgeattr shift edgemerge`)

func init() {
	for _, k := range confPictureKeys {
		confKeys[k] = confPictureKey
	}
}

// confLine is herd's lexer of a configuration line: a key of letters,
// then blanks or "=", then the argument, the rest of the line.
var confLine = regexp.MustCompile(`^([A-Za-z]+)(?:[ \t\r]*=[ \t\r]*|[ \t\r]+)(\S.*?)[ \t\r]*$`)

// readConfs reads the herd .cfg files of the run (-conf, --cat FILE.cfg)
// whole: each key is read by the model loader, given herd's meaning in o
// (unroll, skipchecks, strictskip, through, timeout, speedcheck false),
// has no effect on an answer (herd's pictures), or is refused with
// file:line:col and the key.
func (o *runOptions) readConfs() error {
	for _, cfg := range o.cats {
		if !strings.HasSuffix(cfg, ".cfg") {
			continue
		}
		src, err := model.ReadModelFile(cfg)
		if os.IsNotExist(err) {
			continue // the model loader says so
		}
		if err != nil {
			return err
		}
		if err := o.readConf(cfg, string(src)); err != nil {
			return err
		}
	}
	return nil
}

// readConf reads one .cfg's text (see readConfs).
func (o *runOptions) readConf(cfg, src string) error {
	for i, line := range strings.Split(src, "\n") {
		if t := strings.TrimLeft(line, " \t\r"); t == "" || line[0] == '#' {
			continue
		}
		at := fmt.Sprintf("%s:%d:1", cfg, i+1)
		m := confLine.FindStringSubmatch(line)
		if m == nil {
			return fmt.Errorf("%s: expected \"key argument\", found %q (herd's configuration lines)", at, strings.TrimSpace(line))
		}
		key, arg := m[1], m[2]
		k, ok := confKeys[key]
		switch {
		case !ok:
			return fmt.Errorf("%s: unknown key %q in configuration file", at, key)
		case k.refused != "":
			return fmt.Errorf("%s: herd7's key %q is not supported: %s", at, key, k.refused)
		case k.apply != nil:
			if err := k.apply(o, arg); err != nil {
				return fmt.Errorf("%s: %v", at, err)
			}
		}
	}
	return nil
}
