"""What machine a calibration ran on, read from /proc, /sys, /etc and uname (Linux; elsewhere
the facts that cannot be read are left out)."""
from __future__ import annotations

import os
import platform
import re
from pathlib import Path


def _read(path: str) -> str:
    try:
        return Path(path).read_text(errors="replace")
    except OSError:
        return ""


def cpu_facts(cpuinfo: str) -> dict:
    """CPU model, physical cores and sockets from /proc/cpuinfo text."""
    model = re.search(r"^(?:model name|Model|cpu model|cpu)\s*:\s*(.+)$", cpuinfo, flags=re.M)
    cores, sockets = set(), set()
    for block in cpuinfo.split("\n\n"):
        phys = re.search(r"^physical id\s*:\s*(\d+)", block, flags=re.M)
        core = re.search(r"^core id\s*:\s*(\d+)", block, flags=re.M)
        if phys and core:
            cores.add((phys.group(1), core.group(1)))
            sockets.add(phys.group(1))
    return {"cpu_model": model.group(1).strip() if model else (platform.processor() or ""),
            "cores": len(cores) or os.cpu_count() or None, "sockets": len(sockets) or None}


def os_name(os_release: str) -> str:
    m = re.search(r'^PRETTY_NAME="?([^"\n]*)"?', os_release, flags=re.M)
    return m.group(1) if m else ""


def ram_gb(meminfo: str) -> int | None:
    m = re.search(r"^MemTotal:\s*(\d+) kB", meminfo, flags=re.M)
    return max(1, round(int(m.group(1)) / 1024 ** 2)) if m else None


def machine_facts() -> dict:
    smt = _read("/sys/devices/system/cpu/smt/active").strip()
    uname = platform.uname()
    return {**cpu_facts(_read("/proc/cpuinfo")), "arch": uname.machine,
            "kernel": f"{uname.system} {uname.release}", "os": os_name(_read("/etc/os-release")),
            "ram_gb": ram_gb(_read("/proc/meminfo")), "smt": {"1": "on", "0": "off"}.get(smt, "")}
