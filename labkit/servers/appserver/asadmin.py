"""asadmin of one distribution, run with the lab's JDK against one domain's admin port."""
import re
from pathlib import Path

from labkit.ground.command import last_lines, run_command
from labkit.ground.errors import LabError
from labkit.ground.jdk import java_env

ADMIN_USER = "admin"


class AdminPasswordRefused(LabError):
    """The domain does not accept the admin password the lab has for it."""


def asadmin_env(java_home):
    env = java_env(java_home)
    env["AS_JAVA"] = str(java_home)  # asadmin and its launcher take the JDK from AS_JAVA
    env["TERM"] = "dumb"             # no terminal probing in a captured session
    return env


class Asadmin:
    def __init__(self, distribution, java_home, admin_port, password_file):
        self.distribution = distribution
        self.java_home = java_home
        self.env = asadmin_env(java_home)
        self.admin_port = admin_port
        self.password_file = password_file

    def run(self, args, timeout=300, what=None):
        command = [str(self.distribution.asadmin), "--interactive=false", "--user", ADMIN_USER,
                   "--passwordfile", str(self.password_file), "--host", "127.0.0.1",
                   "--port", str(self.admin_port), *args]
        result = run_command(command, env=self.env, timeout=timeout, merged=True, what=f"asadmin {args[0]}")
        output = "\n".join(l for l in result.stdout.splitlines() if "manpage" not in l and "infocmp" not in l)
        failed = [l for l in output.splitlines() if re.match(r"Command \S+ failed\.", l)]
        if "Authentication failed" in output:
            raise AdminPasswordRefused(f"asadmin {args[0]}: the domain refused the admin password:\n"
                                       f"{last_lines(output, 5)}")
        if result.returncode != 0 or failed:
            raise LabError(f"asadmin {what or args[0]} failed:\n{last_lines(output, 15)}")
        return output

    def multimode(self, commands, path, timeout=600):
        """Several commands in one asadmin JVM; multimode exits 0 even when one fails, so run() checks."""
        Path(path).write_text("\n".join(commands) + "\n")
        return self.run(["multimode", "--file", str(path)], timeout=timeout, what=f"multimode --file {path}")
