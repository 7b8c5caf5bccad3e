"""The public, read-only API (/api/v1/): what the public pages show, as JSON.

A package of its own (DESIGN 20): the instance and its error bodies (main.py), the
resources' shapes (schemas.py), the reads that fill them (reads.py, through the same
selectors and format rules as the pages), the page cache's versions applied to answers
(caching.py), the rate limit and CORS at the edge (middleware.py) and the rendered schema
(docs.py). docs/api.md says how to use it and why django-ninja.
"""
