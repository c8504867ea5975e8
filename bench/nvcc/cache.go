package nvcc

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
)

// Cache is a content-addressed store of compile products and logs: one
// folder per key holding the product, log.txt and meta.json.
type Cache struct {
	Dir string
}

// EnvCache overrides the compile cache folder (`cudaperf bench --cache`
// sets it for the benchmarker plugin it starts).
const EnvCache = "CUDAPERF_CACHE"

// DefaultCacheDir is $CUDAPERF_CACHE, else $XDG_CACHE_HOME/cudaperf, else
// the user cache directory's cudaperf, else .cudaperf-cache in the working
// directory.
func DefaultCacheDir() string {
	if d := os.Getenv(EnvCache); d != "" {
		return d
	}
	if d := os.Getenv("XDG_CACHE_HOME"); d != "" {
		return filepath.Join(d, "cudaperf")
	}
	if d, err := os.UserCacheDir(); err == nil {
		return filepath.Join(d, "cudaperf")
	}
	return ".cudaperf-cache"
}

// OpenCache creates dir (DefaultCacheDir when "") if needed.
func OpenCache(dir string) (*Cache, error) {
	if dir == "" {
		dir = DefaultCacheDir()
	}
	if err := os.MkdirAll(filepath.Join(dir, "compile"), 0o755); err != nil {
		return nil, fmt.Errorf("nvcc: cache %s: %w (set $XDG_CACHE_HOME to a writable folder)", dir, err)
	}
	return &Cache{Dir: dir}, nil
}

type meta struct {
	OK      bool   `json:"ok"`
	Command string `json:"command"`
}

func (c *Cache) entry(key string) string { return filepath.Join(c.Dir, "compile", key[:2], key) }

func (c *Cache) tempDir() (string, error) {
	d, err := os.MkdirTemp(filepath.Join(c.Dir, "compile"), "tmp-")
	if err != nil {
		return "", fmt.Errorf("nvcc: cache: %w", err)
	}
	return d, nil
}

func (c *Cache) lookup(key, product string) (*Result, bool) {
	dir := c.entry(key)
	data, err := os.ReadFile(filepath.Join(dir, "meta.json"))
	if err != nil {
		return nil, false
	}
	var m meta
	if json.Unmarshal(data, &m) != nil {
		return nil, false
	}
	logText, err := os.ReadFile(filepath.Join(dir, "log.txt"))
	if err != nil {
		return nil, false
	}
	res := &Result{OK: m.OK, Log: string(logText), Cached: true, Command: m.Command}
	if m.OK {
		res.Output = filepath.Join(dir, product)
		if _, err := os.Stat(res.Output); err != nil {
			return nil, false
		}
	}
	return res, true
}

// store moves the finished temporary folder into place. When another
// process stored the same key first, its entry is kept (they are equal).
func (c *Cache) store(key, tmp, product string, res *Result) (*Result, error) {
	m, _ := json.Marshal(meta{OK: res.OK, Command: res.Command})
	if err := os.WriteFile(filepath.Join(tmp, "meta.json"), m, 0o644); err != nil {
		return nil, fmt.Errorf("nvcc: cache: %w", err)
	}
	if err := os.WriteFile(filepath.Join(tmp, "log.txt"), []byte(res.Log), 0o644); err != nil {
		return nil, fmt.Errorf("nvcc: cache: %w", err)
	}
	if !res.OK {
		os.Remove(filepath.Join(tmp, product))
	}
	dst := c.entry(key)
	if err := os.MkdirAll(filepath.Dir(dst), 0o755); err != nil {
		return nil, fmt.Errorf("nvcc: cache: %w", err)
	}
	if err := os.Rename(tmp, dst); err != nil {
		if _, statErr := os.Stat(filepath.Join(dst, "meta.json")); statErr != nil && !errors.Is(err, os.ErrExist) {
			return nil, fmt.Errorf("nvcc: cache: %w", err)
		}
		// The entry there stays unless it lost its product (files removed
		// from the cache while it was in use: lookup missed it for that):
		// then this one replaces it.
		if _, statErr := os.Stat(filepath.Join(dst, product)); res.OK && statErr != nil {
			if err := os.RemoveAll(dst); err != nil {
				return nil, fmt.Errorf("nvcc: cache: %w", err)
			}
			if err := os.Rename(tmp, dst); err != nil {
				return nil, fmt.Errorf("nvcc: cache: %w", err)
			}
		}
	}
	if res.OK {
		res.Output = filepath.Join(dst, product)
	}
	return res, nil
}
