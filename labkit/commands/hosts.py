"""./lab hosts up N | down | list: one box as a cluster of hosts (network namespaces joined by a
bridge, each with its own sshd), for the tests and for anyone without spare machines. The lab then
reaches them as it reaches real hosts: `--server-host srv`, `--load-hosts lg1,lg2`."""
from labkit.ground.arguments import whole_number
from labkit.hosts import cluster

MAX_HOSTS = cluster.MAX_HOSTS


def register(subparsers):
    p = subparsers.add_parser("hosts", help="a cluster of network namespaces on this machine, each with sshd (up, down, list)",
                              description="Hosts on this machine: network namespaces (loomlab-srv, loomlab-lg1, ...) "
                                          "on a bridge, addresses from 198.18.0.0/24 (the benchmarking range), each "
                                          "running its own sshd with a key made for the cluster. Needs root.")
    actions = p.add_subparsers(dest="action", metavar="ACTION")
    actions.required = True
    up = actions.add_parser("up", help="create N hosts: srv and lg1 ... lg(N-1) (replaces a cluster that is up)")
    up.add_argument("count", metavar="N", type=whole_number(1, MAX_HOSTS, "N"))
    up.add_argument("--cpus", type=cluster.parse_cpus, metavar="HOST=CPUS,...",
                    help="pin hosts to CPUs, e.g. srv=1,lg1=0 (each host's commands inherit it)")
    actions.add_parser("down", help="remove every namespace, link and process of the cluster")
    actions.add_parser("list", help="the hosts that are up, with their addresses")
    p.set_defaults(run=run)


def run(args):
    if args.action == "up":
        cluster.up(args.count, args.cpus)
        print(f"ssh config: {cluster.ssh_config_path()}; `./lab hosts down` removes it all")
    elif args.action == "down":
        cluster.down()
    else:
        hosts = cluster.hosts()
        if not hosts:
            print("no cluster is up (./lab hosts up N)")
        for host in hosts:
            print(f"{host.name}\t{host.address}\t{host.netns}" + (f"\tCPUs {host.cpus}" if host.cpus else ""))
    return 0
