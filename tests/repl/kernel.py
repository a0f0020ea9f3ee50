"""Cells run in a real Jupyter kernel: all at once (nbclient), read back by name, or one at a
time in a kernel of one's own (jupyter_client), which a test can interrupt or shut down."""

from __future__ import annotations

import re
import time
from collections.abc import Mapping
from typing import Any

import nbformat
from jupyter_client.blocking.client import BlockingKernelClient
from jupyter_client.manager import KernelManager, start_new_kernel
from nbclient import NotebookClient

ANSI = re.compile(r"\x1b\[[0-9;]*[A-Za-z]")
# How long a cell may go on once the kernel was interrupted.
AFTER_INTERRUPT_SECONDS = 45.0


def run_in_kernel(
    cells: dict[str, str], *, timeout: int = 90, allow_errors: bool = False
) -> dict[str, Any]:
    """Run ``cells`` in order in one fresh kernel; each executed cell under its name."""
    nb = nbformat.v4.new_notebook(cells=[nbformat.v4.new_code_cell(c) for c in cells.values()])
    NotebookClient(nb, timeout=timeout, kernel_name="python3", allow_errors=allow_errors).execute()
    return dict(zip(cells, nb.cells, strict=True))


class Kernel:
    """A real kernel; ``run`` executes a cell and returns its messages until idle. ``env``
    is the kernel process's environment (default: this one's)."""

    def __init__(self, env: Mapping[str, str] | None = None) -> None:
        self.manager: KernelManager
        self.client: BlockingKernelClient
        extra = {} if env is None else {"env": dict(env)}
        self.manager, self.client = start_new_kernel(kernel_name="python3", **extra)

    def run(self, code: str, *, interrupt_when: Any = None, timeout: float = 120) -> list[Any]:
        msg_id = self.client.execute(code)
        messages: list[Any] = []
        interrupted = False
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            try:
                msg = self.client.get_iopub_msg(timeout=0.2)
            except Exception:  # queue.Empty: nothing yet
                continue
            if msg["parent_header"].get("msg_id") != msg_id:
                continue
            messages.append(msg)
            if interrupt_when is not None and not interrupted and interrupt_when(msg):
                self.manager.interrupt_kernel()
                interrupted = True
                deadline = min(deadline, time.monotonic() + AFTER_INTERRUPT_SECONDS)
            content = msg["content"]
            if msg["msg_type"] == "status" and content["execution_state"] == "idle":
                return messages
        raise AssertionError(f"the cell did not end within the deadline: {code!r}")

    def text(self, code: str) -> str:
        """The plain text a cell shows (streams, results, errors)."""
        return shown(self.run(code))

    def shutdown(self) -> None:
        """Shut the kernel down as a front end does (a shutdown request, the process then
        exits on its own); killed only if it has not exited within jupyter_client's wait."""
        self.client.stop_channels()
        self.manager.shutdown_kernel(now=False)

    def close(self) -> None:
        self.client.stop_channels()
        self.manager.shutdown_kernel(now=True)


def shown(messages: list[Any]) -> str:
    parts = []
    for msg in messages:
        content = msg["content"]
        match msg["msg_type"]:
            case "stream":
                parts.append(content["text"])
            case "execute_result" | "display_data" | "update_display_data":
                parts.append(content["data"].get("text/html") or content["data"]["text/plain"])
            case "error":
                parts.append("\n".join(content["traceback"]))
    return ANSI.sub("", "\n".join(parts))
