"""One module (or package) per format; each exposes ``ENGINE`` and is named in rules/registry.py."""
