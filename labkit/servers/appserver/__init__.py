"""Full application servers administered with asadmin: Payara Server and GlassFish.

Both are the same kind of server (GlassFish is Payara Server's upstream), so everything the lab
does to them lives here once: install the distribution from Maven Central (distribution.py), run
asadmin with a password file (asadmin.py, passwords.py), translate a mode's rendered pre-boot file into
asadmin commands (commands.py), keep a domain per port and mode (domain.py), start, configure,
serve and stop it (server.py), boot the domain configured here on another host (on_host.py), and
the `./lab run` / bench-target / Arquillian-prepare glue (cli.py). labkit.servers.appserver.payara_server and labkit.servers.appserver.glassfish only say what differs.
"""
