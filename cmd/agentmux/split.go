package main

import (
	"errors"
	"strings"
)

// errUnterminated is returned for a quote or escape that does not end.
var errUnterminated = errors.New("unterminated quote or escape")

// splitWords splits a command line into words the way a POSIX shell does, without any
// expansion: blanks (space, tab, newline) separate words; a backslash keeps the next
// character literally (backslash-newline is removed); single quotes keep everything up
// to the next single quote; inside double quotes a backslash escapes only $ ` " \ and
// newline. Quotes join into the surrounding word, and an empty pair of double or single
// quotes makes an empty word.
func splitWords(s string) ([]string, error) {
	var (
		words  []string
		cur    strings.Builder
		inWord bool
	)
	flush := func() {
		if inWord {
			words = append(words, cur.String())
			cur.Reset()
			inWord = false
		}
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch c {
		case ' ', '\t', '\n':
			flush()
		case '\\':
			if i+1 >= len(s) {
				return nil, errUnterminated
			}
			i++
			if s[i] == '\n' {
				continue
			}
			cur.WriteByte(s[i])
			inWord = true
		case '\'':
			end := strings.IndexByte(s[i+1:], '\'')
			if end < 0 {
				return nil, errUnterminated
			}
			cur.WriteString(s[i+1 : i+1+end])
			i += end + 1
			inWord = true
		case '"':
			inWord = true
			closed := false
			for i++; i < len(s); i++ {
				d := s[i]
				if d == '"' {
					closed = true
					break
				}
				if d == '\\' && i+1 < len(s) {
					switch n := s[i+1]; n {
					case '$', '`', '"', '\\':
						cur.WriteByte(n)
						i++
						continue
					case '\n':
						i++
						continue
					}
				}
				cur.WriteByte(d)
			}
			if !closed {
				return nil, errUnterminated
			}
		default:
			cur.WriteByte(c)
			inWord = true
		}
	}
	flush()
	return words, nil
}
