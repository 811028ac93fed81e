"""Hosts: where a server or a load tool runs — this machine, or another one reached with OpenSSH.

- host.py      SshHost, and what a host is: one set of calls (run, spawn, stop, copy, read) and what
               differs for a server process between here and there (its run folder, JDK, address, CPUs
               (pinned, pinning), pid, /proc feed, a file its JVM writes, the JDK whose jcmd reaches
               it), decided by the host, never asked by its callers: a host has no "remote" flag
- local.py     LocalHost: this machine, with the same calls; is_this_machine() for the checks of
               what a user named (--server-host local)
- java.py      the JDK 21+ on a host, found once per host per run (or --remote-java)
- jvm.py       jcmd against a JVM where it runs, and the files it writes there
- procfeed.py  a remote process's /proc, read over one ssh connection for its whole life
- cluster.py   ./lab hosts: network namespaces with sshd, as hosts for tests and examples
- options.py   --server-host's argument type and the names it takes
"""
