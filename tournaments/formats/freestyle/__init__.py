"""The web side of the format `freestyle` (its rules: rules/formats/freestyle/).

`ui` registers its FormatUI (tournaments/formats/registry.py); the other modules are its own
screens, services and tasks, and templates/ and static/ its files.
"""
