"""Hosts: where a server or a load tool runs — this machine, or another one reached with OpenSSH."""
