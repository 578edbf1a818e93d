"""Errors a user can cause. Each carries one line that says what went wrong and what to do."""


class UserError(Exception):
    """A problem with the user's input; the CLI prints it as one line and exits 2."""

    exit_code = 2
