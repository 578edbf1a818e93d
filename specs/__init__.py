"""The shipped suite specs (package data, read-only; see workbench.core.shipped)."""
