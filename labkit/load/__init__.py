"""Load: what is sent to a server, and the tools that send it. Knows no server kind and no run.

- drivers/        one module per load tool (bombardier, ab, wrk: closed model; vegeta: open model):
                  the command line of a LoadSpec in, one LoadResult record out (drivers/record.py)
- tools.py        finding each tool, building bombardier and vegeta from the Go module proxy when
                  missing, and their versions for env.json
- scenarios.py    what a point requests (the sleep, work and fan-out endpoints; more register from
                  labkit/apps/) and how long one request takes when nothing queues
- levels.py       a load level: a concurrency and the sleep each request makes
- requests_mix.py your own requests (--request, --requests FILE): checked, then sent natively by
                  each tool

Rule: load imports only ground (labkit/tests/test_import_graph.py).
"""
