"""Icicle (flame graph) layout of folded stacks, and the differential view of two profiles. No I/O.

Stacks are (root-first frames, weight). Identical prefixes merge into one tree; every node is a
rectangle [x0, x1) in fractions of all weight, at its depth (the root "all" at 0, on top).
Children are ordered by name, as flame graphs do, so the layout does not depend on input order;
children narrower than min_share merge into one "(other)" node per parent, and frames below
max_depth into one "(deeper)" node, so a wide profile stays readable and no weight is dropped.
Weights are summed in a canonical order (stacks sorted), so the same multiset of stacks gives the
same floats whatever order they came in; floats are rounded to 6 decimals so that CSVs and builds
are byte-stable.

Frames are matched between two profiles by walking both trees frame by frame, never by joined
path strings, so a frame name holding ';' cannot be confused with two frames.
"""
from __future__ import annotations

import math
from collections.abc import Iterable
from dataclasses import dataclass, field

OTHER, DEEPER, ROOT = "(other)", "(deeper)", "all"
LABEL_PX = 6.5  # average character width of the chart's label font, for truncation


@dataclass
class _Node:
    frame: str
    total: float = 0.0
    own: float = 0.0
    children: dict[str, _Node] = field(default_factory=dict)


def _tree(stacks: Iterable[tuple[tuple[str, ...], float]], max_depth: int) -> _Node:
    root = _Node(ROOT)
    # Sorted: float sums then do not depend on the input order (it could flip a min_share test).
    for frames, weight in sorted((tuple(f), w) for f, w in stacks):
        if weight <= 0:
            continue
        root.total += weight
        node = root
        for depth, frame in enumerate(frames, start=1):
            name = DEEPER if depth > max_depth else frame
            node = node.children.setdefault(name, _Node(name))
            node.total += weight
            if name == DEEPER:
                break
        node.own += weight
    return root


def _r(value: float) -> float:
    return round(value, 6)


def icicle(stacks: Iterable[tuple[tuple[str, ...], float]], *, min_share: float = 0.002,
           max_depth: int = 48, width_px: int = 900) -> list[dict]:
    """Rows {id, parent, depth, depth_end, frame, path, x0, x1, total_share, self_share, samples, label},
    parents before children. `path` is the frames from the root joined by ';' (for the differential)."""
    root = _tree(stacks, max_depth)
    if root.total <= 0:
        return []
    grand = root.total
    rows: list[dict] = []

    def emit(node: _Node, parent: int | None, depth: int, x0: float, path: str) -> None:
        ident = len(rows)
        x1 = x0 + node.total / grand
        rows.append({"id": ident, "parent": parent, "depth": depth, "depth_end": depth + 1,
                     "frame": node.frame, "path": path, "x0": _r(x0), "x1": _r(x1),
                     "total_share": _r(node.total / grand), "self_share": _r(node.own / grand),
                     "samples": _r(node.total), "label": _label(node.frame, x1 - x0, width_px)})
        wide, narrow = [], []
        for name in sorted(node.children):
            child = node.children[name]
            (wide if child.total / grand >= min_share else narrow).append(child)
        if narrow:
            wide.append(_Node(OTHER, sum(c.total for c in narrow), sum(c.total for c in narrow)))
        x = x0
        for child in wide:
            emit(child, ident, depth + 1, x, f"{path};{child.frame}" if path else child.frame)
            x += child.total / grand

    emit(root, None, 0, 0.0, "")
    return rows


def _label(frame: str, share: float, width_px: int) -> str:
    """The frame name cut to what fits in its rectangle (empty when nothing useful fits)."""
    chars = int(share * width_px / LABEL_PX) - 1
    if chars < 4:
        return ""
    return frame if len(frame) <= chars else frame[: chars - 1] + "…"


def differential(base: Iterable[tuple[tuple[str, ...], float]], target: Iterable[tuple[tuple[str, ...], float]],
                 *, min_share: float = 0.002, max_depth: int = 48, width_px: int = 900) -> list[dict]:
    """The target's icicle, each node with base_share (the same root-to-node frames' total share in
    the base, 0 when absent) and delta = total_share − base_share. An "(other)" node compares with
    the base share of the siblings it merges. Frames only in the base are not drawn: vanished()
    lists them."""
    rows = icicle(target, min_share=min_share, max_depth=max_depth, width_px=width_px)
    base_root = _tree(base, max_depth)
    grand = base_root.total
    matched: dict[int, _Node | None] = {}  # row id → the base node with the same frames, if any
    named: dict[int, set[str]] = {}  # parent id → its children's frames drawn by name
    for r in rows:
        if r["parent"] is not None and r["frame"] != OTHER:
            named.setdefault(r["parent"], set()).add(r["frame"])
    for r in rows:
        if r["parent"] is None:
            matched[r["id"]] = base_root
            base_share = 1.0 if grand > 0 else 0.0
        else:
            up = matched[r["parent"]]
            if r["frame"] == OTHER:
                merged = [] if up is None else [c.total for name, c in up.children.items()
                                                 if name not in named.get(r["parent"], set())]
                base_share = math.fsum(merged) / grand if merged else 0.0
                matched[r["id"]] = None
            else:
                node = None if up is None else up.children.get(r["frame"])
                matched[r["id"]] = node
                base_share = node.total / grand if node is not None else 0.0
        r["base_share"] = _r(base_share)
        r["delta"] = _r(r["total_share"] - base_share)
    return rows


def vanished(base: Iterable[tuple[tuple[str, ...], float]], target: Iterable[tuple[tuple[str, ...], float]],
             *, top: int = 20, max_depth: int = 48) -> list[dict]:
    """Call paths sampled in the base and never in the target (the differential cannot draw them):
    rows {frame, path, depth, base_share, base_self_share}, the widest first (then by path), at most
    `top`. Only the topmost vanished frame of a path is listed, since all its callees vanished with it;
    base_share includes them. A frame merely folded into "(other)" in the target is not vanished."""
    base_root, target_root = _tree(base, max_depth), _tree(target, max_depth)
    if base_root.total <= 0:
        return []
    grand = base_root.total
    out: list[dict] = []

    def walk(node: _Node, twin: _Node, depth: int, path: str) -> None:
        for name in sorted(node.children):
            child, p = node.children[name], f"{path};{name}" if path else name
            if name in twin.children:
                walk(child, twin.children[name], depth + 1, p)
            else:
                out.append({"frame": name, "path": p, "depth": depth + 1,
                            "base_share": _r(child.total / grand), "base_self_share": _r(child.own / grand)})

    walk(base_root, target_root, 0, "")
    out.sort(key=lambda r: (-r["base_share"], r["path"]))
    return out[:top]
