"""Text as the grader reads it: folding and search, money, the values an answer states."""
