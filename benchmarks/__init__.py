"""Reproducible speed measurements, each against a named peer where one exists."""
