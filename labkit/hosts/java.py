"""The JDK on a host: found there the way labkit/ground/jdk.py finds one here (JAVA_HOME when it is
21+, else the newest 21+ JDK in the usual folders), or the one `--remote-java PATH` names; on a host
with none, when the lab runs from an offline bundle, the bundle's own runtime, copied there once."""
import hashlib
import shlex
import subprocess

from labkit import BUNDLE_MANIFEST, ROOT, is_bundle
from labkit.ground.errors import LabError
from labkit.ground.jdk import BUNDLED_JDK, MIN_FEATURE, SEARCH_GLOBS, find_java_home, release_feature
from labkit.ground.process import die_with_parent
from labkit.hosts.local import is_this_machine

# Prints, for $JAVA_HOME and every folder the globs find, "HOME<TAB>FEATURE" of each that has
# bin/java and a release file. Globs with ~ are written with $HOME, expanded there.
_LIST = r"""
for home in "$JAVA_HOME" {globs}; do
  [ -n "$home" ] && [ -x "$home/bin/java" ] && [ -f "$home/release" ] && [ ! -L "$home" -o "$home" = "$JAVA_HOME" ] || continue
  v=$(sed -n 's/^JAVA_VERSION="\([0-9]*\).*/\1/p' "$home/release")
  printf '%s\t%s\t%s\n' "$home" "$v" "$([ "$home" = "$JAVA_HOME" ] && echo env)"
done
"""


def _remote_globs():
    import os
    home = os.path.expanduser("~")
    return " ".join(pattern.replace(home, "$HOME") for pattern in SEARCH_GLOBS)


def java_home_on(host, given=None):
    """The JDK 21+ to run servers with on `host`: `given` when it is one (checked), else found there."""
    if is_this_machine(host):
        return find_java_home() if given is None else _checked_local(given)
    if given not in host.java_homes:
        host.java_homes[given] = _remote_java_home(host, given)
    return host.java_homes[given]


def _remote_java_home(host, given):
    if given:
        release = host.run(["cat", f"{given}/release"], check=False)
        if release.returncode != 0 or (release_feature(release.stdout) or 0) < MIN_FEATURE:
            raise LabError(f"--remote-java {given}: no JDK {MIN_FEATURE}+ there on {host} (no {given}/release "
                           f"with JAVA_VERSION {MIN_FEATURE} or later)")
        return given
    listing = host.run(["sh", "-c", _LIST.format(globs=_remote_globs())]).stdout
    found = []
    for line in listing.splitlines():
        home, version, origin = (line.split("\t") + ["", ""])[:3]
        if version.isdigit() and int(version) >= MIN_FEATURE:
            if origin == "env":
                return home
            found.append((int(version), home))
    if found:
        return max(found)[1]
    if is_bundle(ROOT) and BUNDLED_JDK.is_dir():
        return bundled_jdk_on(host)
    raise LabError(f"no JDK {MIN_FEATURE}+ on {host}: install one there (e.g. apt-get install openjdk-21-jdk), "
                   f"set JAVA_HOME in its non-interactive shell, or name it with --remote-java PATH")


def bundled_jdk_on(host, bundled=BUNDLED_JDK, manifest=None):
    """The bundle's JDK runtime in the work folder there: copied once per bundle (its manifest's digest
    names the folder, so a newer bundle brings its own and a rerun copies nothing)."""
    manifest = manifest or ROOT / BUNDLE_MANIFEST
    digest = hashlib.sha256(manifest.read_bytes()).hexdigest()[:12]
    return copy_tree(host, bundled, f"jdk-{digest}")


def copy_tree(host, local_dir, folder, timeout=900):
    """The local folder `local_dir` at `folder` of the work folder there (kept when already there):
    one tar stream over one ssh connection (a runtime is thousands of files), unpacked beside it and
    renamed, so it is whole or absent."""
    remote = f"{host.workdir}/{folder}"
    if host.run(["test", "-d", remote], check=False).returncode == 0:
        return remote
    unpack = 'rm -rf "$0.partial" && mkdir -p "$0.partial" && tar -C "$0.partial" -xf - && mv "$0.partial" "$0"'
    packer = subprocess.Popen(["tar", "-C", str(local_dir), "-cf", "-", "."], stdout=subprocess.PIPE,
                              stderr=subprocess.PIPE, preexec_fn=die_with_parent)
    try:
        result = subprocess.run(host.ssh_command(["sh", "-c", unpack, remote]), stdin=packer.stdout,
                                capture_output=True, text=True, timeout=timeout)
    except subprocess.TimeoutExpired:
        raise LabError(f"copying {local_dir} to {host}:{remote} took over {timeout} s") from None
    finally:
        packer.stdout.close()
        packer.wait()
    if result.returncode != 0 or packer.returncode != 0:
        why = result.stderr.strip() or packer.stderr.read().decode(errors="replace").strip()
        raise LabError(f"copying {local_dir} to {host}:{remote} failed: {why[-500:]}")
    return remote


def _checked_local(given):
    from pathlib import Path
    from labkit.ground.jdk import feature_version
    if (feature_version(given) or 0) < MIN_FEATURE:
        raise LabError(f"--remote-java {given}: not a JDK {MIN_FEATURE}+")
    return Path(given)


def quoted(path):
    return shlex.quote(str(path))
