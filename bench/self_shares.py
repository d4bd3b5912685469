"""Self shares of time per function, from perf and from callscope, named
alike so that the two can be compared (bench/hooks.sh, bench/samples-real.sh).

perf's samples (`perf script --no-inline -F ip,sym,dso` of a recording
with call chains) go to the function of their innermost user-space frame,
as `perf report --no-children` gives self time (by the symbol table, as
callscope names functions: a function inlined into another is that one's
time on both sides), but for the kernel's: a
CPU-time sample of callscope's lands when the thread is back in user
space, on the code that entered the kernel, so perf's kernel samples go
to that code too.  Time in libc is libc's function's on both sides
(realloc, memcpy), named alike once glibc's alias prefixes are taken off.
"""
import json
import re
import subprocess

MCOUNT = ("mcount", "_mcount", "__mcount_internal")


# Names glibc gives the very same code, of which perf and callscope may
# pick different ones: the large-file aliases, and memmove's variants,
# which memcpy's share.
ALIASES = {
    "fstatat64": "fstatat", "fstat64": "fstat", "stat64": "stat", "lstat64": "lstat",
    "open64": "open", "openat64": "openat", "lseek64": "lseek", "pread64": "pread",
    "pwrite64": "pwrite", "mmap64": "mmap",
}


def without_parameters(sym):
    """A demangled C++ name without its parameter list (and const):
    callscope prints `f(int) const`, perf `f`."""
    if sym.endswith(" const"):
        sym = sym[:-6]
    if not sym.endswith(")"):
        return sym
    depth = 0
    for i in range(len(sym) - 1, -1, -1):
        if sym[i] == ")":
            depth += 1
        elif sym[i] == "(":
            depth -= 1
            if depth == 0:
                return sym[:i] if i else sym
    return sym


def plain_name(sym):
    """SYM without glibc's alias prefixes (__GI_, __libc_, leading
    underscores) and gcc's clone suffixes (.part.0, .constprop.0, .isra.0):
    perf may name __GI___libc_free what callscope names free, and by its
    debug information luaV_concat what the symbol table calls
    luaV_concat.part.0; C++ names without their parameters, and glibc's
    aliases by one name."""
    for prefix in ("__GI_", "__libc_"):
        while sym.startswith(prefix) or sym.startswith("_" + prefix):
            sym = sym[sym.index(prefix) + len(prefix):]
    sym = re.sub(r"(\.(part|constprop|isra)\.[0-9]+)+$", "", sym.lstrip("_"))
    sym = without_parameters(sym)
    sym = re.sub(r"^memmove_(.*_unaligned)", r"memcpy_\1", sym)
    return ALIASES.get(sym, sym)


def perf_shares(path):
    """Samples per function in the perf script output at PATH, and their
    total; samples in mcount, the instrumentation's own, are left out."""
    counts, total = {}, 0
    for block in open(path).read().split("\n\n"):
        lines = [l.strip() for l in block.strip().splitlines()]
        if lines and lines[0].split(None, 1)[-1].rsplit(" (", 1)[0] in MCOUNT:
            continue
        for line in lines:
            if "[kernel" in line or " " not in line:
                continue
            sym = plain_name(line.split(None, 1)[1].rsplit(" (", 1)[0])
            counts[sym] = counts.get(sym, 0) + 1
            total += 1
            break
    return counts, total


def callscope_self(cs, files):
    """Self time per function summed over the recordings FILES, read by
    the CLI CS, and its total."""
    got, all_ns = {}, 0
    for path in files:
        d = json.loads(subprocess.run([cs, "report", "-i", path, "--json"],
                                      capture_output=True, text=True).stdout)
        for f in d["functions"]:
            name = plain_name(f["name"])
            got[name] = got.get(name, 0) + f["self_ns"]
            all_ns += f["self_ns"]
    return got, all_ns
