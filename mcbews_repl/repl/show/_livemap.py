"""``mc.map()``: a top-down map that refreshes in place while it is on screen.

In a notebook with the widget stack (``pip install mcbews-repl[lab]``) the map is an
anywidget: Python draws the picture (``_mapdraw.py``) and sends it as HTML; the front end
(``livemap.js``) shows it with a pause button and reports whether the map is visible. A
task on the kernel's loop looks at the world every ``every`` seconds while the map is
visible and not paused: between your cells and during their awaits, never in parallel
with them. Without widgets (a terminal, a front end without them) ``mc.map()`` gives a
:class:`StaticMap`: the same picture once, as HTML in a notebook and as a text map in a
terminal; ``.refresh()`` looks again. The live map shows as two outputs, the widget and a
static copy of its picture that the widget hides once drawn, for front ends that have the
widget manager but cannot draw this widget (docs/repl.md, "Where the widget cannot be
drawn").

Why anywidget: its front end is one small ES module shipped inside this package (no
JavaScript build, no separate lab extension of ours), it runs wherever Jupyter widgets
run (JupyterLab and Notebook 7, tested; VS Code and Colab, as anywidget says), and its
module can observe visibility and offer a pause button, which plain ipywidgets output
cannot. anywidget and ipywidgets are imported only when a live map is made, so
``%load_ext`` stays fast.
"""

from __future__ import annotations

import asyncio
import contextlib
import contextvars
import datetime as dt
import functools
import importlib.util
import uuid
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ...exceptions import BridgeStopped, McbewsError
from ...optional import needs
from ..runtime import Pending
from ._mapdraw import Bounds, MapSnapshot, fit_bounds, map_html, map_text
from ._style import MUTED

if TYPE_CHECKING:
    from ...toolkit import BlockRegion

__all__ = ["MIN_EVERY_SECONDS", "LiveMap", "StaticMap", "widgets_available"]

# The shortest pause between two looks: each is a capability call and a command, and a
# game answers within a tick or two; four looks a second is live to the eye.
MIN_EVERY_SECONDS = 0.25
# How long the first look may take before the map shows empty and says why.
FIRST_LOOK_SECONDS = 10.0
WIDGET_VIEW = "application/vnd.jupyter.widget-view+json"

Look = Callable[[], Pending[MapSnapshot]]


def widgets_available() -> bool:
    """Whether anywidget can be imported (the ``lab`` extra), without importing it."""
    return importlib.util.find_spec("anywidget") is not None


class _Map:
    """What the live and the static map share: the latest look, the bounds, the terrain."""

    def __init__(self, look: Look, terrain: BlockRegion | None = None) -> None:
        self._look = look
        self._terrain_box: tuple[float, float, float, float] | None = None
        self._terrain_png: bytes | None = None
        if terrain is not None:
            with needs():
                from ...toolkit import surface_png

            (x0, _, z0), (sx, _, sz) = terrain.origin, terrain.size
            self._terrain_box = (float(x0), float(z0), float(x0 + sx), float(z0 + sz))
            self._terrain_png = surface_png(terrain)
        self.snapshot = MapSnapshot((), 0.0, note="not looked yet")
        self.bounds: Bounds | None = None
        self.refreshes = 0
        self.commands = 0  # the commands its looks sent to the world

    def _count(self, pending: object) -> None:
        scope = getattr(pending, "scope", None)
        if scope is not None:
            self.commands += int(scope.total("commands_sent"))

    def _take(self, snapshot: MapSnapshot) -> None:
        xz = [(p.x, p.z) for p in snapshot.here()]
        self.bounds = fit_bounds(xz, previous=self.bounds, box=self._terrain_box)
        self.snapshot = snapshot
        self.refreshes += 1

    def _noted(self, note: str) -> None:
        old = self.snapshot
        self.snapshot = MapSnapshot(old.points, old.taken_at or _now(), old.dimension,
                                    old.complete, note)  # fmt: skip
        if self.bounds is None:
            self.bounds = fit_bounds([], box=self._terrain_box)

    def html(self) -> str:
        """The latest picture as HTML: the map, its legend, the area shown and when."""
        assert self.bounds is not None
        return map_html(self.snapshot, self.bounds, self._terrain_png)

    def text(self) -> str:
        """The latest picture as a map in characters, with its legend (for a terminal)."""
        assert self.bounds is not None
        return map_text(self.snapshot, self.bounds)

    def first_look(self) -> None:
        """Look once now, waiting (this runs in a cell); a failure shows on the map."""
        pending = self._look()
        try:
            self._take(pending.result(FIRST_LOOK_SECONDS))
        except (McbewsError, TimeoutError) as exc:
            self._noted(_why(exc))
        finally:
            self._count(pending)


class StaticMap(_Map):
    """The map drawn once: HTML in a notebook, a text map in a terminal."""

    def refresh(self) -> StaticMap:
        """Look again (and show the new picture when this is the cell's last line)."""
        self.first_look()
        return self

    def _repr_html_(self) -> str:
        return self.html()

    def __repr__(self) -> str:
        return self.text()


class LiveMap(_Map):
    """The live map: a widget refreshed while visible; ``pause()``, ``resume()``, ``stop()``."""

    def __init__(self, look: Look, loop: asyncio.AbstractEventLoop, every: float = 1.0,
                 terrain: BlockRegion | None = None) -> None:  # fmt: skip
        super().__init__(look, terrain)
        self.every = every
        self._loop = loop
        self._stopped = False
        self._wake: asyncio.Event | None = None
        self.first_look()
        self.widget = _widget_class()(html=self.html(), status=self._status(paused=False),
                                      map_id=uuid.uuid4().hex)  # fmt: skip
        self.widget.on_msg(self._heard)
        self.widget.observe(self._poke, names=["visible", "paused"])
        self._task: asyncio.Task[None] | None = None
        # An empty context, as for mc.events(follow=True): the updates then go out under
        # the newest request's header rather than under this cell's, long finished.
        loop.call_soon_threadsafe(self._start, context=contextvars.Context())

    def _start(self) -> None:
        self._wake = asyncio.Event()
        self._task = self._loop.create_task(self._follow())

    @property
    def running(self) -> bool:
        """True until ``stop()`` (or until the bridge stops); paused, it is still running."""
        return not self._stopped

    @property
    def paused(self) -> bool:
        """True while paused (by ``pause()`` or the map's button): it does not look."""
        return bool(self.widget.paused)

    def pause(self) -> None:
        """Stop looking for now, as the map's pause button does; ``resume()`` goes on."""
        self.widget.paused = True

    def resume(self) -> None:
        """Look again every ``every`` seconds while the map is on screen."""
        self.widget.paused = False

    def stop(self) -> None:
        """End the updates for good; the map keeps its last picture."""
        self._stopped = True
        self._poke()

    def _heard(self, _widget: object, content: Any, _buffers: object) -> None:
        """The front end says the map is (not) on screen, or the reader pressed the button."""
        if not isinstance(content, dict):
            return
        if isinstance(content.get("visible"), bool):
            self.widget.visible = content["visible"]
        if isinstance(content.get("paused"), bool):
            self.widget.paused = content["paused"]

    def _poke(self, _change: object = None) -> None:
        self.widget.status = self._status(self.paused)
        if self._wake is not None:
            self._loop.call_soon_threadsafe(self._wake.set)

    async def _follow(self) -> None:
        assert self._wake is not None
        while not self._stopped:
            if self.widget.visible and not self.widget.paused:
                await self._refresh()
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._wake.wait(), self.every)
            self._wake.clear()
        self.widget.status = self._status(self.paused)

    async def _refresh(self) -> None:
        pending: Pending[MapSnapshot] | None = None
        try:
            pending = self._look()
            self._take(await pending)
        except BridgeStopped as exc:
            self._noted(_why(exc))
            self._stopped = True
        except McbewsError as exc:
            self._noted(_why(exc))  # the game left, an answer was late: try again later
        except Exception as exc:  # a bug: say so on the map rather than loop on it
            self._noted(f"stopped by an error: {type(exc).__name__}: {exc}")
            self._stopped = True
        finally:
            self._count(pending)
        self.widget.html = self.html()
        self.widget.status = self._status(self.paused)

    def _status(self, paused: bool) -> str:
        if self._stopped:
            return "stopped (mc.map() makes a new one)"
        if paused:
            return "paused"
        return f"live: looks every {self.every:g} s while on screen"

    def _ipython_display_(self) -> None:
        """Two outputs: the widget, then its static copy (the picture as HTML, the text
        map), which the widget's front end hides once it draws. A front end that has the
        widget manager but cannot draw this widget (anywidget's front end missing from the
        server, or fetched from a CDN a network blocks, as VS Code does; a saved notebook
        reopened without its kernel) shows an error where the widget would be and never
        falls back to the widget output's own HTML, so the copy is an output of its own;
        pages without widgets (a saved notebook online) show it too."""
        with needs():
            from IPython.display import display

        widget, metadata = self._widget_bundle()
        live = {**widget, "text/plain": "the live map (a widget); its picture follows"}
        display(live, metadata=metadata, raw=True)  # type: ignore[no-untyped-call]
        display(self._static_copy(), raw=True)  # type: ignore[no-untyped-call]

    def _repr_mimebundle_(self, **kwargs: Any) -> tuple[dict[str, Any], dict[str, Any]]:
        """One output, for a front end that asks for a single bundle: the widget, with the
        picture as HTML and the text map beside it."""
        widget, metadata = self._widget_bundle(**kwargs)
        return {**widget, "text/html": self.html(), "text/plain": self.text()}, metadata

    def _widget_bundle(self, **kwargs: Any) -> tuple[dict[str, Any], dict[str, Any]]:
        shown = self.widget._repr_mimebundle_(**kwargs)
        data, metadata = shown if isinstance(shown, tuple) else (shown or {}, {})
        view = {k: v for k, v in data.items() if k == WIDGET_VIEW}
        return view, dict(metadata)

    def _static_copy(self) -> dict[str, str]:
        """The picture as the map's first look drew it, marked with the map's id (the
        widget hides the copy whose id is its own: livemap.js)."""
        return {
            "text/html": f"<div class='mcbews-map-fallback' data-map='{self.widget.map_id}'>"
            f"{self.html()}<div style='{MUTED};font-size:0.85em'>the map when it was "
            "drawn: its live view needs a front end that runs widgets</div></div>",
            "text/plain": self.text(),
        }

    def __repr__(self) -> str:
        looks = f"{self.refreshes} looks, {self.commands} commands"
        return f"<LiveMap {self._status(self.paused)}; {looks}>"


def _why(exc: BaseException) -> str:
    if isinstance(exc, TimeoutError):
        return "the world did not answer in time; the map tries again"
    return f"not updated: {type(exc).__name__}: {exc}"


def _now() -> float:
    return dt.datetime.now().timestamp()


@functools.cache
def _widget_class() -> Any:
    """The anywidget class, made on first use (anywidget and traitlets load only then)."""
    with needs():
        import anywidget
        import traitlets

    class MapWidget(anywidget.AnyWidget):
        _esm = (Path(__file__).with_name("livemap.js")).read_text(encoding="utf-8")
        html = traitlets.Unicode("").tag(sync=True)
        status = traitlets.Unicode("").tag(sync=True)
        paused = traitlets.Bool(False).tag(sync=True)
        map_id = traitlets.Unicode("").tag(sync=True)  # names its static copy on the page
        visible = traitlets.Bool(False)  # what the front end last reported (a message)

    return MapWidget
