"""Bounded HTTP for the LLM client: a total deadline per attempt and a cap on the size of a reply.

httpx's timeouts bound each socket operation, not a request: a server that sends a valid reply one byte
every 0.5 s never trips a 1 s read timeout and holds the caller for minutes. Here every connect, write and
read of an attempt is clamped to what is left of the attempt's deadline (a read that would outlive it
raises ``ReadTimeout``, which the ``openai`` client reports as a timeout), and the bytes received are
counted: past ``max_bytes`` the attempt stops with :class:`ReplyTooLarge` (the body is never buffered).

The limits live in a thread-local set around each attempt (:func:`limits`), so one client can serve several
threads. :func:`bounded_http_client` is the ``http_client`` handed to ``openai.OpenAI``.
"""

from __future__ import annotations

import ssl
import threading
import time
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any, Iterable, Iterator

import httpcore2
import httpx2
import openai


class ReplyTooLarge(Exception):
    """The endpoint sent more than the allowed number of bytes (raised inside the transport).

    Deliberately not an httpx error: the ``openai`` client neither retries nor wraps it.
    """

    def __init__(self, max_bytes: int) -> None:
        self.max_bytes = max_bytes
        super().__init__(f"the reply is larger than {max_bytes} bytes")


@dataclass
class _Limit:
    until: float  # time.monotonic() deadline of the attempt
    max_bytes: int
    received: int = 0


_CURRENT = threading.local()


@contextmanager
def limits(seconds: float, max_bytes: int) -> Iterator[None]:
    """Bound the HTTP traffic of this thread inside the block: ``seconds`` in total, ``max_bytes`` received."""
    previous = getattr(_CURRENT, "limit", None)
    _CURRENT.limit = _Limit(time.monotonic() + max(0.0, seconds), max_bytes)
    try:
        yield
    finally:
        _CURRENT.limit = previous


def _clamp(timeout: float | None, expired: type[Exception]) -> float | None:
    """``timeout`` shortened to what is left of the current deadline (``expired`` when nothing is left)."""
    limit = getattr(_CURRENT, "limit", None)
    if limit is None:
        return timeout
    left = limit.until - time.monotonic()
    if left <= 0:
        raise expired("the request deadline has passed")
    return left if timeout is None else min(timeout, left)


class _BoundedStream(httpcore2.NetworkStream):
    def __init__(self, inner: httpcore2.NetworkStream) -> None:
        self._inner = inner

    def read(self, max_bytes: int, timeout: float | None = None) -> bytes:
        data = self._inner.read(max_bytes, _clamp(timeout, httpcore2.ReadTimeout))
        limit = getattr(_CURRENT, "limit", None)
        if limit is not None:
            limit.received += len(data)
            if limit.received > limit.max_bytes:
                raise ReplyTooLarge(limit.max_bytes)
        return data

    def write(self, buffer: bytes, timeout: float | None = None) -> None:
        self._inner.write(buffer, _clamp(timeout, httpcore2.WriteTimeout))

    def close(self) -> None:
        self._inner.close()

    def start_tls(self, ssl_context: ssl.SSLContext, server_hostname: str | None = None, timeout: float | None = None
                  ) -> httpcore2.NetworkStream:
        return _BoundedStream(self._inner.start_tls(ssl_context, server_hostname,
                                                    _clamp(timeout, httpcore2.ConnectTimeout)))

    def get_extra_info(self, info: str) -> Any:
        return self._inner.get_extra_info(info)


class _BoundedBackend(httpcore2.NetworkBackend):
    def __init__(self, inner: httpcore2.NetworkBackend) -> None:
        self._inner = inner

    def connect_tcp(self, host: str, port: int, timeout: float | None = None, local_address: str | None = None,
                    socket_options: Iterable[httpcore2.SOCKET_OPTION] | None = None) -> httpcore2.NetworkStream:
        return _BoundedStream(self._inner.connect_tcp(host, port, _clamp(timeout, httpcore2.ConnectTimeout),
                                                      local_address, socket_options))

    def connect_unix_socket(self, path: str, timeout: float | None = None,
                            socket_options: Iterable[httpcore2.SOCKET_OPTION] | None = None) -> httpcore2.NetworkStream:
        return _BoundedStream(self._inner.connect_unix_socket(path, _clamp(timeout, httpcore2.ConnectTimeout),
                                                              socket_options))

    def sleep(self, seconds: float) -> None:
        self._inner.sleep(seconds)


def bounded_http_client(timeout: float) -> httpx2.Client:
    """An httpx client (the ``openai`` SDK's defaults) whose connections obey :func:`limits`, proxied ones
    (``HTTPS_PROXY`` and friends) included."""
    transport = httpx2.HTTPTransport()
    client = openai.DefaultHttpxClient(transport=transport, timeout=timeout)
    for t in (transport, *client._mounts.values()):
        pool = getattr(t, "_pool", None)  # httpx builds its pools without a backend hook: swap in the bounded one
        if pool is None:
            continue
        if not hasattr(pool, "_network_backend"):  # pragma: no cover - an httpx2 release changed its internals
            raise RuntimeError("httpx2's connection pool has no _network_backend: cannot bound LLM requests")
        pool._network_backend = _BoundedBackend(pool._network_backend)
    return client


__all__ = ["ReplyTooLarge", "bounded_http_client", "limits"]
