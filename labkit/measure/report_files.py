"""report.md's links to the files of its own folder. A run folder holds everything the run wrote; a
folder committed under docs/results/ keeps the record, the histograms, the samples and the charts and
leaves out the server logs and the tools' raw output (megabytes each, and machine paths inside). So a
report links a file only when the file is in its folder; a link to one that is not becomes its plain
label, and one closing line names what the folder lacks and why (issue 56: 1,349 links pointed to
files that were never committed)."""
import re
from pathlib import Path

# [label](target) and ![label](target): the target up to the closing parenthesis, no spaces inside.
_LINK = re.compile(r"(!?)\[([^\]]*)\]\(([^)\s]+)\)")

# Why a folder may lack the files under each of these names; anything else "was not kept".
KEPT_OUT = {
    "servers": "server logs, kept out of the repository (machine paths, megabytes)",
    "raw": "each tool's raw output, kept out of the repository (the record holds what was derived from it)",
}


def _local(target):
    """A target in the report's own file tree: not a web address, not an anchor, not absolute."""
    return not (re.match(r"^[a-z][a-z0-9+.-]*:", target) or target.startswith(("#", "/")))


def links_that_resolve(text, folder):
    """`text` (report.md) with every local link whose file is missing from `folder` written as its
    label, and a closing line naming the missing files by directory; `text` unchanged when all resolve."""
    folder = Path(folder)
    missing = {}

    def keep_or_flatten(match):
        bang, label, target = match.groups()
        path = target.split("#", 1)[0]
        if not _local(target) or not path or (folder / path).exists():
            return match.group(0)
        where = path.split("/", 1)[0] if "/" in path else "."
        missing.setdefault(where, set()).add(path)
        return label

    linked = _LINK.sub(keep_or_flatten, text)
    if not missing:
        return text
    lines = ["## Files not in this folder", "",
             "Names in the tables above that are not links stand for these files of the run:", ""]
    for where in sorted(missing):
        count = len(missing[where])
        if where == ".":
            lines.append(f"- {count} file(s) of the folder itself ({', '.join(f'`{name}`' for name in sorted(missing[where]))}): "
                         "not kept")
        else:
            lines.append(f"- `{where}/`: {count} file(s), {KEPT_OUT.get(where, 'not kept')}")
    return linked.rstrip("\n") + "\n\n" + "\n".join(lines) + "\n"
