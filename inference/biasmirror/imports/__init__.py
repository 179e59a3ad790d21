"""Importing results produced elsewhere into the warehouse."""
