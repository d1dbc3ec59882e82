"""Stage 1, validate: read data/ (catalogs, campaigns, raw trees, calibrations) into a Dataset and
report every problem as path:line:column with a hint. Hands a checked Dataset to ingest.
"""
