"""Every /proc file the lab reads about a process or the machine, read and parsed here only (Linux).

A process: its stat line (state, parent, CPU time, threads, start time), its status (resident memory
now and at its peak, threads, and any other line such as Cpus_allowed_list), the bytes it has read
(io) and its threads (task/). The machine: CPU time per CPU from /proc/stat (busy, stolen by the
hypervisor, total), total memory from /proc/meminfo, the first CPU's description from /proc/cpuinfo
and the kernel's TCP counters from /proc/net/netstat.

Each parser takes the file's text, so a test can feed it any; each reader returns None when the file
cannot be read (the process is gone, the kernel has no such file). Times in /proc/<pid>/stat and
/proc/stat count clock ticks; CLOCK_TICKS turns them into seconds.
"""
import os
from dataclasses import dataclass, field

CLOCK_TICKS = os.sysconf("SC_CLK_TCK")
# States of a process that has exited: a zombie waits for its parent to reap it, X is dead.
EXITED_STATES = ("Z", "X")


def _read(path):
    try:
        with open(path) as f:
            return f.read()
    except OSError:
        return None


# -- a process ------------------------------------------------------------------------------------
@dataclass(frozen=True)
class ProcessStat:
    """The fields of /proc/<pid>/stat the lab uses (proc(5) numbers them from 1: pid is field 1)."""
    pid: int
    comm: str          # field 2, the command name: up to 15 characters, spaces and parentheses included
    state: str         # field 3: R running, S sleeping, D waiting on disk, Z zombie, X dead, ...
    ppid: int          # field 4
    utime_ticks: int   # field 14, user CPU time
    stime_ticks: int   # field 15, system CPU time
    threads: int       # field 20
    start_ticks: int   # field 22, when the process started, after boot
    pgrp: int = 0      # field 5, its process group

    @property
    def cpu_s(self):
        """User + system CPU seconds so far."""
        return (self.utime_ticks + self.stime_ticks) / CLOCK_TICKS

    @property
    def start_s(self):
        """Seconds after boot the process started."""
        return self.start_ticks / CLOCK_TICKS

    @property
    def exited(self):
        return self.state in EXITED_STATES


def parse_stat(text):
    """A ProcessStat from the one line of /proc/<pid>/stat. The command name sits in parentheses and
    may hold both spaces and parentheses itself, so it ends at the line's last ')'."""
    pid, _, rest = text.partition(" (")
    comm, _, after = rest.rpartition(")")
    fields = after.split()  # fields[0] is field 3
    return ProcessStat(pid=int(pid), comm=comm, state=fields[0], ppid=int(fields[1]),
                       utime_ticks=int(fields[11]), stime_ticks=int(fields[12]),
                       threads=int(fields[17]), start_ticks=int(fields[19]), pgrp=int(fields[2]))


def read_stat(pid, root="/proc"):
    """The process's ProcessStat now, or None when it is gone (`root`: another /proc, for tests)."""
    text = _read(f"{root}/{pid}/stat")
    try:
        return parse_stat(text) if text else None
    except (ValueError, IndexError):  # not a process's stat line
        return None


@dataclass(frozen=True)
class ProcessStatus:
    """/proc/<pid>/status: resident memory and threads, and every line as the kernel wrote it."""
    rss_kb: int | None    # VmRSS; None when the process holds no memory (a zombie, a kernel thread)
    hwm_kb: int | None    # VmHWM, the kernel's high-water mark of VmRSS
    threads: int | None
    fields: dict = field(default_factory=dict, compare=False)  # e.g. {"Cpus_allowed_list": "0-1", ...}


def parse_status(text):
    fields = {}
    for line in text.splitlines():
        key, colon, value = line.partition(":")
        if colon:
            fields[key] = value.strip()
    return ProcessStatus(rss_kb=_leading_int(fields.get("VmRSS")), hwm_kb=_leading_int(fields.get("VmHWM")),
                         threads=_leading_int(fields.get("Threads")), fields=fields)


def read_status(pid):
    """The process's ProcessStatus now, or None when it is gone."""
    text = _read(f"/proc/{pid}/status")
    return parse_status(text) if text else None


def command_line(pid, root="/proc"):
    """The process's arguments (/proc/<pid>/cmdline, NUL-separated), [] when it is gone. `root`: a
    /proc to read (a test's copy)."""
    try:
        with open(f"{root}/{pid}/cmdline", "rb") as f:
            return f.read().decode(errors="replace").split("\0")
    except OSError:
        return []


def pids(root="/proc"):
    """Every process's pid now."""
    try:
        return sorted(int(entry) for entry in os.listdir(root) if entry.isdigit())
    except OSError:
        return []


def group_members(group, root="/proc"):
    """The pids of process group `group` that have not exited (a zombie's parent may never reap it:
    an orphan's new parent here does not)."""
    members = []
    for pid in pids(root):
        text = _read(f"{root}/{pid}/stat")
        if not text:
            continue
        try:
            stat = parse_stat(text)
        except (ValueError, IndexError):
            continue
        if stat.pgrp == group and not stat.exited:
            members.append(pid)
    return members


def _leading_int(value):
    """1234 from '1234 kB'; None when there is no value."""
    try:
        return int(value.split()[0]) if value else None
    except (ValueError, IndexError):
        return None


def bytes_read(pid):
    """Bytes the process has read through read() and its kind so far (rchar of /proc/<pid>/io: sockets
    and pipes count, not only disks), or None."""
    text = _read(f"/proc/{pid}/io")
    for line in (text or "").splitlines():
        if line.startswith("rchar:"):
            return _leading_int(line.split(":", 1)[1])
    return None


def cpu_quota_cores(pid, root="/proc", cgroups="/sys/fs/cgroup"):
    """The CPU a cgroup quota leaves the process, in cores (0.1: a tenth of one CPU's time), the
    tightest along its cgroup's path up to the root; None without a quota or when it cannot be read.
    A container's or systemd unit's quota caps a process below its CPUs, and nothing else in /proc
    shows it (Cpus_allowed_list does not)."""
    text = _read(f"{root}/{pid}/cgroup")
    return quota_cores_of(text, cgroups) if text else None


def quota_cores_of(cgroup_text, cgroups="/sys/fs/cgroup"):
    """cpu_quota_cores from the text of /proc/<pid>/cgroup: cgroup v1's cpu controller (its
    cpu.cfs_quota_us ÷ cpu.cfs_period_us, -1 for none), else v2's unified tree (cpu.max, 'max' for none)."""
    v1 = v2 = None
    for line in cgroup_text.splitlines():
        _, controllers, path = line.split(":", 2)
        if "cpu" in controllers.split(","):
            v1 = (controllers, path)
        elif controllers == "":
            v2 = path
    quotas = []
    if v1 is not None:
        controllers, path = v1
        mount = next((f"{cgroups}/{name}" for name in (controllers, "cpu", "cpu,cpuacct")
                      if os.path.isdir(f"{cgroups}/{name}")), None)
        for folder in _up_to_root(mount, path) if mount else ():
            quota, period = _leading_int(_read(f"{folder}/cpu.cfs_quota_us")), _leading_int(_read(f"{folder}/cpu.cfs_period_us"))
            if quota is not None and quota > 0 and period:
                quotas.append(quota / period)
    elif v2 is not None:
        for folder in _up_to_root(cgroups, v2):
            fields = (_read(f"{folder}/cpu.max") or "").split()
            if len(fields) == 2 and fields[0] != "max" and int(fields[1]):
                quotas.append(int(fields[0]) / int(fields[1]))
    return round(min(quotas), 4) if quotas else None


def _up_to_root(mount, path):
    """The cgroup folders from `path` up to the hierarchy's root, under its mount point."""
    parts = [part for part in path.split("/") if part]
    return [os.path.join(mount, *parts[:depth]) for depth in range(len(parts), -1, -1)]


def task_count(pid):
    """How many threads of the process still have a /proc/<pid>/task entry, or None when it is gone."""
    try:
        return len(os.listdir(f"/proc/{pid}/task"))
    except OSError:
        return None


def cpu_seconds(pid):
    """User + system CPU seconds so far, or None when the process is gone."""
    stat = read_stat(pid)
    return stat.cpu_s if stat else None


def peak_rss_kb(pid):
    """VmHWM, the kernel's high-water mark of resident memory, or None."""
    status = read_status(pid)
    return status.hwm_kb if status else None


class Watch:
    """Keeps the last /proc readings of a process, so they survive the process's exit."""

    def __init__(self, pid):
        self.pid = pid
        self.cpu_s = None
        self.peak_rss_kb = None

    def sample(self):
        cpu = cpu_seconds(self.pid)
        rss = peak_rss_kb(self.pid)
        if cpu is not None:
            self.cpu_s = cpu
        if rss is not None:
            self.peak_rss_kb = max(rss, self.peak_rss_kb or 0)


# -- the machine ----------------------------------------------------------------------------------
@dataclass(frozen=True)
class CpuTimes:
    """CPU seconds since boot of one CPU or of several together, from /proc/stat. `steal` is time the
    hypervisor ran something else while this guest had work for the CPU: neither idle nor ours."""
    busy_s: float
    steal_s: float
    total_s: float

    def __add__(self, other):
        return CpuTimes(self.busy_s + other.busy_s, self.steal_s + other.steal_s, self.total_s + other.total_s)


def parse_cpu_times(text):
    """{"cpu": all CPUs, "cpu0": ..., ...} from the text of /proc/stat. Fields: user nice system idle
    iowait irq softirq steal (guest time is already inside user and nice); iowait counts as idle."""
    table = {}
    for line in text.splitlines():
        name, *fields = line.split()
        if not name.startswith("cpu"):
            continue
        values = [int(v) for v in fields[:8]] + [0] * (8 - len(fields[:8]))
        user, nice, system, _idle, _iowait, irq, softirq, steal = values
        table[name] = CpuTimes(busy_s=(user + nice + system + irq + softirq) / CLOCK_TICKS,
                               steal_s=steal / CLOCK_TICKS, total_s=sum(values) / CLOCK_TICKS)
    return table


def read_cpu_times(path="/proc/stat"):
    """parse_cpu_times of the machine now."""
    with open(path) as f:
        return parse_cpu_times(f.read())


def cpus_times(table, cpus):
    """The CpuTimes of the listed CPU numbers together (all CPUs when `cpus` is None), or None when
    one of them is not in the table."""
    if cpus is None:
        return table.get("cpu")
    parts = [table.get(f"cpu{n}") for n in sorted(cpus)]
    if not parts or None in parts:
        return None
    total = parts[0]
    for part in parts[1:]:
        total = total + part
    return total


def parse_meminfo(text):
    """{"MemTotal": 24684092, ...} from /proc/meminfo: each figure in KiB (the kernel's 'kB'), a few
    (HugePages_Total) plain counts."""
    table = {}
    for line in text.splitlines():
        key, _, value = line.partition(":")
        number = _leading_int(value)
        if number is not None:
            table[key] = number
    return table


def read_meminfo(path="/proc/meminfo"):
    text = _read(path)
    return parse_meminfo(text) if text is not None else None


def parse_cpuinfo(text):
    """The first CPU's lines of /proc/cpuinfo as {"model name": ..., "vendor_id": ..., ...}: the
    blocks are one per CPU, separated by an empty line."""
    first = {}
    for line in text.split("\n\n", 1)[0].splitlines():
        key, colon, value = line.partition(":")
        if colon:
            first.setdefault(key.strip(), value.strip())
    return first


def read_cpuinfo(path="/proc/cpuinfo"):
    text = _read(path)
    return parse_cpuinfo(text) if text is not None else None


def parse_netstat(text):
    """{"TcpExt": {"ListenOverflows": 12, ...}, "IpExt": {...}} from /proc/net/netstat, which holds
    pairs of lines: the counters' names, then their values."""
    lines = text.splitlines()
    tables = {}
    for names, values in zip(lines[::2], lines[1::2]):
        group, _, names = names.partition(":")
        value_group, _, values = values.partition(":")
        if group == value_group and group not in tables:
            tables[group] = {name: int(value) for name, value in zip(names.split(), values.split())}
    return tables


def tcp_counter(name, path="/proc/net/netstat"):
    """A kernel TCP counter since boot (e.g. ListenOverflows: connections dropped because a listen
    queue was full), or None when the file does not have it."""
    text = _read(path)
    return None if text is None else tcp_counter_in(text, name)


def tcp_counter_in(text, name):
    """The TCP counter `name` in the text of a /proc/net/netstat (read here or on another host), or None."""
    return parse_netstat(text).get("TcpExt", {}).get(name)


# TCP sockets by state: /proc/net/tcp and tcp6 list one socket a line (local and remote address as
# hex ADDR:PORT, then the state in hex: 06 is TIME_WAIT).
TCP_TABLES = ("/proc/net/tcp", "/proc/net/tcp6")
TIME_WAIT = "06"


def count_sockets(text, state, remote_port):
    """The sockets of one /proc/net/tcp table's text in `state` whose remote end is `remote_port`."""
    wanted = f":{remote_port:04X}"
    count = 0
    for line in text.splitlines()[1:]:
        fields = line.split()
        if len(fields) > 3 and fields[3] == state and fields[2].endswith(wanted):
            count += 1
    return count


def sockets_to(remote_port, state=TIME_WAIT, tables=TCP_TABLES):
    """Sockets in `state` (TIME_WAIT unless told) whose remote end is `remote_port`, over IPv4 and
    IPv6; None when no table can be read."""
    texts = [text for text in (_read(table) for table in tables) if text is not None]
    return sum(count_sockets(text, state, remote_port) for text in texts) if texts else None
