"""The web side of the format `wpf_playoffs` (its rules: rules/formats/wpf_playoffs/).

`ui` registers its FormatUI (tournaments/formats/registry.py); the other modules are its own
screens, services and tasks, and templates/ and static/ its files.
"""
