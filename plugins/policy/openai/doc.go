// Command openai is a policy plugin for any OpenAI-compatible
// chat-completions server (vLLM, SGLang, llama.cpp's server, OpenAI
// itself). It samples; it cannot update (Describe says can_update =
// false), so with it `cudaperf train` is an evaluation or data-collection
// run whose rollouts (runs/<name>/rollouts/) an external trainer can read,
// and `cudaperf eval` measures a served model.
//
// Settings, as flags in the manifest's args or environment variables:
//
//	--base-url     $CUDAPERF_OPENAI_BASE_URL   server root up to /v1 (default http://127.0.0.1:8000/v1)
//	--model        $CUDAPERF_OPENAI_MODEL      model name the server knows (required)
//	--api-key-env  $CUDAPERF_OPENAI_API_KEY_ENV the variable holding the API key (default OPENAI_API_KEY;
//	                                           none set: no Authorization header, as local servers expect)
//	--concurrency  $CUDAPERF_OPENAI_CONCURRENCY requests in flight at once (default 8)
//	--retries      $CUDAPERF_OPENAI_RETRIES    retries of a failed request (default 5)
//	--timeout      $CUDAPERF_OPENAI_TIMEOUT    per request (default 10m)
//
// A request is retried on a network error, 408, 409, 429 and 5xx, after
// 0.5 s · 2^k (at most 30 s, with jitter; a Retry-After header is
// honoured); other statuses fail the Generate call with the server's
// message. A prompt's G completions are asked with n = G; a server that
// returns fewer choices (some ignore n) is asked again for the rest.
// Completion tokens are the server's usage divided among the choices of a
// response.
package main
