"""Tests of the hf policy plugin (a package, so that its conftest does not shadow plugins/python/tests/conftest.py as the module \"conftest\")."""
