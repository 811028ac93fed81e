"""Applications beyond the lab's own WAR that the lab deploys and loads.

- cargotracker.py  CargoTracker (cargotracker/, the Faces shipping app): its WAR on Payara Micro
                   or GlassFish for ./lab run --app cargotracker, one bench target per thread mode
                   (cargotracker-MODE), and two bench scenarios (the tracking page, the dashboard)

An application is a server kind's WAR plus what is requested of it, so apps sit above servers and
load and import only those and ground (labkit/tests/test_import_graph.py).
"""
