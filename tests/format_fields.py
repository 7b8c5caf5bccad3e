"""Field sizes for the tests that run every format, named once: a new format adds its key
here (docs/formats/README.md) and every such test takes it up."""

# A simulated event imported into the database: small enough to import in a second or two.
IMPORTED = {
    "round_robin": 7,
    "freestyle": 16,
    "bot_contest": 9,
    "wpf_playoffs": 14,
    "gokodom": 12,
    "woc": 10,
}

# A simulated event kept in memory (the rules tests): large enough for withdrawals, byes
# and late entries to occur.
IN_MEMORY = {
    "round_robin": 9,
    "freestyle": 24,
    "bot_contest": 16,
    "wpf_playoffs": 20,
    "gokodom": 24,
    "woc": 12,
}
