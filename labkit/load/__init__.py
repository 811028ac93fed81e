"""Load: the load tools' drivers, finding or building them, scenarios and request mixes."""
