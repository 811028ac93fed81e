"""What the embedded JMS broker costs a full server at start-up: the lab's domain booted with the
JMS service EMBEDDED (the lab's setting) and with another type (DISABLED on Payara Server), each
a few times, timed from the launch to the lab's WAR answering /api/info; and the addresses the
server then listens on beyond the lab's own ports (an embedded broker's port shows there).

    python3 -m labkit.servers.appserver.jms_startup --server payara-server --port 19640 --repeats 3

The domain is configured once per type (not timed), then booted `--repeats` times per type,
alternating types, each boot a fresh JVM. Prints one line per boot and a median [min-max] per type.
"""
import argparse
import statistics
import time

from labkit.ground.command import run_command
from labkit.servers.modes import payara_mode
from labkit.servers.appserver.kinds import KINDS

JMS_TYPE = "set configs.config.server-config.jms-service.type="


def with_jms_type(cls, jms_type):
    """The server class with its product settings' JMS service type replaced by `jms_type`."""
    class Variant(cls):
        def product_settings(self):
            settings = [s for s in super().product_settings() if not s.startswith(JMS_TYPE)]
            return settings + [JMS_TYPE + jms_type]
    return Variant


def listening(pid):
    """host:port pairs the process listens on (ss -ltnp)."""
    output = run_command(["ss", "-ltnpH"]).stdout
    return sorted(line.split()[3] for line in output.splitlines() if f"pid={pid}," in line)


def boot(cls, mode, port):
    server = cls(mode, port=port, log=lambda m: None)
    began = time.monotonic()
    with server:
        seconds = time.monotonic() - began
        return seconds, listening(server.pid)


def main(argv=None):
    parser = argparse.ArgumentParser(prog="python3 -m labkit.servers.appserver.jms_startup")
    parser.add_argument("--server", choices=tuple(KINDS), default="payara-server")
    parser.add_argument("--types", default="EMBEDDED,DISABLED", help="JMS service types to compare")
    parser.add_argument("--mode", default="virtual")
    parser.add_argument("--port", type=int, required=True)
    parser.add_argument("--repeats", type=int, default=3)
    args = parser.parse_args(argv)
    base, mode = KINDS[args.server], payara_mode(args.mode)
    variants = {t: with_jms_type(base, t) for t in args.types.split(",")}
    times = {t: [] for t in variants}
    for repeat in range(1, args.repeats + 1):
        for jms_type, cls in variants.items():
            # The domain brought to this type and stopped (configuring boots it: not timed).
            cls(mode, port=args.port, log=lambda m: None).prepare()
            seconds, ports = boot(cls, mode, args.port)
            times[jms_type].append(seconds)
            print(f"{jms_type} boot {repeat}: {seconds:.1f} s to /api/info; listening on {' '.join(ports)}", flush=True)
    for jms_type, values in times.items():
        print(f"{base.PRODUCT} {mode.name}, JMS {jms_type}: median {statistics.median(values):.1f} s "
              f"[{min(values):.1f}-{max(values):.1f}] over {len(values)} boots")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
