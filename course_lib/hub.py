"""The course on JupyterHub or Binder: reaching a lesson's MCP HTTP server through the hub's proxy.

Inside a hub the kernel and the servers a lesson starts share one container, so notebook code
keeps using ``http://127.0.0.1:<port>`` and nothing changes. Only a client *outside* the
container (the learner's browser, e.g. a web MCP inspector) must go through the single-user
server's proxy (``jupyter-server-proxy``, part of Binder's image): ``<prefix>proxy/<port>/mcp``,
with ``<prefix>`` = ``$JUPYTERHUB_SERVICE_PREFIX`` (e.g. ``/user/ada/``).

That proxy forwards the browser's ``Host`` (the hub's public name) and ``Origin`` headers. The MCP
SDK's DNS-rebinding protection, on by default for a server bound to 127.0.0.1, accepts only
loopback hosts and answers **421 Invalid Host header** (or **403 Invalid Origin header**). So a
server meant to be reached through the proxy is built with :func:`mcp_transport_security`, which
keeps the protection on and adds the hub's public host, read from ``JUPYTERHUB_PUBLIC_URL`` (set
by JupyterHub 4.1+ when ``public_url`` is configured) or ``COURSE_PUBLIC_HOSTS`` (comma-separated,
for hubs that do not set it)::

    app = server.streamable_http_app(transport_security=mcp_transport_security())
    start_server("mcp-http", app)
    print(proxy_url(port))          # what to paste in the browser-side client

Never switch the protection off (``enable_dns_rebinding_protection=False``): any web page the
learner visits could then drive the server. Documented in the README ("Binder, JupyterHub,
devcontainer"); the MCP transports lesson starts servers this way when it runs on a hub.
"""
from __future__ import annotations

import os
from urllib.parse import urlsplit

LOOPBACK_HOSTS = ("127.0.0.1", "localhost", "[::1]")


def hub_prefix() -> str | None:
    """The single-user server's URL prefix (``/user/<name>/``) on JupyterHub or Binder, else None."""
    prefix = os.environ.get("JUPYTERHUB_SERVICE_PREFIX")
    if not prefix:
        return None
    return prefix if prefix.endswith("/") else prefix + "/"


def on_hub() -> bool:
    """True inside a JupyterHub (or Binder) single-user server."""
    return hub_prefix() is not None


def public_hosts() -> list[str]:
    """The host names (with port when not the default) learners' browsers use to reach the hub.

    From ``JUPYTERHUB_PUBLIC_URL`` and ``COURSE_PUBLIC_HOSTS`` (comma-separated ``host[:port]``);
    empty when neither is set.
    """
    hosts: list[str] = []
    url = os.environ.get("JUPYTERHUB_PUBLIC_URL", "")
    if url:
        netloc = urlsplit(url).netloc
        if netloc:
            hosts.append(netloc)
    hosts += [h.strip() for h in os.environ.get("COURSE_PUBLIC_HOSTS", "").split(",") if h.strip()]
    return list(dict.fromkeys(hosts))


def proxy_url(port: int, path: str = "mcp") -> str:
    """The path a browser uses to reach ``127.0.0.1:<port>/<path>`` through the hub's proxy.

    Example (``JUPYTERHUB_SERVICE_PREFIX=/user/ada/``): ``proxy_url(8123)`` → ``/user/ada/proxy/8123/mcp``.
    Outside a hub: the direct loopback URL ``http://127.0.0.1:<port>/<path>``.
    """
    prefix = hub_prefix()
    if prefix is None:
        return f"http://127.0.0.1:{port}/{path.lstrip('/')}"
    return f"{prefix}proxy/{port}/{path.lstrip('/')}"


def mcp_transport_security(extra_hosts: tuple[str, ...] | list[str] = ()):
    """MCP ``TransportSecuritySettings`` that accept loopback *and* the hub's public host(s).

    Args:
        extra_hosts: more ``host[:port]`` names to accept (e.g. ``("hub.example.org",)``).

    Returns:
        ``mcp.server.transport_security.TransportSecuritySettings`` with DNS-rebinding protection
        on; pass it as ``streamable_http_app(transport_security=...)``.

    Spec: MCP transports, "Security Warning" (validate ``Origin``, bind to localhost).
    """
    from mcp.server.transport_security import TransportSecuritySettings

    public = list(dict.fromkeys([*public_hosts(), *extra_hosts]))
    hosts = [f"{h}:*" for h in LOOPBACK_HOSTS] + [p for h in public for p in (h, f"{h}:*")]
    origins = [f"http://{h}:*" for h in LOOPBACK_HOSTS]
    origins += [f"{scheme}://{h}" for h in public for scheme in ("https", "http")]
    return TransportSecuritySettings(enable_dns_rebinding_protection=True, allowed_hosts=hosts,
                                     allowed_origins=origins)
