"""Replaying docs/windows.md: its PowerShell transcripts, each command run as its Linux
equivalent, what it printed compared line by line with what the page shows.

Used by tests/packaging/test_walkthrough.py (the repository's environment) and by
tests/packaging/smoke.py (a fresh environment with the wheel installed); so it uses the
standard library alone. In the page, ``…`` stands for any words in a line, or, alone on a
line, for any number of lines.
"""

from __future__ import annotations

import functools
import os
import queue
import re
import signal
import socket
import subprocess
import threading
import time
import urllib.request
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

PROMPT = re.compile(r"^(?:\(mcbews\) )?PS [^>]*> (?P<command>.*)$")
ACTION = re.compile(r"^<!-- replay: (?P<action>.*) -->$")
# How the page writes the places that differ from one computer to another.
PAGE_HOME = "C:/Users/ana"
PAGE_BUNDLE = "C:/Users/ana/mcbews/Lib/site-packages/mcbews_repl/_bundled"
PAGE_PORT = "8888"
# Windows-only commands, and the ones the driver of the wheel smoke runs itself.
NOT_RUN = {r".\mcbews\Scripts\Activate.ps1", r"start .\mcbews_bridge.mcaddon"}
MADE_BY_DRIVER = {"py -3.12 -m venv mcbews", "python -m pip install --upgrade pip"}
INSTALL = 'python -m pip install "mcbews-repl[lab]"'
LAB = "mcbews-repl lab"
# A bound for JupyterLab to print its URL (a busy machine), not a timing claim.
LAB_SECONDS = 90


@dataclass
class Step:
    """One command of the page, what the page shows it printing, what to do before it."""

    command: str
    shown: list[str] = field(default_factory=list)
    before: list[str] = field(default_factory=list)


def steps(page: str) -> list[Step]:
    """The commands of the page's ``powershell`` blocks, in order."""
    found: list[Step] = []
    inside, actions = False, []
    for line in page.splitlines():
        if line.startswith("```"):
            inside = line.strip() == "```powershell" and not inside
            continue
        if not inside:
            action = ACTION.match(line)
            actions += [action["action"]] if action else []
            continue
        prompt = PROMPT.match(line)
        if prompt:
            found.append(Step(prompt["command"], before=actions))
            actions = []
        elif found:
            found[-1].shown.append(line)
    return found


def _line(pattern: str) -> re.Pattern[str]:
    return re.compile(".*".join(re.escape(part) for part in pattern.split("…")))


def matches(shown: list[str], printed: list[str], *, more: bool = False) -> bool:
    """Whether ``printed`` reads as ``shown`` (``…`` wildcards); ``more``: lines may follow."""

    @functools.cache
    def from_(i: int, j: int) -> bool:
        if i == len(shown):
            return more or j == len(printed)
        if shown[i].strip() == "…":
            return any(from_(i + 1, k) for k in range(j, len(printed) + 1))
        return (
            j < len(printed) and bool(_line(shown[i]).fullmatch(printed[j])) and from_(i + 1, j + 1)
        )

    return from_(0, 0)


@dataclass
class Places:
    """Where this run's home folder and bundled files are, to write them as the page does."""

    home: Path
    bundle: Path
    port: str = PAGE_PORT

    def as_page(self, text: str) -> list[str]:
        text = text.replace(str(self.bundle), PAGE_BUNDLE).replace(str(self.home), PAGE_HOME)
        text = text.replace(f":{self.port}/", f":{PAGE_PORT}/")
        return [line.rstrip().replace("\\", "/") for line in text.splitlines()]


def page_lines(shown: list[str]) -> list[str]:
    return [line.rstrip().replace("\\", "/") for line in shown]


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def spawn(command: list[str], env: dict[str, str],
          cwd: Path) -> tuple[subprocess.Popen[str], queue.Queue[str]]:  # fmt: skip
    """Start a command in its own process group; its output lines (stderr too) arrive in
    the queue as it prints them (read on a thread, so waiting can have a bound)."""
    server = subprocess.Popen(command, cwd=cwd, env=env, text=True, stdout=subprocess.PIPE,
                              stderr=subprocess.STDOUT, start_new_session=True)  # fmt: skip
    lines: queue.Queue[str] = queue.Queue()

    def pump() -> None:
        for line in server.stdout or ():
            lines.put(line)

    threading.Thread(target=pump, daemon=True).start()
    return server, lines


def run_lab(command: list[str], shown: list[str], env: dict[str, str], cwd: Path,
            places: Places) -> tuple[bool, list[str]]:  # fmt: skip
    """Start ``mcbews-repl lab``, read until what it printed reads as the page (then stop
    it), or the bound passes; whether it matched and what it printed."""
    server, lines = spawn(command, env, cwd)
    printed: list[str] = []
    deadline = time.monotonic() + LAB_SECONDS
    try:
        while time.monotonic() < deadline:
            try:
                printed += places.as_page(lines.get(timeout=1)) or [""]
            except queue.Empty:
                if server.poll() is not None and lines.empty():
                    break  # it ended: nothing more will come
                continue
            if matches(page_lines(shown), printed, more=True):
                return True, printed
        return False, printed
    finally:
        stop(server)


URL = re.compile(r"http://(?:localhost|127\.0\.0\.1):\d+/lab/tree/\S+\?token=\w+")


def start_lab(
    command: list[str], env: dict[str, str], cwd: Path
) -> tuple[subprocess.Popen[str], str]:
    """Start ``mcbews-repl lab`` (with ``--no-browser``) and wait for the URL it prints.

    Raises:
        AssertionError: no URL within the bound (the server is stopped).
    """
    server, lines = spawn(command, env, cwd)
    printed, deadline = [], time.monotonic() + LAB_SECONDS
    while time.monotonic() < deadline and server.poll() is None:
        try:
            printed.append(lines.get(timeout=1))
        except queue.Empty:
            continue
        found = URL.search(printed[-1])
        if found:
            return server, found[0]
    stop(server)
    raise AssertionError("mcbews-repl lab printed no URL:\n" + "".join(printed))


def fetch(url: str) -> int:
    """The HTTP status of ``url``, retried while the server comes up (JupyterLab prints its
    URL just before it listens) until the bound passes."""
    deadline = time.monotonic() + LAB_SECONDS
    while True:
        try:
            with urllib.request.urlopen(url, timeout=10) as page:
                return int(page.status)
        except OSError:
            if time.monotonic() > deadline:
                raise
            time.sleep(0.2)


def contents_status(url: str, relative: str) -> int:
    """The status of a file's contents through the Jupyter server behind ``url``."""
    base, token = url.split("/lab/tree/")[0], url.split("token=")[1]
    base = base.replace("//localhost:", "//127.0.0.1:")
    return fetch(f"{base}/api/contents/{relative}?token={token}")


def stop(server: subprocess.Popen[str]) -> None:
    """Stop the command and JupyterLab under it (its own process group)."""
    if server.poll() is None:
        os.killpg(server.pid, signal.SIGTERM)
    server.wait(30)


def edit(action: str, home: Path) -> None:
    """``edit FILE``: change a copied file, as a user editing a notebook would."""
    verb, relative = action.split(" ", 1)
    assert verb == "edit", action
    target = home / "mcbews-notebooks" / relative
    target.write_text(target.read_text(encoding="utf-8") + "\n", encoding="utf-8")


def replay(page: str, mcbews_repl: Path, home: Path, bundle: Path, env: dict[str, str],
           install: Callable[[Step], list[str]] | None) -> list[str]:  # fmt: skip
    """Run every step of the page; the problems found (empty: it reads as the page).

    ``install`` checks the pip step (and the venv step before it) against the driver's
    install, or is None where nothing was installed for the page (the repository's
    environment), and those steps are left out.
    """
    problems: list[str] = []
    for step in steps(page):
        for action in step.before:
            edit(action, home)
        if step.command in NOT_RUN or step.command in MADE_BY_DRIVER:
            if [line for line in step.shown if line.strip() != "…"]:
                problems.append(f"{step.command}: the page shows output the tests cannot see")
            continue
        if step.command == INSTALL:
            if install is not None:
                problems += install(step)
            continue
        problems += _run(step, mcbews_repl, home, bundle, env)
    return problems


def _run(step: Step, mcbews_repl: Path, home: Path, bundle: Path,
         env: dict[str, str]) -> list[str]:  # fmt: skip
    words = step.command.split()
    if words[0] != "mcbews-repl":
        return [f"{step.command}: the tests do not know how to run this command"]
    command = [str(mcbews_repl), *words[1:]]
    if step.command == LAB:
        port = str(free_port())
        places = Places(home, bundle, port)
        ok, printed = run_lab([*command, "--no-browser", f"--port={port}"], step.shown, env,
                              home, places)  # fmt: skip
    else:
        places = Places(home, bundle)
        done = subprocess.run(command, cwd=home, env=env, capture_output=True, text=True,
                              timeout=120)  # fmt: skip
        printed = places.as_page(done.stdout + done.stderr)
        ok = done.returncode == 0 and matches(page_lines(step.shown), printed)
    if ok:
        return []
    return [f"{step.command}: the page shows\n  " + "\n  ".join(step.shown)
            + "\nbut it printed\n  " + "\n  ".join(printed)]  # fmt: skip
