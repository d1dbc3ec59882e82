"""Worker processes: they end with the build that forked them, and their results are counted as
they arrive.

Validate and render fork workers, and a fork inherits the build's lock on its site. If the build
is killed (SIGKILL, the out-of-memory killer), an orphaned worker would keep that lock, and every
later build would be told that another is writing. On Linux each worker asks to be killed when its
parent ends; elsewhere nothing changes.
"""
from __future__ import annotations

import ctypes
import os
import signal

_PR_SET_PDEATHSIG = 1


def end_with(parent: int) -> None:
    """Called first in a forked worker: be killed when the process `parent` ends."""
    try:
        ctypes.CDLL(None, use_errno=True).prctl(_PR_SET_PDEATHSIG, signal.SIGKILL)
    except (OSError, AttributeError):  # not Linux
        return
    if os.getppid() != parent:  # it ended before the call above could take effect
        os._exit(1)


def counted(results, total: int, progress=None) -> list:
    """The results, in order, telling progress(done, total) as each arrives."""
    out = []
    for r in results:
        out.append(r)
        if progress:
            progress(len(out), total)
    return out
