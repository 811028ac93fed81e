"""The ground layer: processes, /proc, the machine, the JDK, builds, errors, arguments."""
