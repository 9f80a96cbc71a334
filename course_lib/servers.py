"""Starting and stopping local servers from notebook cells, safely and idempotently.

Lessons start HTTP servers (the mock LLM, MCP streamable HTTP, A2A agents) from cells.
Inside a Jupyter kernel that is delicate: uvicorn running as
a task on the kernel's loop calls ``sys.exit`` when its port is busy and kills the kernel,
and re-running a start cell starts a second server. So every server here:

* runs uvicorn in a daemon thread with its own event loop (a failed bind cannot kill the
  kernel; it is reported as :class:`ServerStartError`);
* binds 127.0.0.1 on a port the OS chooses (port 0), so lessons and tests running at the
  same time never collide;
* listens on a socket made by :func:`tcp_listener`, which sets ``TCP_NODELAY``: without it a
  reply written in two pieces (headers, then body) waits for Nagle's algorithm and the peer's
  delayed ACK, about 40 ms per request on loopback (asyncio sets ``TCP_NODELAY`` itself only on
  sockets created with ``IPPROTO_TCP``, and a bare ``socket.socket()`` is not one);
* is registered under a name: starting ``"mcp-http"`` again first stops the previous one,
  which makes start cells safe to re-run; :func:`stop_all` (the last cell of a lesson, and
  ``atexit``) stops everything.

Taught in lessons 09 and 11 (used from lesson 01 on).
"""
from __future__ import annotations

import atexit
import socket
import threading
import time
from dataclasses import dataclass, field
from typing import Any

import uvicorn

_RUNNING: dict[str, "LocalServer"] = {}
_LOCK = threading.Lock()
START_TIMEOUT = 15.0  # seconds to wait for a server to accept connections
STOP_TIMEOUT = 10.0  # seconds to wait for a graceful shutdown


class ServerStartError(RuntimeError):
    """A server could not start (port busy, app crashed at start-up...)."""


def tcp_listener(host: str = "127.0.0.1", port: int = 0, *, backlog: int = 128) -> socket.socket:
    """A bound, listening TCP socket for a server the kit starts, with ``TCP_NODELAY`` set.

    Every server of the kit (``start_server``, ``course mcp serve --transport http``,
    ``course llm serve``, the A2A agents) listens on one of these. The socket is created with
    ``IPPROTO_TCP`` so asyncio also sets ``TCP_NODELAY`` on every accepted connection (Linux
    inherits it from the listener anyway); replies then leave at once instead of waiting about
    40 ms for Nagle's algorithm and the client's delayed ACK.

    Args:
        host: the interface (``127.0.0.1`` by default: loopback only).
        port: the TCP port, or 0 for one the OS chooses (read it with ``sock.getsockname()[1]``).
        backlog: pending connections the kernel queues.

    Returns:
        The listening socket (the caller closes it, or hands it to uvicorn).

    Raises:
        OSError: the port is taken (``EADDRINUSE``) or the host is not a local address.
    """
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM, socket.IPPROTO_TCP)
    try:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)  # restart at once after a stop (TIME_WAIT)
        sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        sock.bind((host, port))
        sock.listen(backlog)
    except OSError:
        sock.close()
        raise
    return sock


def has_nodelay(sock: Any) -> bool:
    """True when ``TCP_NODELAY`` is set on ``sock`` (a socket, or asyncio's ``TransportSocket``)."""
    return bool(sock.getsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY))


def free_port(host: str = "127.0.0.1") -> int:
    """A TCP port that is free right now on ``host`` (the OS picks it)."""
    with socket.socket() as s:
        s.bind((host, 0))
        return s.getsockname()[1]


def port_in_use(port: int, host: str = "127.0.0.1") -> bool:
    """True when something accepts connections on ``host:port``."""
    with socket.socket() as s:
        s.settimeout(0.2)
        return s.connect_ex((host, port)) == 0


def busy_port_hint(port: int, host: str = "127.0.0.1") -> str | None:
    """A one-line explanation when ``host:port`` is already taken, else None (for ``course ... serve``).

    Checked before serving so a learner reads what to do instead of uvicorn's ``[Errno 98]`` after a banner
    that looked like success.
    """
    if port and port_in_use(port, host):
        from .i18n import _

        return _("Port {port} on {host} is already in use (an earlier server still running?): stop it, or "
                 "choose another port with --port N (--port 0 picks a free one).").format(port=port, host=host)
    return None


@dataclass
class LocalServer:
    """A uvicorn server running an ASGI app in a daemon thread on 127.0.0.1.

    Attributes:
        name: the registry key (starting the same name again replaces this server).
        port: the TCP port it listens on.
        url: ``http://127.0.0.1:<port>``.
    """

    name: str
    port: int
    server: uvicorn.Server = field(repr=False)
    thread: threading.Thread = field(repr=False)
    sock: socket.socket | None = field(default=None, repr=False)

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    @property
    def running(self) -> bool:
        return self.thread.is_alive() and bool(self.server.started)

    def stop(self, timeout: float = STOP_TIMEOUT) -> None:
        """Ask uvicorn to exit and wait for its thread (at most ``timeout`` seconds)."""
        self.server.should_exit = True
        if self.thread is threading.current_thread():  # serve_forever's own thread: it ends when run() returns
            return
        self.thread.join(timeout)
        if self.thread.is_alive():  # a stuck connection: stop waiting for it
            self.server.force_exit = True
            self.thread.join(timeout)
        if self.sock is not None:
            self.sock.close()
        with _LOCK:
            if _RUNNING.get(self.name) is self:
                del _RUNNING[self.name]

    def connection_sockets(self) -> list[Any]:
        """The server side of every open client connection (asyncio ``TransportSocket`` objects)."""
        sockets = []
        for protocol in list(self.server.server_state.connections):
            transport = getattr(protocol, "transport", None)
            sock = transport.get_extra_info("socket") if transport is not None else None
            if sock is not None:
                sockets.append(sock)
        return sockets

    def __repr__(self) -> str:
        return f"LocalServer({self.name!r}, {self.url}, {'running' if self.running else 'stopped'})"


def start_server(name: str, app: Any, port: int = 0, *, log_level: str = "warning") -> LocalServer:
    """Start ``app`` (ASGI) on 127.0.0.1 in a daemon thread; replace a server of the same name.

    Args:
        name: a label such as ``"mcp-http"``; re-running a cell with the same name first
            stops the old server, so start cells are idempotent.
        app: an ASGI application. Build a *fresh* one each time: some apps (MCP's
            ``streamable_http_app()``) cannot be served twice.
        port: 0 (default) for a free port chosen by the OS, or a fixed port.
        log_level: uvicorn's log level.

    Returns:
        The running :class:`LocalServer`.

    Raises:
        ServerStartError: the port is busy or the app failed at start-up (the kernel lives on).
    """
    stop_server(name)
    try:
        sock = tcp_listener("127.0.0.1", port)  # bound before the thread starts: no race for the port
    except OSError as e:
        raise ServerStartError(f"port {port} on 127.0.0.1 is already in use; use port=0 for a free one "
                               f"({e.strerror})") from None
    port = sock.getsockname()[1]
    server = uvicorn_server(app, log_level=log_level)
    thread = threading.Thread(target=_serve, args=(server, sock), daemon=True, name=f"course-server-{name}")
    thread.start()
    deadline = time.monotonic() + START_TIMEOUT
    while not server.started:
        if not thread.is_alive() or time.monotonic() > deadline:
            server.should_exit = True
            sock.close()
            raise ServerStartError(f"server {name!r} did not start on 127.0.0.1:{port} (see the log above)")
        time.sleep(0.01)
    handle = LocalServer(name, port, server, thread, sock)
    with _LOCK:
        _RUNNING[name] = handle
    return handle


def uvicorn_server(app: Any, *, log_level: str = "warning", graceful_shutdown: float | None = None) -> uvicorn.Server:
    """A ``uvicorn.Server`` for ``app`` as the kit runs them: no access log, lifespan when the app has one.

    ``graceful_shutdown``: seconds a stopping server waits for replies in flight before cancelling them
    (None: uvicorn's default, wait for all). Serve it on a :func:`tcp_listener` socket:
    ``server.run(sockets=[sock])``.
    """
    config = uvicorn.Config(app, log_level=log_level, access_log=False, lifespan="auto",
                            timeout_graceful_shutdown=graceful_shutdown)
    return uvicorn.Server(config)


def _serve(server: uvicorn.Server, sock: socket.socket) -> None:
    try:
        server.run(sockets=[sock])
    except SystemExit:  # uvicorn exits when the app fails at start-up; the thread ends, the kernel lives
        pass


def serve_forever(name: str, app: Any, sock: socket.socket, *, log_level: str = "warning",
                  graceful_shutdown: float | None = None) -> None:
    """Serve ``app`` on ``sock`` (from :func:`tcp_listener`) in this thread until Ctrl+C or :func:`stop_server`.

    For commands that serve in the foreground (``course mcp serve --transport http``, ``course llm
    serve``): the caller binds first (so it can print the real URL), then calls this. While it runs
    the server is listed by :func:`running_servers` under ``name``, like the ones
    :func:`start_server` runs in a thread. In the main thread Ctrl+C and SIGTERM stop it gracefully.
    """
    server = uvicorn_server(app, log_level=log_level, graceful_shutdown=graceful_shutdown)
    handle = LocalServer(name, sock.getsockname()[1], server, threading.current_thread(), sock)
    with _LOCK:
        _RUNNING[name] = handle
    try:
        server.run(sockets=[sock])
    finally:
        sock.close()
        with _LOCK:
            if _RUNNING.get(name) is handle:
                del _RUNNING[name]


def stop_server(name: str) -> bool:
    """Stop the server registered as ``name``; True if one was running."""
    with _LOCK:
        handle = _RUNNING.get(name)
    if handle is None:
        return False
    handle.stop()
    return True


def running_servers() -> list[LocalServer]:
    """The servers started by this process that are still registered."""
    with _LOCK:
        return list(_RUNNING.values())


def stop_all() -> list[str]:
    """Stop every server started here; returns their names (a lesson's last cell calls it)."""
    names = [s.name for s in running_servers()]
    for name in names:
        stop_server(name)
    return names


atexit.register(stop_all)
