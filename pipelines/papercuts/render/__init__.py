"""Stage 4: page bundles (front matter, Vega-Lite specs, tables, CSVs) for Hugo."""
