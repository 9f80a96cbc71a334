"""The ``a2a-sdk``'s OpenTelemetry spans, switched off where nothing could record them.

``a2a-sdk`` wraps the methods of its request handler, event queue, task store and task updater in
OpenTelemetry spans (``a2a.utils.telemetry.trace_class``) whenever the ``opentelemetry-api``
package is importable, which it is in the kit's environment (``mcp`` requires it). Without the
OpenTelemetry *SDK* (``opentelemetry-sdk``) no tracer provider can be installed, so every one of
those spans is a non-recording no-op that still costs its wrapper, its context switch and its
attributes: measured in process (``httpx.ASGITransport``, 300 blocking ``SendMessage`` each, CPU
time, 2-core machine), a minimal agent 2.34 -> 1.58 ms and the finance agent 3.34 -> 2.73 ms per
message with the spans off.

:func:`install` (called by ``course_lib/__init__.py``, before any course module imports ``a2a``)
sets the SDK's own documented switch, ``OTEL_INSTRUMENTATION_A2A_SDK_ENABLED=false``, only when
``opentelemetry-sdk`` is not installed and the variable is not set already: a deployer who
installs the OpenTelemetry SDK, or sets the variable, gets the spans as ``a2a-sdk`` ships them.
The SDK reads the variable once, when ``a2a.utils.telemetry`` is first imported, so a process that
imported ``a2a.server`` before ``course_lib`` keeps the SDK's default.
"""
from __future__ import annotations

import importlib.util
import os

#: The ``a2a-sdk`` environment variable that turns its OpenTelemetry instrumentation on or off.
ENABLED_ENV_VAR = "OTEL_INSTRUMENTATION_A2A_SDK_ENABLED"


def otel_sdk_installed() -> bool:
    """Whether the OpenTelemetry SDK (``opentelemetry.sdk``, the package that records and exports
    spans) can be imported; importing nothing but its parent package to find out."""
    try:
        return importlib.util.find_spec("opentelemetry.sdk") is not None
    except (ImportError, ValueError):  # no ``opentelemetry`` package at all
        return False


def install() -> bool:
    """Turn ``a2a-sdk``'s spans off when nothing could record them; returns whether it did.

    Sets ``OTEL_INSTRUMENTATION_A2A_SDK_ENABLED=false`` in ``os.environ`` (inherited by the
    servers the kit starts) unless the variable is already set or ``opentelemetry-sdk`` is installed.
    """
    if ENABLED_ENV_VAR in os.environ or otel_sdk_installed():
        return False
    os.environ[ENABLED_ENV_VAR] = "false"
    return True
