package proto

// Every frame type this package declares (a Type… constant in its source) goes one
// way or the other, so a new type cannot be left out of the session's handler table
// unnoticed (hub's test walks ClientTypes).

import (
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestEveryFrameTypeHasADirection(t *testing.T) {
	fset := token.NewFileSet()
	entries, err := os.ReadDir(".")
	require.NoError(t, err)
	declared := map[string]string{}
	for _, en := range entries {
		if !strings.HasSuffix(en.Name(), ".go") || strings.HasSuffix(en.Name(), "_test.go") {
			continue
		}
		f, err := parser.ParseFile(fset, en.Name(), nil, 0)
		require.NoError(t, err)
		for _, d := range f.Decls {
			g, ok := d.(*ast.GenDecl)
			if !ok || g.Tok != token.CONST {
				continue
			}
			for _, spec := range g.Specs {
				vs := spec.(*ast.ValueSpec)
				for i, n := range vs.Names {
					if !strings.HasPrefix(n.Name, "Type") || i >= len(vs.Values) {
						continue
					}
					if lit, ok := vs.Values[i].(*ast.BasicLit); ok && lit.Kind == token.STRING {
						declared[n.Name], _ = strconv.Unquote(lit.Value)
					}
				}
			}
		}
	}
	require.Contains(t, declared, "TypeAnswer")
	for name, typ := range declared {
		client, server := slices.Contains(ClientTypes, typ), slices.Contains(ServerTypes, typ)
		assert.True(t, client != server, "%s (%s): in ClientTypes or ServerTypes, one of them", name, typ)
	}
	assert.Len(t, append(ClientTypes, ServerTypes...), len(declared), "no type twice, none not declared")
}
