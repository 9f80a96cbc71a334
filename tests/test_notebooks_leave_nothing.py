"""Notebooks that start servers or processes leave nothing behind (issue 6).

Each such notebook runs top to bottom in a fresh kernel; then, in the same kernel, a probe
lists the kernel's child processes, the TCP ports it still listens on (other than the
kernel's own ZeroMQ ports) and the course's server and MCP-connection threads still alive.
All lists must be empty: every server started in a cell was stopped by the lesson's last
cell, no stdio server outlived its client, and no MCP connection (``MCPToolset``, the
capstone's) was left open.
"""
from __future__ import annotations

import json
import re

import nbformat
import pytest

from course_lib import notebooks as nbt

STARTS_SOMETHING = re.compile(r"start_server|start_agent|stdio|Popen|StdioClient|serve\(|MCPToolset|Capstone\(")
BASELINE = """
import psutil as _psutil
_course_ports_before = {c.laddr.port for c in _psutil.Process().net_connections(kind="inet")
                        if c.status == _psutil.CONN_LISTEN}
"""
PROBE = """
import json, psutil, threading
_own = _course_ports_before  # the kernel's own ZeroMQ sockets, listening before any cell ran
_me = psutil.Process()
print(json.dumps({
    "children": [" ".join(c.cmdline())[:200] for c in _me.children(recursive=True) if c.is_running()
                 and c.status() != psutil.STATUS_ZOMBIE],
    "ports": sorted(c.laddr.port for c in _me.net_connections(kind="inet")
                    if c.status == psutil.CONN_LISTEN and c.laddr.port not in _own),
    "threads": sorted(t.name for t in threading.enumerate() if t.is_alive()
                      and t.name.startswith(("course-server-", "mcp-toolset-"))),
}))
"""


def _candidates() -> list:
    found = []
    for path in nbt.shipped_notebooks():
        if "exercises" in path.parts:
            continue
        if STARTS_SOMETHING.search(path.read_text(encoding="utf-8")):
            found.append(path)
    return found


@pytest.mark.parametrize("path", _candidates(), ids=lambda p: str(p.relative_to(nbt.ROOT)))
def test_no_process_or_port_left_behind(path):
    from nbclient import NotebookClient

    nb = nbt.read(path)
    nb.cells.insert(0, nbformat.v4.new_code_cell(BASELINE))
    nb.cells.append(nbformat.v4.new_code_cell(PROBE))
    client = NotebookClient(nb, timeout=nbt.DEFAULT_TIMEOUT, kernel_name="python3", allow_errors=True,
                            resources={"metadata": {"path": str(path.parent)}})
    client.execute()
    assert nbt.errors_in(nb) == []
    out = "".join(o.get("text", "") for o in nb.cells[-1].outputs if o.get("output_type") == "stream")
    left = json.loads(out.strip().splitlines()[-1])
    assert left == {"children": [], "ports": [], "threads": []}, f"{path.name} left something running: {left}"
