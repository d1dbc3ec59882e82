"""Problems in user input, and the one error type that carries them to the CLI."""
from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, order=True)
class Problem:
    path: str
    line: int
    column: int
    severity: str  # "error" or "warning"
    message: str
    hint: str = ""

    def render(self) -> str:
        """One line; a file's text that a message quotes (a contributed row, a name) is printable
        here, so escape codes in it never reach a terminal or a CI log."""
        where = f"{printable(self.path)}:{self.line}:{self.column}"
        text = f"{where}: {self.severity}: {printable(self.message)}"
        return f"{text} ({printable(self.hint)})" if self.hint else text

    def github(self) -> str:
        """A GitHub Actions workflow command; every field escaped so a file name cannot end it."""
        level = "error" if self.severity == "error" else "warning"
        msg = self.message + (f" ({self.hint})" if self.hint else "")
        msg = _escape_data("\n".join(map(printable, msg.split("\n"))))  # its lines as %0A, as GitHub shows them
        return f"::{level} file={_escape_property(self.path)},line={self.line},col={self.column}::{msg}"


def place(data: bytes, at: int) -> tuple[int, int]:
    """The 1-based line and column of byte offset `at` of a file, the column in characters (the
    bytes before it on its line read as UTF-8, as far as they are)."""
    start = data.rfind(b"\n", 0, at) + 1
    return data.count(b"\n", 0, at) + 1, len(data[start:at].decode("utf-8", errors="replace")) + 1


def printable(text: str) -> str:
    """text with each control or other unprintable character escaped as Python writes it (a newline
    as \\n): a file name holding one must not split the one line that names it."""
    return text if text.isprintable() else "".join(c if c.isprintable() else repr(c)[1:-1] for c in text)


def _escape_data(text: str) -> str:
    # As the Actions toolkit escapes command data (toolkit/packages/core/src/command.ts).
    return text.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")


def _escape_property(text: str) -> str:
    # Property values also escape the separators of the property list.
    return _escape_data(text).replace(":", "%3A").replace(",", "%2C")


class Problems:
    """Collects every problem found, so a contributor sees them all at once."""

    def __init__(self) -> None:
        self.items: list[Problem] = []

    def error(self, path: str, line: int, column: int, message: str, hint: str = "") -> None:
        self.items.append(Problem(path, line, column, "error", message, hint))

    def warning(self, path: str, line: int, column: int, message: str, hint: str = "") -> None:
        self.items.append(Problem(path, line, column, "warning", message, hint))

    @property
    def errors(self) -> list[Problem]:
        return [p for p in self.items if p.severity == "error"]

    def sorted(self) -> list[Problem]:
        return sorted(set(self.items))


class UserError(Exception):
    """Something the user can fix: bad data, a bad option. Caught once, in the CLI."""

    def __init__(self, message: str, problems: list[Problem] | None = None) -> None:
        super().__init__(message)
        self.problems = problems or []

    def __reduce__(self):  # raised in a worker process, it arrives with its problems
        return type(self), (str(self), self.problems)
