"""LoomLab's orchestration: find a JDK, build, start servers in a thread mode, load and report."""
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
