package grpo

import (
	"strings"
	"testing"
)

func TestExtract(t *testing.T) {
	cases := []struct {
		name, text string
		ok         bool
		has        string
	}{
		{"cuda block", "Here:\n```cuda\n__global__ void k(){}\nextern \"C\" void f(){}\n```\nDone.", true, "void f()"},
		{"prefers the block with the entry", "```cuda\nextern \"C\" void f(){}\n```\nand a helper\n```cpp\nint g;\n```", true, "void f()"},
		{"last block without entry", "```c\nint a;\n```\n```\nint b;\n```", true, "int b;"},
		{"python block is not code", "```python\nprint(1)\n```", false, ""},
		{"no block", "I cannot do that.", false, ""},
		{"cut off", "```cuda\n__global__ void k(", false, ""},
		{"empty block", "```cuda\n\n```", false, ""},
	}
	for _, c := range cases {
		code, ok, why := Extract(c.text, "f")
		if ok != c.ok {
			t.Errorf("%s: ok = %v (%s), want %v", c.name, ok, why, c.ok)
			continue
		}
		if ok && !strings.Contains(code, c.has) {
			t.Errorf("%s: code %q lacks %q", c.name, code, c.has)
		}
		if !ok && why == "" {
			t.Errorf("%s: no reason given", c.name)
		}
	}
}
