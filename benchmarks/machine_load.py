"""How busy the machine was while a benchmark ran, so that its figures carry that label.

Figures taken while other work shares the cores are not comparable with a quiet machine's;
this measures how much CPU everything else used during the run (all busy CPU time from
``/proc/stat`` minus this process's and its children's own), in cores.
"""

from __future__ import annotations

import os
import resource
import time
from dataclasses import dataclass

_TICKS = os.sysconf("SC_CLK_TCK")


def _busy_seconds() -> float:
    with open("/proc/stat", encoding="ascii") as stat:
        fields = [int(x) for x in stat.readline().split()[1:]]
    user, nice, system, _idle, _iowait, irq, softirq, steal = fields[:8]
    return (user + nice + system + irq + softirq + steal) / _TICKS


def _own_seconds() -> float:
    total = 0.0
    for who in (resource.RUSAGE_SELF, resource.RUSAGE_CHILDREN):
        usage = resource.getrusage(who)
        total += usage.ru_utime + usage.ru_stime
    return total


def _load_average() -> float:
    return os.getloadavg()[0]


@dataclass
class LoadMeter:
    """``meter = LoadMeter.start()`` ... ``meter.describe()`` after the run."""

    wall: float
    busy: float
    own: float
    load_before: float

    @classmethod
    def start(cls) -> LoadMeter:
        return cls(time.monotonic(), _busy_seconds(), _own_seconds(), _load_average())

    def other_cores(self) -> float:
        """Cores used by other processes, on average over the run so far."""
        wall = max(time.monotonic() - self.wall, 1e-9)
        others = (_busy_seconds() - self.busy) - (_own_seconds() - self.own)
        return max(others, 0.0) / wall

    def describe(self) -> str:
        cores = os.cpu_count() or 1
        return (
            f"other processes used {self.other_cores():.2f} of {cores} cores on average during "
            f"the run (1-minute load average {self.load_before:.2f} before, "
            f"{_load_average():.2f} after)"
        )
