"""What machine a benchmark ran on: recorded next to every figure."""
from __future__ import annotations

import os
import platform


def machine() -> dict:
    model = "?"
    try:
        with open("/proc/cpuinfo") as f:
            for line in f:
                if line.startswith("model name"):
                    model = line.split(":", 1)[1].strip()
                    break
    except OSError:
        pass
    return dict(nproc=os.cpu_count(), cpu=model, python=platform.python_version(), platform=platform.platform(),
                loadavg=os.getloadavg()[0])
