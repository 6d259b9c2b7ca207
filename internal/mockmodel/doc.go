// Package mockmodel is a fake model server for running the real agent CLIs (Claude Code, Codex,
// Gemini CLI) offline in tests. It speaks just enough of three model APIs, over HTTP on
// 127.0.0.1, for each CLI to run whole turns:
//
//   - Anthropic Messages: POST /v1/messages, streamed (SSE) or plain JSON;
//   - OpenAI Responses: POST /v1/responses (SSE), plus GET /v1/models;
//   - Gemini: POST .../models/M:streamGenerateContent?alt=sse and .../models/M:generateContent.
//
// A [Server] is an [net/http.Handler], so a test can mount it on an httptest.Server, and
// [Server.Serve] runs it standalone (see cmd/mockmodel). A conversation turn is answered with
// the text of the server's [ReplyFunc] (a fixed text, or a function of the last user message
// such as [Numbered]), streamed word by word over a configurable duration so the client's busy
// UI is visible. Side requests the CLIs make on their own (title generation, routing, the
// next-speaker check) get a short answer, as JSON shaped by the request's schema when one is
// given. Anything else is answered 200 `{}`-style or 404 like the Python reference that
// recorded the streams in testdata/agent-streams. Every request is recorded in a log the tests can read
// ([Server.Requests]) or wait on ([Server.WaitFor]).
//
// The package owns only the HTTP side of the fake: it imports nothing of the project, and no
// project package other than tests and its own command may import it.
package mockmodel
