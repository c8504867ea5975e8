package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"math"
	"math/rand/v2"
	"net/http"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"time"

	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"

	pluginv1 "github.com/cudaperf/cudaperf/plugins/proto/cudaperf/plugin/v1"
	"github.com/cudaperf/cudaperf/plugins/sdk"
)

var version = "dev"

type settings struct {
	baseURL     string
	model       string
	apiKey      string
	concurrency int
	retries     int
	timeout     time.Duration
}

func env(name, def string) string {
	if v := os.Getenv(name); v != "" {
		return v
	}
	return def
}

func parseSettings(args []string) (settings, error) {
	fs := flag.NewFlagSet("openai", flag.ContinueOnError)
	var s settings
	var keyEnv string
	fs.StringVar(&s.baseURL, "base-url", env("CUDAPERF_OPENAI_BASE_URL", "http://127.0.0.1:8000/v1"), "server URL up to /v1")
	fs.StringVar(&s.model, "model", env("CUDAPERF_OPENAI_MODEL", ""), "model name")
	fs.StringVar(&keyEnv, "api-key-env", env("CUDAPERF_OPENAI_API_KEY_ENV", "OPENAI_API_KEY"), "variable holding the API key")
	conc, _ := strconv.Atoi(env("CUDAPERF_OPENAI_CONCURRENCY", "8"))
	retries, _ := strconv.Atoi(env("CUDAPERF_OPENAI_RETRIES", "5"))
	timeout, _ := time.ParseDuration(env("CUDAPERF_OPENAI_TIMEOUT", "10m"))
	fs.IntVar(&s.concurrency, "concurrency", conc, "requests in flight")
	fs.IntVar(&s.retries, "retries", retries, "retries per request")
	fs.DurationVar(&s.timeout, "timeout", timeout, "per request")
	if err := fs.Parse(args); err != nil {
		return s, err
	}
	s.baseURL = strings.TrimRight(s.baseURL, "/")
	s.apiKey = os.Getenv(keyEnv)
	if s.concurrency < 1 {
		s.concurrency = 1
	}
	if s.timeout <= 0 {
		s.timeout = 10 * time.Minute
	}
	return s, nil
}

type server struct {
	pluginv1.UnimplementedPolicyServiceServer
	s      settings
	client *http.Client
	sem    chan struct{}
	cfgErr error
}

func main() {
	s, err := parseSettings(os.Args[1:])
	srv := &server{s: s, client: &http.Client{}, sem: make(chan struct{}, max(1, s.concurrency)), cfgErr: err}
	if err == nil && s.model == "" {
		srv.cfgErr = errors.New("no model: set --model in the plugin's args or $CUDAPERF_OPENAI_MODEL")
	}
	sdk.ServePolicy(srv)
}

func (s *server) Describe(context.Context, *pluginv1.DescribePolicyRequest) (*pluginv1.DescribePolicyResponse, error) {
	return &pluginv1.DescribePolicyResponse{
		Plugin:      &pluginv1.PluginInfo{Name: "openai", Version: version, Description: "OpenAI-compatible chat completions at " + s.s.baseURL},
		Model:       s.s.model,
		CanUpdate:   false,
		CanLogprobs: true,
	}, nil
}

type chatMessage struct {
	Role    string `json:"role"`
	Content string `json:"content"`
}

type chatRequest struct {
	Model       string        `json:"model"`
	Messages    []chatMessage `json:"messages"`
	N           int           `json:"n,omitempty"`
	Temperature float64       `json:"temperature"`
	TopP        float64       `json:"top_p,omitempty"`
	MaxTokens   int           `json:"max_tokens,omitempty"`
	Seed        *int64        `json:"seed,omitempty"`
	Stop        []string      `json:"stop,omitempty"`
	Logprobs    bool          `json:"logprobs,omitempty"`
}

type chatResponse struct {
	Choices []struct {
		Index   int `json:"index"`
		Message struct {
			Content string `json:"content"`
		} `json:"message"`
		FinishReason string `json:"finish_reason"`
		Logprobs     *struct {
			Content []struct {
				Token   string  `json:"token"`
				Logprob float64 `json:"logprob"`
			} `json:"content"`
		} `json:"logprobs"`
	} `json:"choices"`
	Usage struct {
		PromptTokens     int `json:"prompt_tokens"`
		CompletionTokens int `json:"completion_tokens"`
	} `json:"usage"`
}

func (s *server) Generate(ctx context.Context, req *pluginv1.GenerateRequest) (*pluginv1.GenerateResponse, error) {
	if s.cfgErr != nil {
		return nil, status.Errorf(codes.FailedPrecondition, "openai: %v", s.cfgErr)
	}
	n := int(req.GetGroupSize())
	if n < 1 {
		return nil, status.Errorf(codes.InvalidArgument, "openai: group_size %d: must be ≥ 1", n)
	}
	prompts := req.GetPrompts()
	results := make([][]*pluginv1.Completion, len(prompts))
	errs := make([]error, len(prompts))
	var wg sync.WaitGroup
	for i, p := range prompts {
		wg.Add(1)
		go func() {
			defer wg.Done()
			results[i], errs[i] = s.complete(ctx, p, n, req.GetSampling())
		}()
	}
	wg.Wait()
	out := &pluginv1.GenerateResponse{}
	for i, err := range errs {
		if err != nil {
			return nil, status.Errorf(codes.Unavailable, "openai: prompt %s: %v", prompts[i].GetId(), err)
		}
		out.Completions = append(out.Completions, results[i]...)
	}
	return out, nil
}

// complete asks for n choices, asking again for the rest when the server
// returns fewer.
func (s *server) complete(ctx context.Context, p *pluginv1.Prompt, n int, sp *pluginv1.SamplingParams) ([]*pluginv1.Completion, error) {
	body := chatRequest{Model: s.s.model, Temperature: sp.GetTemperature(), TopP: sp.GetTopP(),
		MaxTokens: int(sp.GetMaxTokens()), Stop: sp.GetStop(), Logprobs: sp.GetLogprobs()}
	for _, m := range p.GetMessages() {
		body.Messages = append(body.Messages, chatMessage{Role: m.GetRole(), Content: m.GetContent()})
	}
	var out []*pluginv1.Completion
	for round := 0; len(out) < n; round++ {
		if round > n {
			return nil, fmt.Errorf("the server returned no choices %d times in a row", round)
		}
		body.N = n - len(out)
		if seed := sp.GetSeed(); seed != 0 {
			// A different seed per round, or a seeded server would repeat
			// the same answers.
			sd := seed + int64(round)*7919
			body.Seed = &sd
		}
		resp, err := s.post(ctx, body)
		if err != nil {
			return nil, err
		}
		per := 0
		if len(resp.Choices) > 0 {
			per = int(math.Round(float64(resp.Usage.CompletionTokens) / float64(len(resp.Choices))))
		}
		for _, c := range resp.Choices {
			if len(out) == n {
				break
			}
			comp := &pluginv1.Completion{PromptId: p.GetId(), Index: int32(len(out)), Text: c.Message.Content,
				FinishReason: c.FinishReason, PromptTokens: int32(resp.Usage.PromptTokens), CompletionTokens: int32(per)}
			if c.Logprobs != nil {
				for _, lp := range c.Logprobs.Content {
					comp.Logprobs = append(comp.Logprobs, &pluginv1.TokenLogprob{Token: lp.Token, Logprob: lp.Logprob})
				}
				comp.CompletionTokens = int32(len(c.Logprobs.Content))
			}
			out = append(out, comp)
		}
	}
	return out, nil
}

// retryable reports the statuses that a later attempt may fix.
func retryable(code int) bool {
	return code == http.StatusRequestTimeout || code == http.StatusConflict || code == http.StatusTooManyRequests || code >= 500
}

func (s *server) post(ctx context.Context, body chatRequest) (*chatResponse, error) {
	b, err := json.Marshal(body)
	if err != nil {
		return nil, err
	}
	var last error
	for attempt := 0; attempt <= s.s.retries; attempt++ {
		if attempt > 0 {
			wait := min(30*time.Second, time.Duration(float64(500*time.Millisecond)*math.Pow(2, float64(attempt-1))))
			wait = wait/2 + time.Duration(rand.Int64N(int64(wait/2)+1))
			var ra *retryAfter
			if errors.As(last, &ra) && ra.d > 0 {
				wait = min(ra.d, 60*time.Second)
			}
			select {
			case <-time.After(wait):
			case <-ctx.Done():
				return nil, ctx.Err()
			}
		}
		resp, err := s.once(ctx, b)
		if err == nil {
			return resp, nil
		}
		last = err
		var he *httpError
		if errors.As(err, &he) && !retryable(he.code) {
			return nil, err
		}
		if ctx.Err() != nil {
			return nil, ctx.Err()
		}
	}
	return nil, fmt.Errorf("%w (gave up after %d retries)", last, s.s.retries)
}

type httpError struct {
	code int
	msg  string
}

func (e *httpError) Error() string {
	return fmt.Sprintf("chat/completions: HTTP %d: %s", e.code, e.msg)
}

type retryAfter struct {
	*httpError
	d time.Duration
}

func (r *retryAfter) Unwrap() error { return r.httpError }

func (s *server) once(ctx context.Context, body []byte) (*chatResponse, error) {
	select {
	case s.sem <- struct{}{}:
	case <-ctx.Done():
		return nil, ctx.Err()
	}
	defer func() { <-s.sem }()
	rctx, cancel := context.WithTimeout(ctx, s.s.timeout)
	defer cancel()
	req, err := http.NewRequestWithContext(rctx, http.MethodPost, s.s.baseURL+"/chat/completions", bytes.NewReader(body))
	if err != nil {
		return nil, &httpError{code: 0, msg: err.Error()}
	}
	req.Header.Set("Content-Type", "application/json")
	if s.s.apiKey != "" {
		req.Header.Set("Authorization", "Bearer "+s.s.apiKey)
	}
	resp, err := s.client.Do(req)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", s.s.baseURL, err) // network: retried
	}
	defer resp.Body.Close()
	data, err := io.ReadAll(io.LimitReader(resp.Body, 256<<20))
	if err != nil {
		return nil, fmt.Errorf("%s: %w", s.s.baseURL, err)
	}
	if resp.StatusCode != http.StatusOK {
		he := &httpError{code: resp.StatusCode, msg: strings.TrimSpace(string(data[:min(len(data), 500)]))}
		if secs, err := strconv.Atoi(resp.Header.Get("Retry-After")); err == nil {
			return nil, &retryAfter{httpError: he, d: time.Duration(secs) * time.Second}
		}
		return nil, he
	}
	var out chatResponse
	if err := json.Unmarshal(data, &out); err != nil {
		return nil, &httpError{code: resp.StatusCode, msg: "the answer is not chat-completions JSON: " + err.Error()}
	}
	return &out, nil
}

func (s *server) Update(context.Context, *pluginv1.UpdateRequest) (*pluginv1.UpdateResponse, error) {
	return nil, status.Error(codes.Unimplemented, "openai: a served model cannot be updated here (can_update = false); train it with an external trainer from the run's rollouts")
}

type saved struct {
	BaseURL string `json:"base_url"`
	Model   string `json:"model"`
}

// Save records which model was served, so a checkpoint says what produced
// its rollouts; there are no weights to save.
func (s *server) Save(_ context.Context, req *pluginv1.SaveRequest) (*pluginv1.SaveResponse, error) {
	b, _ := json.MarshalIndent(saved{BaseURL: s.s.baseURL, Model: s.s.model}, "", " ")
	if err := os.MkdirAll(req.GetPath(), 0o755); err != nil {
		return nil, status.Errorf(codes.Internal, "openai: %v", err)
	}
	if err := os.WriteFile(filepath.Join(req.GetPath(), "openai.json"), b, 0o644); err != nil {
		return nil, status.Errorf(codes.Internal, "openai: %v", err)
	}
	return &pluginv1.SaveResponse{}, nil
}

// Load checks that the checkpoint was made with the same model.
func (s *server) Load(_ context.Context, req *pluginv1.LoadRequest) (*pluginv1.LoadResponse, error) {
	b, err := os.ReadFile(filepath.Join(req.GetPath(), "openai.json"))
	if err != nil {
		return nil, status.Errorf(codes.InvalidArgument, "openai: %v (Load takes a folder written by Save)", err)
	}
	var st saved
	if err := json.Unmarshal(b, &st); err != nil {
		return nil, status.Errorf(codes.InvalidArgument, "openai: %v", err)
	}
	if st.Model != s.s.model {
		return nil, status.Errorf(codes.FailedPrecondition, "openai: the checkpoint was made with model %q, this plugin serves %q", st.Model, s.s.model)
	}
	return &pluginv1.LoadResponse{}, nil
}
