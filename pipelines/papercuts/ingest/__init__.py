"""Stage 2, ingest: load a checked Dataset into DuckDB tables with explicit schemas and constraints.
"""
