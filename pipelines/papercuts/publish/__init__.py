"""Stage 5, publish: run the pinned Hugo on the rendered content, swap the site in atomically,
serve it locally with the production headers, and vendor the pinned Vega bundles.
"""
