package main

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"

	"github.com/cudaperf/cudaperf/host/pluginhost"
	"github.com/cudaperf/cudaperf/host/pluginhost/plugintest"
)

// fakeServer is a chat-completions server: the first request gets 429,
// requests for model "broken" get 400, every answer holds at most 3
// choices (as a server that caps n would), and the Authorization header
// must carry the key.
type fakeServer struct {
	mu       sync.Mutex
	requests []chatRequest
	auth     []string
}

func (f *fakeServer) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if r.URL.Path != "/v1/chat/completions" || r.Method != http.MethodPost {
		http.NotFound(w, r)
		return
	}
	var req chatRequest
	if err := json.NewDecoder(r.Body).Decode(&req); err != nil {
		http.Error(w, err.Error(), http.StatusBadRequest)
		return
	}
	f.mu.Lock()
	f.requests = append(f.requests, req)
	f.auth = append(f.auth, r.Header.Get("Authorization"))
	first := len(f.requests) == 1
	f.mu.Unlock()
	if first {
		w.Header().Set("Retry-After", "0")
		http.Error(w, `{"error":"rate limited"}`, http.StatusTooManyRequests)
		return
	}
	if req.Model == "broken" {
		http.Error(w, `{"error":"no such model"}`, http.StatusBadRequest)
		return
	}
	type choice struct {
		Index        int               `json:"index"`
		Message      map[string]string `json:"message"`
		FinishReason string            `json:"finish_reason"`
	}
	var resp struct {
		Choices []choice       `json:"choices"`
		Usage   map[string]int `json:"usage"`
	}
	last := req.Messages[len(req.Messages)-1].Content
	for i := range min(req.N, 3) {
		resp.Choices = append(resp.Choices, choice{Index: i, FinishReason: "stop",
			Message: map[string]string{"role": "assistant", "content": fmt.Sprintf("```cuda\n// %s #%d seed %d\n```", last, i, *req.Seed)}})
	}
	resp.Usage = map[string]int{"prompt_tokens": 11, "completion_tokens": 10 * len(resp.Choices)}
	json.NewEncoder(w).Encode(resp)
}

func startPlugin(t *testing.T, url, model string) pluginhost.PolicyClient {
	dir := t.TempDir()
	plugintest.InstallGo(t, "plugins/policy/openai", dir)
	t.Setenv("CUDAPERF_OPENAI_BASE_URL", url+"/v1")
	t.Setenv("CUDAPERF_OPENAI_MODEL", model)
	t.Setenv("CUDAPERF_OPENAI_API_KEY_ENV", "TEST_OPENAI_KEY")
	t.Setenv("TEST_OPENAI_KEY", "sekret")
	h, err := pluginhost.New(pluginhost.Options{Dirs: []string{dir}})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(h.Close)
	p, ok := h.Plugin("openai")
	if !ok {
		t.Fatal("openai plugin not found")
	}
	if err := p.Start(context.Background()); err != nil {
		t.Fatal(err)
	}
	return p.Policy()
}

func TestAgainstLocalServer(t *testing.T) {
	fs := &fakeServer{}
	srv := httptest.NewServer(fs)
	defer srv.Close()
	pol := startPlugin(t, srv.URL, "tiny-coder")
	ctx := context.Background()

	info, err := pol.Describe(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if info.CanUpdate || info.Model != "tiny-coder" {
		t.Errorf("Describe: %+v (want can_update false, model tiny-coder)", info)
	}
	prompts := []pluginhost.Prompt{
		{ID: "a", Messages: []pluginhost.Message{{Role: "system", Content: "sys"}, {Role: "user", Content: "task A"}}},
		{ID: "b", Messages: []pluginhost.Message{{Role: "user", Content: "task B"}}},
	}
	got, err := pol.Generate(ctx, prompts, 5, pluginhost.Sampling{Temperature: 0.7, MaxTokens: 64, Seed: 42})
	if err != nil {
		t.Fatal(err)
	}
	for i, g := range got {
		if len(g) != 5 {
			t.Fatalf("prompt %d: %d completions, want 5", i, len(g))
		}
		seen := map[string]bool{}
		for k, c := range g {
			if c.Index != k || c.PromptID != prompts[i].ID || !strings.Contains(c.Text, prompts[i].Messages[len(prompts[i].Messages)-1].Content) {
				t.Errorf("prompt %d completion %d: %+v", i, k, c)
			}
			if seen[c.Text] {
				t.Errorf("prompt %d: completion %q repeated (the second request must use another seed)", i, c.Text)
			}
			seen[c.Text] = true
			if c.CompletionTokens != 10 || c.PromptTokens != 11 {
				t.Errorf("tokens %d/%d, want 11/10", c.PromptTokens, c.CompletionTokens)
			}
		}
	}
	fs.mu.Lock()
	// 1 rate-limited + 2 prompts × (3 + 2 choices).
	if len(fs.requests) != 5 {
		t.Errorf("%d requests, want 5 (one 429 retried, then n=5 capped at 3 asked again for 2)", len(fs.requests))
	}
	for i, r := range fs.requests {
		if fs.auth[i] != "Bearer sekret" {
			t.Errorf("request %d: Authorization %q", i, fs.auth[i])
		}
		if r.Model != "tiny-coder" || r.Temperature != 0.7 || r.MaxTokens != 64 {
			t.Errorf("request %d: %+v", i, r)
		}
	}
	fs.mu.Unlock()

	if _, err := pol.Update(ctx, 1, nil, nil); err == nil || !strings.Contains(err.Error(), "cannot be updated") {
		t.Errorf("Update: %v, want a clear refusal", err)
	}
	dir := t.TempDir()
	if err := pol.Save(ctx, dir); err != nil {
		t.Fatal(err)
	}
	if err := pol.Load(ctx, dir, false); err != nil {
		t.Error(err)
	}
}

func TestClientErrorIsNotRetried(t *testing.T) {
	fs := &fakeServer{}
	srv := httptest.NewServer(fs)
	defer srv.Close()
	pol := startPlugin(t, srv.URL, "broken")
	_, err := pol.Generate(context.Background(), []pluginhost.Prompt{{ID: "a", Messages: []pluginhost.Message{{Role: "user", Content: "x"}}}}, 2, pluginhost.Sampling{})
	if err == nil || !strings.Contains(err.Error(), "HTTP 400") || !strings.Contains(err.Error(), "no such model") {
		t.Fatalf("error %v, want the server's 400 message", err)
	}
	fs.mu.Lock()
	defer fs.mu.Unlock()
	if len(fs.requests) != 2 {
		t.Errorf("%d requests, want 2 (the 429 retried, the 400 not)", len(fs.requests))
	}
}
