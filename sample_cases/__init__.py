"""The shipped sample suites (package data; the workbench opens a copy, see workbench.core.shipped)."""
