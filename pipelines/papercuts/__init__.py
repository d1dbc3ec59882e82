"""Papercuts: a report-site generator for database benchmark regressions."""
