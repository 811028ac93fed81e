"""Servers: every kind the lab starts, its thread modes, and the registry of targets."""
