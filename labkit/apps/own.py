"""Your own application in the lab (--war FILE[:/ROOT], --request, --requests): what ./lab bench and
./lab capacity check before anything starts, alike: the WARs can be read and deployed by every
target named, and the requests are given once and can be sent by the load tools."""
from labkit.ground.errors import UsageError
from labkit.load.requests_mix import mix_from_arguments
from labkit.servers.userapp import check_wars


def check_own_app(args, modes, known_targets, drivers, known_drivers):
    """--war and --request/--requests: (wars, RequestMix or None), checked against the targets and tools."""
    wars = check_wars(getattr(args, "wars", None) or ())
    mix = mix_from_arguments(args)
    if mix is not None and getattr(args, "scenario", None):
        raise UsageError("--request/--requests replace --scenario: give one of them")
    if wars and mix is None:
        raise UsageError("--war needs --request 'GET /ROOT/page' (or --requests FILE): what to load in your application")
    if wars:
        unable = [m for m in modes if not getattr(known_targets[m], "takes_wars", False)]
        if unable:
            raise UsageError(f"--war: target '{unable[0]}' cannot deploy a WAR; use Payara Micro, Payara Server "
                             f"(server-<mode>) or GlassFish (glassfish-<mode>) targets")
    for name in drivers:
        refusal = known_drivers[name].refuses(mix) if hasattr(known_drivers[name], "refuses") else None
        if refusal:
            raise UsageError(refusal)
    return wars, mix
