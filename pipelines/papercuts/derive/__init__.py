"""Stage 3, derive: run the SQL models (rQPS, summaries, costs, calibration fits) inside DuckDB.
"""
