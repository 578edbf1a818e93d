"""Cases, answer keys, suites, runs, gold and disputes: data and files only."""
