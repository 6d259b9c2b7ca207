package hooks

import (
	"crypto/rand"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"slices"
	"syscall"
)

// Giving a Gemini home's writes back to the person's ~/.gemini. What goes back is what
// Gemini wrote into the home instead of through its links: a file it replaced by
// renaming, and a file or folder the person did not have. The rules, so that a run
// given back late (after a kill, days later) never loses the person's own work:
//
//   - a replaced file goes back only when the person's file is still as it was when
//     the run started (size, time, inode, mode) and not newer than Gemini's: an edit
//     made since wins;
//   - a new entry goes back only while the person has none by that name;
//   - each file is written beside its place and renamed into it (a copy cut short
//     leaves the old file whole); a new one with the mode Gemini gave it, folders
//     too; a replaced one keeps the person's mode (made no looser than Gemini's: a
//     0600 settings.json stays 0600 though Gemini wrote it 0644) and, where the
//     system lets us, the person's owner and group;
//   - both sides are opened as roots (os.Root): no link leads a write out of ~/.gemini,
//     links in the home are never copied, and a link of the person's is never replaced.

// copyInterrupt, when set (tests), is called after a copy is written and before it is
// put in place; an error stops the copy there, as a kill would.
var copyInterrupt func() error

// Close gives what Gemini wrote into this home back to the person's ~/.gemini (the
// rules above), then removes the home. What was not given back is in the error.
func (g *geminiHome) Close() error {
	return errors.Join(g.giveBack(), os.RemoveAll(g.dir))
}

// giveBack copies the home's entries into the person's ~/.gemini by the rules above.
func (g *geminiHome) giveBack() error {
	src, err := os.OpenRoot(filepath.Join(g.dir, ".gemini"))
	if err != nil {
		return err
	}
	defer src.Close()
	real := filepath.Join(g.person, ".gemini")
	if err := os.MkdirAll(real, 0o700); err != nil {
		return err
	}
	dst, err := os.OpenRoot(real)
	if err != nil {
		return err
	}
	defer dst.Close()
	return errors.Join(g.copyBack(src, dst, ".", "extensions"),
		g.copyBack(src, dst, "extensions", geminiHookExtension))
}

// copyBack gives back the entries of folder sub of the home, except skip.
func (g *geminiHome) copyBack(src, dst *os.Root, sub, skip string) error {
	entries, err := fs.ReadDir(src.FS(), sub)
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	if err != nil {
		return err
	}
	var errs []error
	for _, e := range entries {
		if e.Name() == skip || e.Type()&fs.ModeSymlink != 0 {
			continue // a link: Gemini wrote through it
		}
		rel := path.Join(sub, e.Name())
		info, err := src.Lstat(rel)
		if err != nil {
			errs = append(errs, err)
			continue
		}
		if !info.IsDir() && !info.Mode().IsRegular() {
			continue
		}
		cur, curErr := dst.Lstat(rel)
		if curErr != nil && !errors.Is(curErr, fs.ErrNotExist) {
			errs = append(errs, curErr)
			continue
		}
		mark, wasLink := g.linked[filepath.Join(".gemini", filepath.FromSlash(rel))]
		if !wasLink { // new here
			if curErr == nil {
				continue // the person has one too: theirs stays
			}
			if err := mkdirAllRoot(dst, sub); err != nil {
				errs = append(errs, err)
			} else if info.IsDir() {
				errs = append(errs, copyDirNew(src, dst, rel))
			} else {
				errs = append(errs, copyFileInto(src, dst, rel, info.Mode().Perm(), nil, false))
			}
			continue
		}
		// A link replaced: the person's entry is put back only when nobody changed it.
		switch {
		case curErr != nil:
			errs = append(errs, fmt.Errorf("~/.gemini/%s was removed since the run started: Gemini's copy not given back", rel))
		case cur.Mode()&fs.ModeSymlink != 0:
			errs = append(errs, fmt.Errorf("~/.gemini/%s is a link: left as it is, Gemini's copy not given back", rel))
		case markOf(cur) != mark || cur.ModTime().After(info.ModTime()):
			errs = append(errs, fmt.Errorf("~/.gemini/%s changed since the run started: kept, Gemini's copy not given back", rel))
		case !info.Mode().IsRegular() || !cur.Mode().IsRegular():
			errs = append(errs, fmt.Errorf("~/.gemini/%s: a folder replaced: not given back", rel))
		default:
			errs = append(errs, copyFileInto(src, dst, rel, info.Mode().Perm()&cur.Mode().Perm(), ownerOf(cur), true))
		}
	}
	return errors.Join(errs...)
}

// mkdirAllRoot makes folder dir in root, with its parents, 0700.
func mkdirAllRoot(root *os.Root, dir string) error {
	if dir == "." {
		return nil
	}
	return root.MkdirAll(dir, 0o700)
}

// tempName is a name beside rel for a copy being written.
func tempName(rel string) string {
	return path.Join(path.Dir(rel), ".agentmux-copy-"+rand.Text())
}

// owner is a file's owner and group.
type owner struct{ uid, gid int }

// ownerOf is info's owner (nil when the system does not say).
func ownerOf(info fs.FileInfo) *owner {
	if sys, ok := info.Sys().(*syscall.Stat_t); ok {
		return &owner{uid: int(sys.Uid), gid: int(sys.Gid)}
	}
	return nil
}

// copyFileInto writes src's file rel with mode perm (and owner who, when not nil and
// the system lets us) beside dst's rel and then puts it in place: renamed over the
// old one (replace) or linked to a name still free.
func copyFileInto(src, dst *os.Root, rel string, perm fs.FileMode, who *owner, replace bool) error {
	tmp := tempName(rel)
	if err := writeCopy(src, dst, rel, tmp, perm); err != nil {
		return err
	}
	if who != nil {
		// Only root may give a file away; anyone may keep their own. A person's file
		// of another owner that we could not give back as theirs stays as it was.
		if err := dst.Lchown(tmp, who.uid, who.gid); err != nil && (who.uid != os.Getuid() || !errors.Is(err, fs.ErrPermission)) {
			return errors.Join(fmt.Errorf("give back %s: keep its owner: %w", rel, err), dst.Remove(tmp))
		}
	}
	if copyInterrupt != nil {
		if err := copyInterrupt(); err != nil {
			return err // as a kill would: the copy stays beside, the old file whole
		}
	}
	var err error
	if replace {
		err = dst.Rename(tmp, rel)
	} else {
		err = dst.Link(tmp, rel) // fails where a file appeared meanwhile: theirs stays
		if err != nil && !errors.Is(err, fs.ErrExist) {
			// A file system without hard links: rename, the name checked free just before.
			if _, lerr := dst.Lstat(rel); errors.Is(lerr, fs.ErrNotExist) {
				if err = dst.Rename(tmp, rel); err == nil {
					return nil
				}
			}
		}
	}
	if !replace || err != nil {
		err = errors.Join(err, dst.Remove(tmp))
	}
	if err != nil {
		return fmt.Errorf("give back %s: %w", rel, err)
	}
	return nil
}

// writeCopy copies src's file from to dst's new file to, with mode perm.
func writeCopy(src, dst *os.Root, from, to string, perm fs.FileMode) error {
	in, err := src.Open(from)
	if err != nil {
		return err
	}
	defer in.Close()
	out, err := dst.OpenFile(to, os.O_WRONLY|os.O_CREATE|os.O_EXCL, perm)
	if err != nil {
		return err
	}
	_, err = io.Copy(out, in)
	err = errors.Join(err, out.Sync(), out.Close(), dst.Chmod(to, perm))
	if err != nil {
		_ = dst.Remove(to)
		return fmt.Errorf("give back %s: %w", from, err)
	}
	return nil
}

// copyDirNew copies src's folder rel (links in it left out) into a folder beside dst's
// rel, modes kept, and renames it into place.
func copyDirNew(src, dst *os.Root, rel string) error {
	tmp := tempName(rel)
	type dirMode struct {
		path string
		perm fs.FileMode
	}
	var dirs []dirMode
	err := fs.WalkDir(src.FS(), rel, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		to := path.Join(tmp, p[len(rel):])
		info, err := d.Info()
		if err != nil {
			return err
		}
		switch {
		case d.IsDir():
			dirs = append(dirs, dirMode{to, info.Mode().Perm()})
			return dst.Mkdir(to, 0o700) // its own mode once filled
		case info.Mode().IsRegular():
			return writeCopy(src, dst, p, to, info.Mode().Perm())
		}
		return nil // a link or other: not copied
	})
	for _, d := range slices.Backward(dirs) {
		err = errors.Join(err, dst.Chmod(d.path, d.perm))
	}
	if err == nil && copyInterrupt != nil {
		if err := copyInterrupt(); err != nil {
			return err // as a kill would
		}
	}
	if err == nil {
		err = dst.Rename(tmp, rel)
	}
	if err != nil {
		return fmt.Errorf("give back %s: %w", rel, errors.Join(err, dst.RemoveAll(tmp)))
	}
	return nil
}
