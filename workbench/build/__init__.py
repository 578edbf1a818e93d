"""Building cases and suites: make one case, author and adopt, mutate, and the sharded suite build."""
