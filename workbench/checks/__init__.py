"""Checks over built cases: the lint, answer attribution, locating values on the page, evidence."""
