# domain-config/ is written for Payara Micro, whose HTTP listener (and protocol) is "http-listener";
# Payara Server and GlassFish call it "http-listener-1". Same rule as MICRO_TO_SERVER_NAMES in
# labkit/appserver/commands.py; labkit/tests/test_docker_files.py checks that both give the same commands.
s/\.http-listener([.=])/.http-listener-1\1/g
