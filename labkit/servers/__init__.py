"""Servers: every kind the lab starts, in a thread mode, behind one interface.

- interface.py     ServerHandle (start, base_url, pid, log_path, info(), stop(), a context
                   manager), LabServer (what every kind shares) and Foreground (what ./lab run
                   needs of a kind); labkit/tests/test_server_interface.py checks every kind
- modes.py         the thread modes, read from domain-config/ (platform-N, virtual, virtual-N,
                   virtual-reusing); `python3 -m labkit.servers.modes render MODE`
- payara_micro.py  Payara Micro in a mode, started as a user would start it
- appserver/       Payara Server and GlassFish: one lifecycle through asadmin; payara_server.py
                   and glassfish.py say what differs, kinds.py names them for --server
- baselines.py     the plain-JDK, Helidon and Vert.x servers of baselines*/
- hosting.py       where a server process runs: here, or on another host over ssh (--server-host):
                   its files copied there, its JDK, pid, /proc feed and stop, written once
                   (HostedProcess), and HostedServer, the kinds that start through it
- userapp.py       your own WARs beside the lab's probe (--war FILE[:/ROOT])
- carriers.py      --carriers: the virtual-thread scheduler's parallelism
- heaps.py         --heap: a series per heap size, and which heap a mode needs
- registry.py      what a target is, the Payara Micro modes' targets, and the catalogue a name is
                   looked up in (labkit/catalog.py loads every other kind into it)

Rule: servers import only hosts and ground (labkit/tests/test_import_graph.py); load and servers
do not know each other.
"""
