"""./lab bundle: the lab as one file for a machine that cannot download (issue 58).

A performance environment often has no network, no JDK and no Maven; a bigger machine borrowed for an
afternoon has none of them either. The bundle carries everything `./lab bench`, `capacity` and `run`
need there, built and fetched here once: a JDK runtime made with jlink from the JDK the lab runs on,
the Payara Micro jars, the WAR and the pool jars, the JDK/Helidon/Vert.x baselines (the host-speed
reference runs on the JDK's), vegeta and bombardier, and labkit with the wheels of its pinned Python
packages. Unpacked, `./lab` makes its .venv from those wheels alone, finds the bundle's JDK before the
machine's (ground/jdk.py) and builds nothing (ground/build.py says so instead).

- contents.py  what a bundle holds: the files of this clone a run reads, where they lie in it
- runtime.py   the JDK runtime: jlink of the lab's JDK, every module but the linker's own
- wheels.py    the pinned Python packages (pyproject.toml) as wheels, for each Python line they exist for
- make.py      the folder, its BUNDLE.json, and the .tar.gz
"""
