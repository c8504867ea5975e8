package grpo

import (
	"regexp"
	"strings"
)

// fence matches a fenced code block: ``` or ~~~, an optional language tag,
// the body, and the closing fence.
var fence = regexp.MustCompile("(?s)(```|~~~)[ \t]*([A-Za-z0-9_+.-]*)[^\n]*\n(.*?)(?:\n[ \t]*)?(```|~~~)")

// cudaTags are the language tags that mark a block as the candidate.
var cudaTags = map[string]bool{"cuda": true, "cu": true, "c++": true, "cpp": true, "c": true, "": true}

// Extract returns the candidate's source from a completion: the last fenced
// block tagged cuda (or cu, cpp, c, or untagged) that defines the entry
// point, else the last such block at all. ok is false, with the reason, when
// there is no usable block: the candidate then gets the compile-failure
// reward and the step's metrics count it. A block whose closing fence is
// missing (the model ran out of tokens) is not used: half a kernel cannot
// compile and would only waste a compiler run.
func Extract(completion, entry string) (code string, ok bool, why string) {
	return extract(completion, entry, cudaTags, "cuda")
}

// ExtractFor is Extract for a task of either kind: a torch2cuda task's
// candidate is the last ```python block defining ModelNew.
func ExtractFor(t *Task, completion string) (code string, ok bool, why string) {
	if t.Kind == KindTorch2CUDA {
		return extract(completion, t.Entry, pythonTags, "python")
	}
	return Extract(completion, t.Entry)
}

func extract(completion, entry string, tags map[string]bool, lang string) (code string, ok bool, why string) {
	ms := fence.FindAllStringSubmatch(completion, -1)
	var last string
	found := false
	for _, m := range ms {
		if !tags[strings.ToLower(m[2])] || strings.TrimSpace(m[3]) == "" {
			continue
		}
		body := m[3] + "\n"
		if entry != "" && strings.Contains(body, entry) {
			code, ok = body, true
		}
		last, found = body, true
	}
	if ok {
		return code, true, ""
	}
	if found {
		return last, true, ""
	}
	if strings.Count(completion, "```") == 1 {
		return "", false, "unterminated code block (the completion was cut off?)"
	}
	return "", false, "no ```" + lang + " code block"
}
