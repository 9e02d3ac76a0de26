"""A scripted OpenAI-compatible chat-completions server on 127.0.0.1, for tests, demos and offline runs.

It speaks enough of the protocol for the real ``openai`` client: ``POST /v1/chat/completions``
(and ``/chat/completions``), ``GET /v1/models``. Replies come from a *script* consumed in order, then from
a *responder* (a function of the request) or a default. A reply is one of::

    "text"                                   a 200 completion whose message content is the text
    {"content": "text", "usage": {...}}      the same, with explicit usage
    {"json": {...}}                          content = json.dumps(value)
    {"status": 429, "headers": {...}, "body": {...}}   an HTTP error (body defaults to an OpenAI error object)
    {"delay": 2.0, ...}                      wait first (a client with a shorter timeout sees a timeout)
    {"raw": "not json", "status": 200}       a raw body, e.g. malformed JSON
    {"reject_response_format": True}         a 400 when the request carries response_format, else the reply
    {"reject_response_format": ["json_schema"], "reject_status": 500}   reject only those types, with that status
    {"drip": 0.5, ...}                       send the whole response (status line included) one byte per 0.5 s
    {"retry_after": 100}                     a 429 (or ``status``) with ``Retry-After: 100``
    {"huge": 1000000}                        a 200 whose content is that many '{' characters
    {"nested": 100000, "where": "content"}   content nested that deep ('[[[...]]]'); ``"where": "body"`` nests
                                             inside the JSON body itself (``{"choices": [[[...]]]}``)

Every request is recorded (``server.requests``: the decoded JSON bodies) so tests can assert how many
attempts the client made. Only the loopback interface is ever bound.

    with FakeOpenAI(["{\"facts\": [\"alpha BELIEVE bomb_1 IN room_0\"]}"]) as srv:
        client = LLMClient(base_url=srv.base_url, model="fake", api_key="x")
"""

from __future__ import annotations

import json
import threading
import time
from collections import deque
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any, Callable, Iterable, Optional

Reply = Any
Responder = Callable[[dict], Reply]


def _approx_tokens(text: str) -> int:
    return max(1, len(text.split()))


class FakeOpenAI:
    """A real HTTP server in a background thread; use as a context manager (or call start/stop)."""

    def __init__(self, script: Iterable[Reply] = (), responder: Optional[Responder] = None,
                 default: Reply = None, host: str = "127.0.0.1", port: int = 0):
        if host not in ("127.0.0.1", "localhost", "::1"):
            raise ValueError("FakeOpenAI binds the loopback interface only")
        self.script: deque = deque(script)
        self.responder = responder
        self.default = default
        self.requests: list[dict] = []
        self.paths: list[str] = []
        self._lock = threading.Lock()
        self._stopping = threading.Event()
        self._server = ThreadingHTTPServer((host, port), self._handler_class())
        self._server.daemon_threads = True
        self._thread: threading.Thread | None = None

    # --- lifecycle ---------------------------------------------------------------------------------
    @property
    def port(self) -> int:
        return self._server.server_address[1]

    @property
    def base_url(self) -> str:
        return f"http://127.0.0.1:{self.port}/v1"

    def start(self) -> "FakeOpenAI":
        self._thread = threading.Thread(target=self._server.serve_forever, kwargs={"poll_interval": 0.05},
                                        daemon=True, name="fake-openai")
        self._thread.start()
        return self

    def stop(self):
        self._stopping.set()
        self._server.shutdown()
        self._server.server_close()
        if self._thread is not None:
            self._thread.join(timeout=5)

    def __enter__(self):
        return self.start()

    def __exit__(self, *exc):
        self.stop()

    def push(self, *replies: Reply):
        with self._lock:
            self.script.extend(replies)

    @property
    def count(self) -> int:
        return len(self.requests)

    # --- replies -----------------------------------------------------------------------------------
    def _next(self, request: dict) -> Reply:
        with self._lock:
            self.requests.append(request)
            if self.script:
                reply = self.script.popleft()
                if callable(reply):
                    reply = reply(request)
                return reply
        if self.responder is not None:
            return self.responder(request)
        if self.default is not None:
            return self.default
        return {"status": 500, "body": {"error": {"message": "script exhausted", "type": "server_error"}}}

    def _handler_class(self):
        fake = self

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def log_message(self, *args):  # keep test output quiet
                pass

            def _send(self, status: int, body: bytes, headers: dict | None = None,
                      ctype: str = "application/json", drip: float = 0.0):
                if drip:
                    self._drip(status, body, headers or {}, ctype, drip)
                    return
                try:
                    self.send_response(status)
                    self.send_header("Content-Type", ctype)
                    self.send_header("Content-Length", str(len(body)))
                    for k, v in (headers or {}).items():
                        self.send_header(k, str(v))
                    self.end_headers()
                    self.wfile.write(body)
                except (BrokenPipeError, ConnectionResetError, OSError):
                    pass  # the client gave up (e.g. its timeout): nothing to tell it

            def _drip(self, status: int, body: bytes, headers: dict, ctype: str, per_byte: float):
                """The whole response one byte at a time (a server that is slow but never silent)."""
                head = [f"HTTP/1.1 {status} {self.responses.get(status, ('',))[0]}", f"Content-Type: {ctype}",
                        f"Content-Length: {len(body)}", *(f"{k}: {v}" for k, v in headers.items())]
                data = ("\r\n".join(head) + "\r\n\r\n").encode() + body
                for i in range(len(data)):
                    if fake._stopping.wait(per_byte):
                        return
                    try:
                        self.wfile.write(data[i:i + 1])
                        self.wfile.flush()
                    except OSError:
                        return  # the client gave up
                self.close_connection = True

            def do_GET(self):
                if self.path.rstrip("/").endswith("/models"):
                    body = {"object": "list", "data": [{"id": "fake", "object": "model", "owned_by": "belief"}]}
                    self._send(200, json.dumps(body).encode())
                else:
                    self._send(404, b'{"error": {"message": "not found"}}')

            def do_POST(self):
                length = int(self.headers.get("Content-Length") or 0)
                raw = self.rfile.read(length) if length else b""
                fake.paths.append(self.path)
                if not self.path.rstrip("/").endswith("/chat/completions"):
                    self._send(404, b'{"error": {"message": "only chat completions here"}}')
                    return
                try:
                    request = json.loads(raw or b"{}")
                except json.JSONDecodeError:
                    self._send(400, b'{"error": {"message": "request body is not JSON"}}')
                    return
                reply = fake._next(request)
                self._reply(request, reply)

            def _reply(self, request: dict, reply: Reply):
                if isinstance(reply, str):
                    reply = {"content": reply}
                reply = dict(reply or {})
                drip = float(reply.get("drip", 0) or 0)
                if "retry_after" in reply:
                    reply.setdefault("status", 429)
                    reply["headers"] = {**(reply.get("headers") or {}), "Retry-After": str(reply["retry_after"])}
                if "huge" in reply:
                    reply["content"] = "{" * int(reply["huge"])
                if "nested" in reply:
                    depth = int(reply["nested"])
                    if reply.get("where") == "body":
                        reply["raw"] = '{"choices": ' + "[" * depth + "]" * depth + "}"
                    else:
                        reply["content"] = "[" * depth + "]" * depth
                delay = float(reply.get("delay", 0) or 0)
                if delay and fake._stopping.wait(delay):
                    return
                reject = reply.get("reject_response_format")
                rf = request.get("response_format")
                if reject and isinstance(rf, dict) and (reject is True or rf.get("type") in reject):
                    body: dict[str, Any] = {"error": {"message": f"response_format type {rf.get('type')!r} is not supported",
                                      "type": "invalid_request_error", "param": "response_format"}}
                    self._send(int(reply.get("reject_status", 400)), json.dumps(body).encode())
                    return
                status = int(reply.get("status", 200))
                headers = reply.get("headers")
                if "raw" in reply:
                    self._send(status, str(reply["raw"]).encode(), headers, drip=drip)
                    return
                if status != 200:
                    body = reply.get("body") or {"error": {"message": f"scripted HTTP {status}",
                                                           "type": "server_error" if status >= 500 else "error"}}
                    self._send(status, json.dumps(body).encode(), headers, drip=drip)
                    return
                content = reply.get("content")
                if "json" in reply:
                    content = json.dumps(reply["json"])
                content = "" if content is None else str(content)
                prompt = " ".join(str(m.get("content", "")) for m in request.get("messages", []))
                usage = reply.get("usage") or {"prompt_tokens": _approx_tokens(prompt),
                                               "completion_tokens": _approx_tokens(content)}
                usage.setdefault("total_tokens", usage["prompt_tokens"] + usage["completion_tokens"])
                message: dict[str, Any] = {"role": "assistant", "content": content}
                if reply.get("refusal"):
                    message = {"role": "assistant", "content": None, "refusal": reply["refusal"]}
                body = {"id": f"chatcmpl-fake-{len(fake.requests)}", "object": "chat.completion",
                        "created": int(time.time()), "model": request.get("model", "fake"),
                        "choices": [{"index": 0, "message": message,
                                     "finish_reason": reply.get("finish_reason", "stop")}],
                        "usage": usage}
                self._send(200, json.dumps(body).encode(), headers, drip=drip)

        return Handler


def last_user_text(request: dict) -> str:
    """The content of the last user message of a recorded request."""
    for m in reversed(request.get("messages", [])):
        if m.get("role") == "user":
            return str(m.get("content", ""))
    return ""


__all__ = ["FakeOpenAI", "last_user_text"]
