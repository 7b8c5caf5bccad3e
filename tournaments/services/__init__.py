"""The only writers of the database. Views, commands, admin actions and tasks call these.

Each public function is one user action: one transaction, the clock read once, tasks
enqueued with transaction.on_commit.
"""
