"""The report's "Your application" section (./lab bench and ./lab capacity with --war/--request):
what was deployed and requested, and per window the proof that the requests ran on the mode's
threads (servers/userapp.py mode_proof)."""


def own_app_section(run):
    """Markdown lines, or [] when the run loaded the lab's own scenarios."""
    config = run["config"]
    wars, requests = config.get("wars") or [], config.get("requests")
    if not wars and not requests:
        return []
    lines = ["## Your application", ""]
    for war in wars:
        lines.append(f"- `{war['file']}` at `{war['context_root']}` ({war['bytes']:,} bytes), beside the lab's probe "
                     f"WAR at `/loomlab-probe` (the watchdog's probe and the pool's counters)")
    if requests:
        total = sum(r["weight"] for r in requests)
        for r in requests:
            body = f", body {r['body_bytes']:,} bytes" if r.get("body_bytes") is not None else ""
            headers = f", headers {', '.join(r['headers'])}" if r.get("headers") else ""
            lines.append(f"- `{r['method']} {r['path']}`: {100 * r['weight'] / total:.0f} % of requests{body}{headers}; "
                         f"answered 2xx before the load")
    proofs = [p for p in run["points"] if p.get("mode_proof")]
    if proofs:
        lines += ["", "**On the mode's threads?** The probe WAR's `/api/info` read before and after each window: the "
                  "HTTP pool's task counter (the virtual modes' pool counts every request it runs; Grizzly's platform "
                  "pool keeps none) against the requests the load tool got answered, and the thread the probe's own "
                  "request ran on (same listener, same pool).", "",
                  "| window | mode | answered | pool tasks in the window | probe's request thread | virtual | shown |",
                  "|---|---|---:|---:|---|---|---|"]
        for p in proofs:
            proof = p["mode_proof"]
            tasks = proof.get("pool_tasks")
            shown = {True: "yes", False: "**no**", None: "–"}[proof.get("proven")]
            lines.append(f"| {p['id']} | {p['mode']} | {proof.get('requests_sent') or 0:,} | "
                         f"{'–' if tasks is None else f'{tasks:,}'} | {proof.get('request_thread') or '–'} | "
                         f"{proof.get('request_virtual')} | {shown} |")
    return lines + [""]
