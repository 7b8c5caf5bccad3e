"""The web side of the format `woc` (its rules: rules/formats/woc/).

`ui` registers its FormatUI (tournaments/formats/registry.py); the other modules are its own
screens, services and tasks, and templates/ and static/ its files.
"""
