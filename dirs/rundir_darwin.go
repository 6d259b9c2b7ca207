package dirs

import "os"

// socketBase is the folder of session sockets on macOS (macSocketDir).
func socketBase() string { return macSocketDir(os.Getenv, os.Getuid()) }
