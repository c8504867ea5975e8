//go:build unix

package bench

import (
	"fmt"
	"os"
	"syscall"
)

// mapFile maps path read-only and returns its bytes and the function that
// unmaps them. The judge reads every output of every candidate (hundreds
// of MB for a large configuration): mapped, they are read once from the
// page cache instead of copied into the Go heap first. Only files of a
// process that has exited are mapped, so nothing truncates them under us.
func mapFile(path string) ([]byte, func(), error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, nil, err
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return nil, nil, err
	}
	if st.Size() == 0 {
		return []byte{}, func() {}, nil
	}
	if int64(int(st.Size())) != st.Size() {
		return nil, nil, fmt.Errorf("%s: %d bytes is too large to map", path, st.Size())
	}
	b, err := syscall.Mmap(int(f.Fd()), 0, int(st.Size()), syscall.PROT_READ, syscall.MAP_SHARED)
	if err != nil {
		// Not mappable (an odd file system): read it instead.
		b, err := os.ReadFile(path)
		return b, func() {}, err
	}
	return b, func() { _ = syscall.Munmap(b) }, nil
}
