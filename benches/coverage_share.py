#!/usr/bin/env python3
# Usage: python3 benches/coverage_share.py callgrind.out (docs/performance.md).
"""Share of a callgrind profile spent counting coverage: the cost (own
instructions and the calls they make, inclusive) of every instruction whose
source line (inlined code included: callgrind's fi=/fe=) is in a coverage
file or in the controller's counting lines; plus, as an upper bound, the
inlined collection code (BTreeMap, Vec, String) in the functions that hold
such lines."""
import re, sys, collections
path = sys.argv[1]
COUNT_FILES = ('/src/coverage.rs', '/coverage.rs')
# The controller's counting lines: (file suffix, first line, last line), as
# of the commit that added this script (update them with the files).
COUNT_LINES = [('/src/controller/ledger.rs', 121, 121), ('/src/controller/ledger.rs', 144, 157),
               ('/src/controller/finish.rs', 60, 61), ('/src/controller/finish.rs', 90, 93),
               ('/src/controller/reply.rs', 385, 386),
               # The area index (KeptAreas, Catalogue::area, ::areas) and the
               # lines of the games that name the areas a reply kept.
               ('/src/shared_rules.rs', 130, 229),
               ('/dominion_text/session/mod.rs', 36, 41), ('/dominion_text/session/mod.rs', 227, 245),
               ('/dominion_text/session/mod.rs', 361, 366),
               ('/dominion_sexp/session/mod.rs', 256, 273),
               ('/evolution/session/judge.rs', 101, 103), ('/evolution/session/judge.rs', 134, 135)]
# Aiming (generated play's foresight), not counting: (file suffix, lines).
AIMING_LINES = [('/src/coverage.rs', 205, 285), ('/kalah/coverage.rs', 120, 162),
                ('/evolution/coverage.rs', 122, 196), ('/quoridor/coverage.rs', 66, 92),
                ('/dominion/coverage.rs', 96, 200)]
INLINED_LIB = ('/collections/btree/', '/alloc/src/vec/', '/alloc/src/string.rs', '/alloc/src/str.rs', '/core/src/str/', '/core/src/slice/cmp.rs', '/core/src/cmp.rs')
names = {'fl': {}, 'fn': {}, 'fi': {}, 'cfn': {}, 'cfi': {}, 'cfl': {}}
files = {}
fns = {}
def ref(kind, v):
    m = re.match(r'\((\d+)\)(?: (.*))?', v)
    if not m:
        return v
    i, name = m.group(1), m.group(2)
    table = files if kind in ('fl', 'fi', 'fe', 'cfi', 'cfl') else fns
    if name is not None:
        table[i] = name
    return table.get(i, '?')
total = 0
fl = fi = fn = ''
counting = aiming = lib_in_counting_fns = 0
fn_has_count = collections.defaultdict(int)
fn_lib = collections.defaultdict(int)
pending_call = False
pending_callee = None
callee_file = None
def position(token):
    """A line position of the callgrind format: `*` the last one, signed
    relative to it, else absolute."""
    if token == '*':
        return last_pos
    if token[0] in '+-':
        return last_pos + int(token)
    return int(token)
def is_counting(src, lineno):
    return src.endswith(COUNT_FILES) or any(src.endswith(f) and a <= lineno <= b for f, a, b in COUNT_LINES)
summary = 0
last_pos = 0
for raw in open(path):
    line = raw.rstrip('\n')
    if line.startswith('summary:'):
        summary = int(line.split()[1])
        continue
    m = re.match(r'^(fl|fi|fe|fn|cfn|cfi|cfl|ob|cob)=(.*)$', line)
    if m:
        kind, v = m.groups()
        if kind in ('ob', 'cob'):
            continue
        val = ref(kind, v)
        if kind == 'fl':
            fl = val; fi = ''
        elif kind in ('fi', 'fe'):
            fi = val
        elif kind == 'fn':
            fn = val; fi = ''
        elif kind in ('cfi', 'cfl'):
            callee_file = val
        continue
    if line.startswith('calls='):
        # `calls=<count> <target line>`: the target is relative to the last
        # position when signed, and does not move it. A call whose target is
        # itself counting code is left to that code's own lines, so that a
        # counting function called from a counting line is not added twice.
        pending_call = True
        pending_callee = (callee_file or fi or fl, position(line.split()[1]))
        callee_file = None
        continue
    m = re.match(r'^([+-]?\d+|\*)\s+(\d+)$', line)
    if not m:
        m2 = re.match(r'^([+-]?\d+|\*)\s+(\d+)', line)
        if not m2:
            pending_call = False
            continue
        m = m2
    pos, cost = m.group(1), int(m.group(2))
    is_call = pending_call
    pending_call = False
    src = fi or fl
    lineno = position(pos)
    last_pos = lineno
    key = (fn, src)
    is_count = is_counting(src, lineno)
    if is_count and is_call and is_counting(*pending_callee):
        continue
    if is_count:
        if any(src.endswith(f) and a <= lineno <= b for f, a, b in AIMING_LINES):
            aiming += cost
        else:
            counting += cost
            fn_has_count[fn] += cost
    elif any(l in src for l in INLINED_LIB) and not is_call:
        fn_lib[fn] += cost
print(f"process total (callgrind summary): {summary:,} instructions")
print(f"counting (coverage files and the controller's counting lines, with their calls): {counting:,} = {100*counting/summary:.3f} %")
upper = counting + sum(fn_lib[f] for f in fn_has_count)
print(f"  plus inlined collection code in the functions that count (an upper bound): {upper:,} = {100*upper/summary:.3f} %")
print(f"aiming (foresight of generated play, not counting): {aiming:,} = {100*aiming/summary:.3f} %")
for f, c in sorted(fn_has_count.items(), key=lambda x: -x[1])[:8]:
    print(f"   {c:>10,}  {f[:110]}", flush=True)
