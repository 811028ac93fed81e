"""The server setup of a run (./lab bench, capacity, soak), declared once: how each server starts
(port, JVM options, pinned CPUs, carriers, your WARs), where (this machine, or --server-host with the
JDK there) and where its load comes from (--load-hosts). Every run's config holds one ServerSetup,
built from the options the run commands share (commands/common.add_run_options); the session code
reads it from there and nowhere else."""
from dataclasses import dataclass

from labkit.hosts.local import LocalHost
from labkit.measure.cpus import server_jvm_options

DEFAULT_PORT = 8080


@dataclass(frozen=True)
class ServerSetup:
    port: int = DEFAULT_PORT
    jvm_options: tuple = ()
    # False: Payara Micro starts without domain-config/jvm.options (only --jvm-opt).
    jvm_defaults: bool = True
    # --cpus: server and load tool pinned to different cores (measure.cpus.CpuPinning); None: not pinned.
    cpus: object = None
    # --carriers: the virtual-thread scheduler's parallelism in every server JVM; None: the JVM's default.
    carriers: int | None = None
    # --war: your own WARs (servers.userapp.UserWar), deployed on every target that takes them.
    wars: tuple = ()
    # --server-host: the other host the servers start on (labkit.hosts), and the JDK there; None: this
    # machine (commands/where.py sets it only for a host that is not this machine).
    server_host: object = None
    remote_java: str | None = None
    # --load-hosts: the load runs on these hosts, split evenly (load.spread.LoadHosts); None: this machine.
    load_hosts: object = None

    @property
    def host(self):
        """The host the servers start on: --server-host's, or this machine."""
        return self.server_host if self.server_host is not None else LocalHost()

    @property
    def remote_host(self):
        """The other host the servers start on, or None when they start on this machine."""
        return self.server_host

    @classmethod
    def from_args(cls, args, modes, wars=(), carriers=None, default_port=DEFAULT_PORT):
        """The setup from the shared run options (--port, --jvm-opt, --no-jvm-defaults, --cpus): a server
        pinned to one CPU gets G1 unless a collector was chosen (cpus.server_jvm_options). The hosts are
        added after their checks (commands/where.py)."""
        return cls(port=args.port or default_port,
                   jvm_options=server_jvm_options(args.jvm_opt, args.cpus, modes),
                   jvm_defaults=args.jvm_defaults is not False, cpus=args.cpus, carriers=carriers, wars=tuple(wars))
