"""One package per format, named by its key in rules/registry.py: it exports ``ENGINE`` and
holds its ``checker``, ``contention``, ``simulate`` and ``words`` modules."""
