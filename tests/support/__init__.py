"""Shared harnesses and fakes of the test suite (imported by tests; holds no tests)."""
