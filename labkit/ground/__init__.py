"""The ground layer: what every other room stands on, knowing nothing of servers, load or runs.

- process.py     child processes that never outlive the lab: own process group, stopped with
                 their parent, on Ctrl-C and SIGTERM too; port checks
- command.py     short commands run to their end and read (git, ip, scp, jfr print): one timeout
                 and one error line for all of them
- proc.py        /proc: a process's CPU time, memory and threads, the machine's CPU counters
- machine.py     the machine a measurement ran on, read in one place
- jdk.py         finding a JDK 21+ (JAVA_HOME, then the usual folders)
- build.py       building what is missing with Maven (the lab's WAR, the pool jar, Payara Micro)
- arguments.py   argparse types: one check and one message per kind of value
- formatting.py  numbers and Markdown tables as every report writes them
- errors.py      errors the user can fix: one line, never a traceback

Rule: ground imports nothing of labkit above it (labkit/tests/test_import_graph.py).
"""
