"""One pure parser per raw output format: text in, typed rows (frozen dataclasses) out.

Each module's parse function takes (text, path) and returns its result, or a Gap when the text is
empty; malformed text raises ParseError with the line. `errors.read` is the only file access.
`metrics` turns parsed samples into per-operation costs.
"""
