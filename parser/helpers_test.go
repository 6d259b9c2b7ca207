package parser

// Helpers shared by the parser's tests: the unexported steps of a turn's delta called as
// the older tests call them, on rows numbered from 0.

// viewOf returns rows as a main screen numbered from row 0, the cursor not known.
func viewOf(rows []string) View {
	v := View{Lines: make([]Line, len(rows)), Cursor: -1}
	for i, r := range rows {
		v.Lines[i] = Line{N: int64(i), Text: r}
	}
	return v
}

// since returns the words of a main-screen turn whose baseline showed before and whose
// end shows lines, both from the same screen top, the cursor not known.
func since(p Profile, before, lines []string, typed []string) string {
	return MainTurn(p, viewOf(before), viewOf(lines), typed).Text
}

// freshOf is the content rule (fresh) as the relay runs it when rows moved: before's
// trailing live block is not compared.
func freshOf(p Profile, before, lines []string) int {
	chrome := newMatcher(p.Chrome)
	before, lines = cleanAll(before), cleanAll(lines)
	before = before[:liveStart(p, p.liveMatcher(), before)]
	return fresh(chrome, before, lines, chromeRows(chrome, lines))
}
