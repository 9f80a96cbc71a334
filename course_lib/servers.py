"""Starting and stopping local servers from notebook cells, safely and idempotently.

Lessons start HTTP servers (the mock LLM, MCP streamable HTTP, A2A agents) from cells.
Inside a Jupyter kernel that is delicate: uvicorn running as
a task on the kernel's loop calls ``sys.exit`` when its port is busy and kills the kernel,
and re-running a start cell starts a second server. So every server here:

* runs uvicorn in a daemon thread with its own event loop (a failed bind cannot kill the
  kernel; it is reported as :class:`ServerStartError`);
* binds 127.0.0.1 on a port the OS chooses (port 0), so lessons and tests running at the
  same time never collide;
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
        return (f"Port {port} on {host} is already in use (an earlier server still running?): stop it, or "
                f"choose another port with --port N (--port 0 picks a free one).")
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

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    @property
    def running(self) -> bool:
        return self.thread.is_alive() and bool(self.server.started)

    def stop(self, timeout: float = STOP_TIMEOUT) -> None:
        """Ask uvicorn to exit and wait for its thread (at most ``timeout`` seconds)."""
        self.server.should_exit = True
        self.thread.join(timeout)
        if self.thread.is_alive():  # a stuck connection: stop waiting for it
            self.server.force_exit = True
            self.thread.join(timeout)
        with _LOCK:
            if _RUNNING.get(self.name) is self:
                del _RUNNING[self.name]

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
    if port == 0:
        port = free_port()
    elif port_in_use(port):
        raise ServerStartError(f"port {port} on 127.0.0.1 is already in use; use port=0 for a free one")
    config = uvicorn.Config(app, host="127.0.0.1", port=port, log_level=log_level, lifespan="auto")
    server = uvicorn.Server(config)
    server.install_signal_handlers = lambda: None  # type: ignore[method-assign]  # the kernel owns signals
    thread = threading.Thread(target=_serve, args=(server,), daemon=True, name=f"course-server-{name}")
    thread.start()
    deadline = time.monotonic() + START_TIMEOUT
    while not server.started:
        if not thread.is_alive() or time.monotonic() > deadline:
            server.should_exit = True
            raise ServerStartError(f"server {name!r} did not start on 127.0.0.1:{port} (see the log above)")
        time.sleep(0.01)
    handle = LocalServer(name, port, server, thread)
    with _LOCK:
        _RUNNING[name] = handle
    return handle


def _serve(server: uvicorn.Server) -> None:
    try:
        server.run()
    except SystemExit:  # uvicorn exits on bind failure; the thread ends, the kernel lives
        pass


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
