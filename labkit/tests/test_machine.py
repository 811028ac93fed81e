"""One vocabulary of machine facts (labkit/ground/machine.py): what bench, capacity, micro and memory record,
and how results recorded under older keys load."""
import json
import os
import shutil

import pytest

from labkit import ROOT

from labkit.ground import machine
from labkit.memory import runner as memory
from labkit.measure import env
from labkit.micro import common

RESULTS = ROOT / "docs" / "results"

CPU_ID = {"vendor": "GenuineTest", "family": "6", "model": "85"}
FIXED = {"cpu_model": "Test CPU 3000", "cpu_id": CPU_ID, "cpus": 7, "memory_kib": 25_165_824, "memory_gib": 24.0, "os": "Test OS 1",
         "kernel": "6.1.0-test", "ulimit_nofile": [1024, 4096], "loadavg": [0.5, 0.25, 0.125], "python": "3.99.0"}


@pytest.fixture
def jdk(tmp_path):
    (tmp_path / "release").write_text('IMPLEMENTOR="Eclipse Adoptium"\nJAVA_VERSION="25.0.1"\n'
                                      'JAVA_RUNTIME_VERSION="25.0.1+8-LTS"\nMODULES="java.base java.logging"\n')
    return tmp_path


def test_facts_read_this_machine():
    now = machine.facts()
    assert now["cpus"] == os.cpu_count()
    assert now["memory_kib"] > 0 and now["memory_gib"] == round(now["memory_kib"] / 1024 / 1024, 1)
    assert now["kernel"] == os.uname().release
    soft, hard = now["ulimit_nofile"]
    assert soft > 0 and hard != 0
    assert len(now["loadavg"]) == 3 and now["cpu_model"]


def test_another_hosts_facts_come_from_the_same_parsers_as_this_machines():
    """A server host's facts are its texts, printed by one shell script (sent over ssh there; run here
    through sh), parsed as this machine's are: the same values, the lab's own process facts left out."""
    import subprocess
    output = subprocess.run(["sh", "-c", machine.fact_script() + f"; echo '{machine.TEXT_MARK}extra'; echo 42"],
                            stdout=subprocess.PIPE, text=True, timeout=30).stdout
    texts = machine.texts_from_script(output)
    assert set(machine.FACT_TEXTS) <= set(texts) and texts["extra"] == "42\n"
    there, here = machine.facts_from(texts), machine.facts()
    assert "ulimit_nofile" not in there and "python" not in there
    for key in ("cpu_model", "cpu_id", "cpus", "memory_kib", "memory_gib", "os", "kernel"):
        assert there[key] == here[key] and here[key] is not None, key
    assert len(there["loadavg"]) == 3
    # A host that printed nothing: every fact unknown, none invented.
    assert set(machine.facts_from(machine.texts_from_script("")).values()) == {None}


def test_the_cpu_identity_tells_apart_hosts_of_one_model_name(tmp_path):
    cpuinfo = tmp_path / "cpuinfo"
    cpuinfo.write_text("processor\t: 0\nvendor_id\t: AuthenticAMD\ncpu family\t: 26\nmodel\t\t: 2\n"
                       "model name\t: AMD EPYC\nstepping\t: 1\nmicrocode\t: 0x1000065\ncpu MHz\t\t: 2596.122\n"
                       "cache size\t: 1024 KB\n\nprocessor\t: 1\nvendor_id\t: AuthenticAMD\ncpu family\t: 25\n")
    identity = machine.cpu_identity(cpuinfo)
    assert identity == {"vendor": "AuthenticAMD", "family": "26", "model": "2", "stepping": "1",
                        "microcode": "0x1000065", "mhz": "2596.122", "cache": "1024 KB"}  # the first CPU's only
    assert machine.cpu_text("AMD EPYC", identity) == "AMD EPYC (AuthenticAMD family 26 model 2 stepping 1, 2,596 MHz)"
    assert machine.cpu_text("AMD EPYC", None) == "AMD EPYC"  # results recorded before the identity
    assert machine.cpu_identity(tmp_path / "absent") is None


def test_jdk_release_reads_the_release_file_and_is_empty_without_one(jdk, tmp_path):
    release = machine.jdk_release(jdk)
    assert release["JAVA_RUNTIME_VERSION"] == "25.0.1+8-LTS" and release["IMPLEMENTOR"] == "Eclipse Adoptium"
    assert release["MODULES"] == "java.base java.logging"
    assert machine.jdk_release(tmp_path / "absent") == {}


def test_fixed_facts_name_every_fact_of_the_vocabulary():
    assert list(FIXED) == [fact.key for fact in machine.FACTS] == list(machine.facts())


def test_bench_micro_and_memory_record_the_one_vocabulary(monkeypatch, jdk):
    for module in (env, common, memory):
        monkeypatch.setattr(module, "facts", lambda: dict(FIXED))
    collected = env.collect(jdk, {}, "./lab bench")
    assert collected["host"] == FIXED  # env.json of bench, capacity and soak
    assert collected["jdk"]["runtime_version"] == "25.0.1+8-LTS"
    assert common.describe_machine(jdk) == dict(FIXED, jdk="25.0.1+8-LTS")  # micro: the facts and its JDK
    assert memory.machine() == FIXED  # thread-memory.json's machineAtStart and machineAtEnd
    # What the micro report prints from it.
    lines = common.machine_lines(common.describe_machine(jdk))
    assert lines == ["- CPU: Test CPU 3000, 7 cores; memory 24.0 GiB",
                     "- OS: Test OS 1, kernel 6.1.0-test; JDK 25.0.1+8-LTS; ulimit -n 1024",
                     "- load average (1/5/15 min) before the run: 0.50 / 0.25 / 0.12"]


# The machine as each kind of result recorded it before the vocabulary was one.
OLD_ENV_HOST = {"cpu_model": "Test CPU 3000", "cpu_id": CPU_ID, "cpus": 7, "memory_gb": 24.0, "kernel": "6.1.0-test",
                "os": "Test OS 1", "ulimit_nofile": [1024, 4096], "loadavg_at_start": [0.5, 0.25, 0.125]}
OLD_MICRO = {"cpu": "Test CPU 3000", "cpus": 7, "memory_gib": 24.0, "os": "Test OS 1", "kernel": "6.1.0-test",
             "jdk": "25.0.1+8-LTS", "ulimit_nofile": 1024, "loadavg_start": [0.5, 0.25, 0.125]}
OLD_MEMORY = {"cores": 7, "kernel": "6.1.0-test", "python": "3.99.0", "memTotalKib": 25_165_824,
              "loadAverage": [0.5, 0.25, 0.125]}


def test_an_old_keyed_record_loads_under_todays_keys():
    kept = dict(OLD_ENV_HOST)
    assert machine.normalize_facts(OLD_ENV_HOST) == {key: FIXED[key] for key in FIXED if key not in
                                                     ("memory_kib", "python")}
    assert OLD_ENV_HOST == kept, "the record itself is not changed: a rebuilt folder writes it back as it was"
    micro = machine.normalize_facts(OLD_MICRO)
    assert micro == {"cpu_model": "Test CPU 3000", "cpus": 7, "memory_gib": 24.0, "os": "Test OS 1",
                     "kernel": "6.1.0-test", "jdk": "25.0.1+8-LTS", "ulimit_nofile": [1024, None],
                     "loadavg": [0.5, 0.25, 0.125]}
    assert machine.normalize_facts(OLD_MEMORY) == {"cpus": 7, "kernel": "6.1.0-test", "python": "3.99.0",
                                                   "memory_kib": 25_165_824, "loadavg": [0.5, 0.25, 0.125]}
    assert machine.normalize_facts(FIXED) == FIXED, "a record with today's keys loads as it is"
    # A record holding a fact under both names: today's key wins.
    assert machine.normalize_facts({"loadavg": [1, 2, 3], "loadavg_at_start": [4, 5, 6]}) == {"loadavg": [1, 2, 3]}


def test_former_keys_never_name_a_fact_of_today():
    today = {fact.key for fact in machine.FACTS}
    assert set(machine.FORMER_KEYS).isdisjoint(today)
    assert set(machine.FORMER_KEYS.values()) <= today


def test_the_micro_report_reads_an_old_record_as_it_did():
    jdk_version = OLD_MICRO["jdk"]
    today = common.machine_lines(dict(FIXED, jdk=jdk_version))
    assert common.machine_lines(machine.normalize_facts(OLD_MICRO)) == today


def test_committed_results_load_under_the_vocabulary():
    """Every machine description committed under docs/results/ names only facts of today once loaded."""
    today = {fact.key for fact in machine.FACTS}
    recorded = [json.loads(path.read_text())["host"] for path in RESULTS.rglob("env.json")]
    recorded += [json.loads((RESULTS / "thread-memory.json").read_text())[key] for key in ("machineAtStart", "machineAtEnd")]
    assert len(recorded) > 10
    for host in recorded:
        loaded = machine.normalize_facts(host)
        assert set(loaded) <= today and {"cpus", "kernel", "loadavg"} <= set(loaded)


@pytest.mark.parametrize("folder", ["i4-steady", "capacity/s100-run4"])
def test_bench_and_capacity_reports_read_old_and_new_keys_alike(folder, tmp_path):
    """A committed run's report, once with its env.json host as recorded, once under today's keys."""
    from labkit.commands.report import rebuild
    from labkit.measure.results import RESULTS_JSON, StoredRun, stored_file

    reports = []
    for name in ("recorded", "today"):
        copy = tmp_path / name
        shutil.copytree(RESULTS / folder, copy)
        stored = StoredRun.read(stored_file(copy, RESULTS_JSON))
        if name == "today":
            host = stored.run["env"]["host"]
            stored.run["env"]["host"] = dict(machine.normalize_facts(host), memory_kib=1, python="3.99.0")
            assert "memory_gb" not in stored.run["env"]["host"] and "loadavg" in stored.run["env"]["host"]
        rebuild(stored, copy)
        reports.append((copy / "report.md").read_text())
    assert reports[0] == reports[1]
    assert "| Load average at start |" in reports[0]
