"""The web side of the format `bot_contest` (its rules: rules/formats/bot_contest/).

`ui` registers its FormatUI (tournaments/formats/registry.py); the other modules are its own
screens, services and tasks, and templates/ and static/ its files.
"""
