"""The web side of the format `round_robin` (its rules: rules/formats/round_robin/).

`ui` registers its FormatUI (tournaments/formats/registry.py); the other modules are its own
screens, services and tasks, and templates/ and static/ its files.
"""
