//go:build !darwin

package dirs

import "os"

// socketBase is the folder of session sockets under $XDG_RUNTIME_DIR ("" when unset).
func socketBase() string { return xdgSocketDir(os.Getenv) }
