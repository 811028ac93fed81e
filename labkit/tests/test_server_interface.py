"""Every kind of server the lab starts has the one interface that ./lab run, bench, capacity and soak
use (labkit/servers/interface.py): checked on servers that are built but not started."""
import json
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import pytest

from labkit import ROOT
from labkit.apps import cargotracker
from labkit.servers.baselines import BASELINES, BaselineServer
from labkit.servers.appserver.glassfish import GlassFish, GlassFishDistribution
from labkit.servers.modes import payara_mode
from labkit.servers.payara_micro import PayaraMicro
from labkit.servers.appserver.payara_server import Distribution as PayaraServerDistribution, PayaraServer
from labkit.servers.interface import LabServer, ServerHandle

PORT = 19510  # never bound here: no server is started
NO_JDK = Path("/no-such-jdk")


def every_kind(tmp_path):
    mode = payara_mode("virtual")
    kinds = {
        "Payara Micro": PayaraMicro(mode, port=PORT, java_home=NO_JDK),
        "CargoTracker": cargotracker.payara_micro(mode, PORT),
        "Payara Server": PayaraServer(mode, port=PORT, java_home=NO_JDK,
                                      distribution=PayaraServerDistribution(version="test", home=tmp_path / "payara")),
        "GlassFish": GlassFish(mode, port=PORT, java_home=NO_JDK,
                               distribution=GlassFishDistribution(version="test", home=tmp_path / "glassfish")),
    }
    kinds.update({name: BaselineServer(baseline, port=PORT, java_home=NO_JDK) for name, baseline in BASELINES.items()})
    return kinds


def test_every_server_kind_is_a_server_handle_before_it_starts(tmp_path):
    kinds = every_kind(tmp_path)
    assert {"Payara Micro", "Payara Server", "GlassFish", "jdk-virtual", "helidon", "vertx-virtual"} <= set(kinds)
    for name, server in kinds.items():
        assert isinstance(server, ServerHandle), name
        assert server.base_url == f"http://127.0.0.1:{PORT}" and server.info_path == "/api/info", name
        assert server.pid is None and server.process is None, name
        assert Path(server.log_path).is_relative_to(ROOT / ".lab" / "runs"), (name, server.log_path)
        # The command a user can copy names the port it serves (--port, -Dport=, or the domain's name).
        assert str(PORT) in server.printable_command(), (name, server.printable_command())


def test_base_url_info_and_the_context_manager_are_written_once(tmp_path):
    for name, server in every_kind(tmp_path).items():
        kind = type(server)
        for member in ("base_url", "info", "__enter__", "__exit__"):
            assert getattr(kind, member) is getattr(LabServer, member), f"{name} has its own {member}"


def test_a_server_without_part_of_the_interface_is_not_a_server_handle(tmp_path):
    class NoCommand(LabServer):  # all of it but printable_command()
        host, port, log_path, java_home, process = "127.0.0.1", PORT, tmp_path / "server.log", NO_JDK, None

        def start(self):
            return self

        def stop(self):
            pass

    class Complete(NoCommand):
        def printable_command(self):
            return "java -jar server.jar"

    assert not isinstance(NoCommand(), ServerHandle)
    assert isinstance(Complete(), ServerHandle)


class Recording(LabServer):
    host = "127.0.0.1"

    def __init__(self, port=PORT):
        self.port, self.calls = port, []

    def start(self):
        self.calls.append("start")
        return self

    def stop(self):
        self.calls.append("stop")


def test_the_context_manager_starts_and_stops_even_when_the_block_fails():
    server = Recording()
    with pytest.raises(RuntimeError):
        with server as started:
            assert started is server and server.calls == ["start"]
            raise RuntimeError("the run failed")
    assert server.calls == ["start", "stop"]


@pytest.fixture
def info_endpoint():
    """A stand-in server answering GET /api/info with a fixed JSON body, on a free port."""
    class Info(BaseHTTPRequestHandler):
        def do_GET(self):
            body = json.dumps({"path": self.path, "server": {"name": "stand-in"}}).encode()
            self.send_response(200 if self.path == "/api/info" else 404)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

        def log_message(self, *args):
            pass

    httpd = ThreadingHTTPServer(("127.0.0.1", 0), Info)
    thread = threading.Thread(target=httpd.serve_forever, daemon=True)
    thread.start()
    yield httpd.server_address[1]
    httpd.shutdown()
    httpd.server_close()


def test_info_is_the_json_of_api_info_at_the_base_url(info_endpoint):
    assert Recording(port=info_endpoint).info() == {"path": "/api/info", "server": {"name": "stand-in"}}
