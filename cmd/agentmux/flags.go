package main

import (
	"errors"
	"fmt"
	"math"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"time"
)

// This file is agentmux's one flag parser. scanFlags walks the words of a command
// line once: flags anywhere among the operands (-name or --name, a value after "=" or
// in the next word), "--" ends the flags, a lone "-" is an operand. What a flag takes
// and where its value goes comes from a flagDef: the subcommands' from their flagSpecs
// in commandTable, agentmux's own flags from their flag.FlagSet (args.go).

// flagKind is what a flag takes after its name.
type flagKind int

const (
	// kindSwitch takes nothing: --json; --json=x is refused.
	kindSwitch flagKind = iota
	// kindBool takes nothing, or =true / =false: the main flags' and parse's switches.
	kindBool
	// kindValue takes a value, after "=" or as the next word: --from NAME.
	kindValue
	// kindOptional takes nothing, or a value after "=" only: ls --mesh, --mesh=URL.
	kindOptional
)

// flagDef is a flag as scanFlags sees it: what it takes, and set, which stores the
// value (given: a value was written; a bare switch gets "", false).
type flagDef struct {
	kind flagKind
	set  func(val string, given bool) error
}

// Why scanFlags stopped.
const (
	flagUnknown   = "unknown"   // no such flag
	flagMissing   = "missing"   // a value flag at the end of the words
	flagNoValue   = "novalue"   // a switch given =value
	flagMalformed = "malformed" // ---x, -=x
	flagBad       = "bad"       // set refused the value (err says why)
)

// flagError is why scanFlags stopped; its caller words it (cmdFlagError, mainFlagError).
type flagError struct {
	why    string
	arg    string // the word as written
	name   string // the flag's name, without dashes or value
	value  string
	err    error    // flagBad: set's error
	before []string // the operands before it
}

func (e *flagError) Error() string { return e.why + " flag " + e.arg }

// scanFlags is the flag parser: it sets each flag of args through lookup and returns the
// operands in their order (with every word after "--"). stopAtOperand: the first
// operand ends the flags (agentmux new COMMAND: the words after it are the command's).
func scanFlags(args []string, lookup func(name string) (flagDef, bool), stopAtOperand bool) ([]string, error) {
	var rest []string
	for i := 0; i < len(args); i++ {
		a := args[i]
		if a == "--" {
			return append(rest, args[i+1:]...), nil
		}
		if stopAtOperand && len(rest) > 0 {
			return append(rest, args[i:]...), nil
		}
		if len(a) < 2 || a[0] != '-' {
			rest = append(rest, a)
			continue
		}
		name, value, hasValue := strings.Cut(strings.TrimPrefix(a[1:], "-"), "=")
		if name == "" || name[0] == '-' {
			return nil, &flagError{why: flagMalformed, arg: a, name: name, before: rest}
		}
		f, ok := lookup(name)
		if !ok {
			return nil, &flagError{why: flagUnknown, arg: a, name: name, before: rest}
		}
		switch {
		case hasValue && f.kind == kindSwitch:
			return nil, &flagError{why: flagNoValue, arg: a, name: name, value: value, before: rest}
		case !hasValue && f.kind == kindValue:
			if i+1 >= len(args) {
				return nil, &flagError{why: flagMissing, arg: a, name: name, before: rest}
			}
			i++
			value, hasValue = args[i], true
		}
		if err := f.set(value, hasValue); err != nil {
			return nil, &flagError{why: flagBad, arg: a, name: name, value: value, err: err, before: rest}
		}
	}
	return rest, nil
}

// flagSpec declares one flag of a subcommand, in commandTable: adding a flag is one
// flagSpec (made by switchFlag, stringFlag… below) and the field it sets, in the
// command's own flags (sendArgs for send…) or, for the common ones, in clientArgs.
type flagSpec struct {
	name    string   // without dashes: given as -name or --name
	aliases []string // other names it answers to (r for read-only)
	kind    flagKind
	arg     string // its value as help shows it (NAME, D, N); "" for a switch
	usage   string // its help: what it does (lines after the first are indented)
	// set stores the value in the command's arguments, or says why it is refused (the
	// error names the flag: the command's name goes before it).
	set func(a *clientArgs, val string, given bool) error
	// owner is the type of the flags the value goes to: clientArgs for the common
	// ones, else the command's own (every own flag of a command has the same).
	owner reflect.Type
}

// own is the command's own flags in a, of type T: those its flags set, or none given
// (a T of zero values). T is the type every flag of the command sets.
func own[T any](a clientArgs) *T {
	return into[T](&a)
}

// into is where a flag of T stores its value in a: clientArgs itself for the common
// flags, else the command's own flags, made by the first flag given.
func into[T any](a *clientArgs) *T {
	if t, ok := any(a).(*T); ok {
		return t
	}
	if a.own == nil {
		a.own = new(T)
	}
	t, ok := a.own.(*T)
	if !ok { // code reading a type the command's flags do not set: a bug, said plainly
		panic(fmt.Sprintf("flags of %T read as %T", a.own, t))
	}
	return t
}

// ownFlag is a flag of T that takes kind, stored by set.
func ownFlag[T any](name, arg, usage string, kind flagKind, set func(o *T, val string, given bool) error) flagSpec {
	return flagSpec{name: name, kind: kind, arg: arg, usage: usage, owner: reflect.TypeFor[T](),
		set: func(a *clientArgs, val string, given bool) error { return set(into[T](a), val, given) }}
}

// switchFlag is a flag that takes nothing and sets *to.
func switchFlag[T any](name, usage string, to func(*T) *bool) flagSpec {
	return ownFlag(name, "", usage, kindSwitch, func(o *T, _ string, _ bool) error {
		*to(o) = true
		return nil
	})
}

// boolFlag is a switch that may also be given =true or =false, as the main flags.
func boolFlag[T any](name, usage string, to func(*T) *bool) flagSpec {
	return ownFlag(name, "", usage, kindBool, func(o *T, val string, given bool) error {
		if !given {
			*to(o) = true
			return nil
		}
		b, err := strconv.ParseBool(val)
		if err != nil {
			return fmt.Errorf("--%s=%s: want true or false", name, val)
		}
		*to(o) = b
		return nil
	})
}

// stringFlag is a flag whose value is any text.
func stringFlag[T any](name, arg, usage string, to func(*T) *string) flagSpec {
	return ownFlag(name, arg, usage, kindValue, func(o *T, val string, _ bool) error {
		*to(o) = val
		return nil
	})
}

// listFlag is a flag that may be given more than once: each value is added to *to.
func listFlag[T any](name, arg, usage string, to func(*T) *[]string) flagSpec {
	return ownFlag(name, arg, usage, kindValue, func(o *T, val string, _ bool) error {
		*to(o) = append(*to(o), val)
		return nil
	})
}

// durationFlag is a flag whose value is a Go duration (90s, 10m), above 0 when positive.
func durationFlag[T any](name, arg, usage string, positive bool, to func(*T) *time.Duration) flagSpec {
	return ownFlag(name, arg, usage, kindValue, func(o *T, val string, _ bool) error {
		d, err := time.ParseDuration(val)
		switch {
		case err != nil:
			if _, ferr := strconv.ParseFloat(val, 64); ferr == nil {
				n := strings.TrimPrefix(val, "-")
				return fmt.Errorf("--%s %s needs a unit, e.g. %ss or %sm", name, val, n, n)
			}
			return fmt.Errorf("--%s %q: want a duration such as 90s, 10m or 1h", name, val)
		case positive && d <= 0:
			return fmt.Errorf("--%s must be a positive duration, not %s", name, val)
		}
		*to(o) = d
		return nil
	})
}

// countFlag is a flag whose value is a whole number of at least least; want says what
// it takes when it is not.
func countFlag[T any](name, arg, usage string, least int, want string, to func(*T) *int) flagSpec {
	return rangeFlag(name, arg, usage, least, math.MaxInt, want, to)
}

// rangeFlag is countFlag for a value from least to most: one outside is refused, as a
// number too large to read is (never clamped without a word).
func rangeFlag[T any](name, arg, usage string, least, most int, want string, to func(*T) *int) flagSpec {
	return ownFlag(name, arg, usage, kindValue, func(o *T, val string, _ bool) error {
		n, err := strconv.Atoi(val)
		switch {
		case errors.Is(err, strconv.ErrRange) || err == nil && n > most:
			return fmt.Errorf("--%s %s: too large: %s", name, val, want)
		case err != nil || n < least:
			return fmt.Errorf("--%s %s: %s", name, val, want)
		}
		*to(o) = n
		return nil
	})
}

// intFlag is a flag whose value is any whole number, refused as the main flags do.
func intFlag[T any](name, arg, usage string, to func(*T) *int) flagSpec {
	return ownFlag(name, arg, usage, kindValue, func(o *T, val string, _ bool) error {
		n, err := strconv.Atoi(val)
		if err != nil {
			return fmt.Errorf("--%s %q: want a whole number", name, val)
		}
		*to(o) = n
		return nil
	})
}

// alias returns f answering also to names.
func (f flagSpec) alias(names ...string) flagSpec {
	f.aliases = append(append([]string(nil), f.aliases...), names...)
	return f
}

// commonFlags are the flags every session command takes, also before its name
// (agentmux --session NAME ls).
var commonFlags = []flagSpec{
	stringFlag("session", "NAME", "else $AGENTMUX_SESSION, else the only running session", func(a *clientArgs) *string { return &a.session }),
	switchFlag("json", "", func(a *clientArgs) *bool { return &a.json }),
}

// takes returns the flags c takes: its own, and the common ones of a session command.
func (c command) takes() []flagSpec {
	if !c.session {
		return c.flags
	}
	return append(append([]flagSpec(nil), c.flags...), commonFlags...)
}

// parseFlags parses args by c's flags into a fresh clientArgs, then checks the number
// of operands: every error is a usageError that starts with c's name.
func (c command) parseFlags(args []string) (clientArgs, error) {
	a := clientArgs{given: map[string]bool{}}
	specs := c.takes()
	lookup := func(name string) (flagDef, bool) {
		for _, f := range specs {
			if f.name == name || slices.Contains(f.aliases, name) {
				return flagDef{kind: f.kind, set: func(val string, given bool) error {
					a.given[f.name] = true
					return f.set(&a, val, given)
				}}, true
			}
		}
		return flagDef{}, false
	}
	ops, err := scanFlags(args, lookup, c.flagsFirst)
	if err != nil {
		return a, c.flagError(err)
	}
	a.operands = ops
	if n := len(ops); n < c.minArgs || c.maxArgs >= 0 && n > c.maxArgs {
		return a, usagef("%s: wrong number of arguments (agentmux help %s shows the usage)", c.errName(), c.helpName())
	}
	for i, op := range ops[:c.minArgs] {
		// A target, a message id, a duration: an empty one is a slip ("$VAR" unset).
		if strings.TrimSpace(op) == "" {
			return a, usagef("%s: argument %d is empty (agentmux help %s shows the usage)", c.errName(), i+1, c.helpName())
		}
	}
	return a, nil
}

// errName is how c's errors start: agentmux and its words (parse's say parse: alone).
func (c command) errName() string {
	switch {
	case c.errPrefix != "":
		return c.errPrefix
	case c.parent != "":
		return "agentmux " + c.parent + " " + c.name
	}
	return "agentmux " + c.name
}

// helpName is the command whose help shows c's usage (a part's: its command's).
func (c command) helpName() string {
	if c.parent != "" {
		return c.parent
	}
	return c.name
}

// flagError words an error of scanFlags for c, the same way for every subcommand.
func (c command) flagError(err error) error {
	var fe *flagError
	if !errors.As(err, &fe) {
		return err
	}
	switch fe.why {
	case flagUnknown:
		flag, _, _ := strings.Cut(fe.arg, "=")
		return usagef("%s: unknown flag %s (agentmux %s --help lists them)", c.errName(), flag, c.helpName())
	case flagMissing:
		return usagef("%s: %s needs a value", c.errName(), dashed(fe.name))
	case flagNoValue:
		return usagef("%s: %s takes no value", c.errName(), dashed(fe.name))
	case flagMalformed:
		return usagef("%s: malformed flag %s", c.errName(), fe.arg)
	}
	return usagef("%s: %v", c.errName(), fe.err)
}

// dashed is a flag's name as help and errors write it: -d, --read-only.
func dashed(name string) string {
	if len(name) == 1 {
		return "-" + name
	}
	return "--" + name
}

// flagHelp lists flags, one a line (a usage's later lines indented below the first):
// what `agentmux help CMD` shows, made from the table.
func flagHelp(specs []flagSpec) string {
	heads := make([]string, len(specs))
	width := 0
	for i, f := range specs {
		names := []string{dashed(f.name)}
		for _, al := range f.aliases {
			names = append(names, dashed(al))
		}
		h := strings.Join(names, ", ")
		switch {
		case f.kind == kindOptional:
			h += "[=" + f.arg + "]"
		case f.arg != "":
			h += " " + f.arg
		}
		heads[i] = h
		width = max(width, len(h))
	}
	var b strings.Builder
	for i, f := range specs {
		pad := strings.Repeat(" ", width-len(heads[i])+3)
		lines := strings.Split(f.usage, "\n")
		fmt.Fprintf(&b, "  %s%s%s\n", heads[i], pad, lines[0])
		for _, l := range lines[1:] {
			fmt.Fprintf(&b, "  %s%s\n", strings.Repeat(" ", width+3), l)
		}
	}
	return strings.TrimSuffix(b.String(), "\n")
}

// commonFlagHelp is the line of flags every session command takes.
func commonFlagHelp() string {
	var parts []string
	for _, f := range commonFlags {
		p := dashed(f.name)
		if f.arg != "" {
			p += " " + f.arg
		}
		if f.usage != "" {
			p += " (" + f.usage + ")"
		}
		parts = append(parts, p)
	}
	return "common flags: " + strings.Join(parts, ", ")
}
