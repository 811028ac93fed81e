"""Applications beyond the lab's own WAR that the lab deploys and loads (CargoTracker)."""
