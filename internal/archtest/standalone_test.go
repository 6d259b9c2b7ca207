// The repository must stand on its own: a bare clone has nothing beside it, so no file may
// reach outside the module for its data. This walks every file of the module (as the tests
// see it, not only what git tracks) and fails on any path that climbs into a sibling
// "shared" folder.
package archtest

import (
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// outsideRef matches a relative path leaving the module for a sibling folder named
// sibling, in the forms code writes it: one or more "../" then the name, or
// filepath.Join("..", …, name). The name is spliced in so this file does not match itself
// (nor a text search for such paths).
var outsideRef = regexp.MustCompile(`(\.\./)+` + sibling + `\b|"\.\.",\s*("\.\.",\s*)*"` + sibling + `"`)

// sibling is the folder beside the checkout that a bare clone does not have.
const sibling = "sha" + "red"

func TestNothingReadsOutsideTheRepository(t *testing.T) {
	root, err := filepath.Abs(filepath.Join("..", ".."))
	if err != nil {
		t.Fatal(err)
	}
	self, err := filepath.Abs("standalone_test.go")
	if err != nil {
		t.Fatal(err)
	}
	checked := 0
	err = filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			switch d.Name() {
			case ".git", "bin", ".cache":
				return filepath.SkipDir
			}
			return nil
		}
		if path == self || strings.HasSuffix(path, ".raw") {
			return nil
		}
		b, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		checked++
		for i, line := range strings.Split(string(b), "\n") {
			if outsideRef.MatchString(line) {
				rel, _ := filepath.Rel(root, path)
				t.Errorf("%s:%d reaches outside the repository: %s", rel, i+1, strings.TrimSpace(line))
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if checked < 100 {
		t.Fatalf("checked %d files; expected the whole module", checked)
	}
}
