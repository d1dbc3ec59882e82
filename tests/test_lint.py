"""One linter for the Python code (ruff, pinned, configured in pyproject.toml)."""
import subprocess
import sys
from pathlib import Path

from papercuts.paths import PROJECT


def test_ruff_passes():
    ruff = Path(sys.executable).with_name("ruff")
    proc = subprocess.run([str(ruff), "check", "--output-format", "concise", "pipelines", "tests"],
                          cwd=PROJECT, capture_output=True, text=True)
    assert proc.returncode == 0, proc.stdout
