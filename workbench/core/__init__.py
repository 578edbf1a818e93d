"""Cases, answer keys, suites and runs: data and files only (gold and disputes: workbench.gold)."""
