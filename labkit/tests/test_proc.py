"""The /proc parsers and readers of labkit/ground/proc.py: fed real-format text, and reading this test
process's own entries."""
import os
import subprocess
import sys
import time

import pytest

from labkit.ground import proc
from labkit.ground.process import gone
from labkit.measure.sampler import process_running, read_process

# A JVM's stat line whose command name holds spaces and parentheses: its fields start after the last ')'.
JAVA_STAT = ("4242 (my (java) app) S 4200 4242 4100 0 -1 1077936384 512000 0 12 0 1500 250 0 0 20 0 37 0 "
             "987654 6442450944 262144 18446744073709551615 1 1 0 0 0 0 0 4096 16796879 0 0 0 17 1 0 0 0 0 0 "
             "0 0 0 0 0 0 0 0\n")
NO_SUCH_PID = 2 ** 22 + 12345  # above pid_max

STATUS = """Name:\tjava
Umask:\t0022
State:\tS (sleeping)
Tgid:\t4242
Pid:\t4242
PPid:\t4200
VmPeak:\t 7340032 kB
VmSize:\t 6291456 kB
VmHWM:\t  1048576 kB
VmRSS:\t   786432 kB
RssAnon:\t  700000 kB
Threads:\t37
Cpus_allowed:\t3
Cpus_allowed_list:\t0-1
voluntary_ctxt_switches:\t120
"""

# A zombie has let go of its memory: no Vm lines.
ZOMBIE_STATUS = "Name:\tsleep\nState:\tZ (zombie)\nTgid:\t77\nThreads:\t1\n"

MEMINFO = """MemTotal:       24684092 kB
MemFree:         1193528 kB
MemAvailable:   20043120 kB
HugePages_Total:       0
Hugepagesize:       2048 kB
"""

CPUINFO = """processor\t: 0
vendor_id\t: AuthenticAMD
cpu family\t: 26
model\t\t: 2
model name\t: AMD EPYC 9R45
stepping\t: 1
flags\t\t: fpu vme de pse

processor\t: 1
vendor_id\t: AuthenticAMD
model name\t: Some Other CPU
"""


def test_a_stat_line_is_split_after_the_command_names_last_parenthesis():
    stat = proc.parse_stat(JAVA_STAT)
    assert stat.pid == 4242 and stat.comm == "my (java) app"
    assert stat.state == "S" and stat.ppid == 4200 and not stat.exited
    assert (stat.utime_ticks, stat.stime_ticks) == (1500, 250)
    assert stat.cpu_s == pytest.approx(1750 / proc.CLOCK_TICKS)
    assert stat.threads == 37
    assert stat.start_ticks == 987654 and stat.start_s == pytest.approx(987654 / proc.CLOCK_TICKS)
    assert proc.parse_stat(JAVA_STAT.replace(" S 4200 ", " Z 4200 ", 1)).exited


def test_a_status_file_gives_resident_memory_threads_and_every_line():
    status = proc.parse_status(STATUS)
    assert (status.rss_kb, status.hwm_kb, status.threads) == (786432, 1048576, 37)
    assert status.fields["Cpus_allowed_list"] == "0-1" and status.fields["State"] == "S (sleeping)"
    zombie = proc.parse_status(ZOMBIE_STATUS)
    assert (zombie.rss_kb, zombie.hwm_kb, zombie.threads) == (None, None, 1)


def test_meminfo_and_cpuinfo_are_read_as_tables():
    meminfo = proc.parse_meminfo(MEMINFO)
    assert meminfo["MemTotal"] == 24684092 and meminfo["HugePages_Total"] == 0
    first_cpu = proc.parse_cpuinfo(CPUINFO)
    assert first_cpu["model name"] == "AMD EPYC 9R45" and first_cpu["cpu family"] == "26"
    assert first_cpu["model"] == "2" and first_cpu["flags"] == "fpu vme de pse"  # the first CPU's block only


def test_a_tcp_counter_is_read_from_the_kernels_name_and_value_lines(tmp_path):
    netstat = tmp_path / "netstat"
    netstat.write_text("TcpExt: SyncookiesSent ListenOverflows ListenDrops\n"
                       "TcpExt: 0 1995496 1995497\n"
                       "IpExt: InNoRoutes InTruncatedPkts\n"
                       "IpExt: 0 0\n")
    assert proc.parse_netstat(netstat.read_text())["IpExt"] == {"InNoRoutes": 0, "InTruncatedPkts": 0}
    assert proc.tcp_counter("ListenOverflows", netstat) == 1995496
    assert proc.tcp_counter("ListenDrops", netstat) == 1995497
    assert proc.tcp_counter("NoSuchCounter", netstat) is None
    assert proc.tcp_counter("ListenOverflows", tmp_path / "missing") is None


def test_this_process_reads_plausibly():
    pid = os.getpid()
    stat = proc.read_stat(pid)
    assert stat.pid == pid and stat.ppid == os.getppid() and stat.state == "R"  # it is running this line
    assert stat.threads >= 1 and stat.cpu_s > 0
    uptime_s = float(open("/proc/uptime").read().split()[0])
    assert 0 < stat.start_s <= uptime_s
    status = proc.read_status(pid)
    assert status.threads >= 1 and status.rss_kb > 0 and status.hwm_kb >= status.rss_kb
    assert status.fields["Pid"] == str(pid)
    assert proc.bytes_read(pid) > 0  # it has read its own Python files at least
    assert proc.task_count(pid) >= 1
    assert proc.read_cpuinfo() and proc.read_meminfo()["MemTotal"] > 0
    machine = proc.read_cpu_times()["cpu"]
    assert machine.total_s >= machine.busy_s + machine.steal_s > 0


def test_a_process_that_is_not_there_reads_as_none():
    assert proc.read_stat(NO_SUCH_PID) is None and proc.read_status(NO_SUCH_PID) is None
    assert proc.bytes_read(NO_SUCH_PID) is None and proc.task_count(NO_SUCH_PID) is None
    assert read_process(NO_SUCH_PID) is None and not process_running(NO_SUCH_PID) and gone(NO_SUCH_PID)


def test_a_zombie_child_has_exited_and_is_gone_before_it_is_reaped():
    child = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(30)"])
    try:
        assert not gone(child.pid) and process_running(child.pid)
        assert read_process(child.pid).threads >= 1
        child.kill()
        deadline = time.monotonic() + 10
        while not proc.read_stat(child.pid).exited and time.monotonic() < deadline:
            time.sleep(0.05)
        assert proc.read_stat(child.pid).state == "Z"  # not waited for yet
        assert gone(child.pid) and not process_running(child.pid)
        reading = read_process(child.pid)
        assert reading is not None and reading.rss_kb == 0  # a zombie holds no memory
    finally:
        child.kill()
        child.wait()
    assert proc.read_stat(child.pid) is None


def test_a_cgroup_cpu_quota_is_read_as_cores_the_tightest_along_the_path(tmp_path):
    from labkit.ground.proc import quota_cores_of
    # cgroup v1: the cpu controller's own hierarchy; the parent's quota (half a core) is looser than
    # the child's (a tenth), a group without one says -1.
    v1 = tmp_path / "v1"
    for folder, quota in (("cpu", -1), ("cpu/lab", 50_000), ("cpu/lab/vegeta", 10_000), ("cpu/none", -1)):
        (v1 / folder).mkdir(parents=True)
        (v1 / folder / "cpu.cfs_quota_us").write_text(f"{quota}\n")
        (v1 / folder / "cpu.cfs_period_us").write_text("100000\n")
    assert quota_cores_of("5:memory:/x\n1:cpu:/lab/vegeta\n0::/\n", str(v1)) == 0.1
    assert quota_cores_of("1:cpu:/lab\n", str(v1)) == 0.5
    assert quota_cores_of("1:cpu:/none\n", str(v1)) is None
    # cgroup v2: cpu.max, "max" for no quota.
    v2 = tmp_path / "v2"
    (v2 / "box").mkdir(parents=True)
    (v2 / "cpu.max").write_text("max 100000\n")
    (v2 / "box" / "cpu.max").write_text("25000 100000\n")
    assert quota_cores_of("0::/box\n", str(v2)) == 0.25
    assert quota_cores_of("0::/\n", str(v2)) is None
